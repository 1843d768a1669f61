"""The PostgreSQL store beside the SQLite one: the same schema and methods, the same answers to the
same writes, Duplicate / SeatTaken / Conflict / StoreUnavailable, migrations by several processes."""

from __future__ import annotations

import asyncio
import inspect
import sqlite3
from pathlib import Path
from typing import Any

import asyncpg
import pytest

from bot.club import records as kegeln
from bot.games.computer.storage import bot_level
from bot.games.daily import storage as daily
from bot.games.daily.storage import DailyTaken
from bot.games.logik.storage import logik_record, logik_sides
from bot.games.practice.storage import practice_bests
from bot.games.registry import schemas
from bot.storage.base import (
    Conflict,
    Duplicate,
    NewResult,
    SeatTaken,
    Store,
    StoreOpenError,
    StoreUnavailable,
)
from bot.storage.migrations import MIGRATIONS
from bot.storage.postgres import PostgresStore
from bot.storage.sql import Tx
from bot.storage.sqlite import SqliteStore
from core.club.records import GameRecord, MemberRecord, Played, ThrowRecord
from core.games.base import Outcome
from core.games.challenge_events import Accepted, BotLevel, Resigned, SecretsWanted
from core.games.daily.rules import DailyOutcome


def _public(cls: type) -> dict[str, inspect.Signature]:
    return {n: inspect.signature(getattr(cls, n)) for n in dir(cls) if not n.startswith("_")}


def test_every_public_method_of_the_sqlite_store_exists_with_the_same_signature() -> None:
    """A query added to one store must be added to the other (and to the Store protocol)."""
    sqlite, pg = _public(SqliteStore), _public(PostgresStore)
    assert sorted(sqlite) == sorted(pg)
    for name, sig in sqlite.items():
        assert list(sig.parameters) == list(pg[name].parameters), name
        assert [p.default for p in sig.parameters.values()] == [p.default for p in pg[name].parameters.values()]
    # the Store protocol (with the protocols it includes, if any)
    protocol = {n for c in Store.__mro__ if c.__module__ == Store.__module__ for n in vars(c) if not n.startswith("_")}
    assert protocol == set(sqlite), "bot.storage.base.Store lists every public store method"


async def test_the_schema_is_the_sqlite_schema(tmp_path: Path, pg_url: str) -> None:
    """Each SQLite migration has its PostgreSQL twin: same tables, same columns."""
    s = SqliteStore(str(tmp_path / "x.sqlite3"))
    await s.open()
    await s.close()
    with sqlite3.connect(tmp_path / "x.sqlite3") as db:
        tables = [r[0] for r in db.execute("SELECT name FROM sqlite_master WHERE type = 'table'")]
        lite = {t: sorted(r[1] for r in db.execute(f"PRAGMA table_info({t})")) for t in tables}
    p = PostgresStore(pg_url)
    await p.open()
    await p.close()
    conn = await asyncpg.connect(pg_url)
    try:
        rows = await conn.fetch("SELECT table_name, column_name FROM information_schema.columns"
                                " WHERE table_schema = 'public' AND table_name != 'schema_version'")
        assert await conn.fetchval("SELECT MAX(version) FROM schema_version") == len(MIGRATIONS)
    finally:
        await conn.close()
    pg: dict[str, list[str]] = {}
    for r in rows:
        pg.setdefault(r["table_name"], []).append(r["column_name"])
    assert {t: sorted(c) for t, c in pg.items()} == lite


async def _pg_schema(url: str) -> dict[str, Any]:
    conn = await asyncpg.connect(url)
    try:
        columns = await conn.fetch(
            "SELECT table_name, column_name, data_type, is_nullable, column_default, ordinal_position"
            " FROM information_schema.columns WHERE table_schema = 'public' ORDER BY table_name, ordinal_position")
        indexes = await conn.fetch("SELECT tablename, indexname, indexdef FROM pg_indexes"
                                   " WHERE schemaname = 'public' ORDER BY indexname")
        constraints = await conn.fetch(
            "SELECT conrelid::regclass::text AS tbl, conname, pg_get_constraintdef(oid) AS def FROM pg_constraint"
            " WHERE connamespace = 'public'::regnamespace ORDER BY conname")
        versions = [r[0] for r in await conn.fetch("SELECT version FROM schema_version ORDER BY 1")]
    finally:
        await conn.close()
    return {"columns": [tuple(r) for r in columns], "indexes": [tuple(r) for r in indexes],
            "constraints": [tuple(r) for r in constraints], "versions": versions}


async def _legacy_pg(url: str, upto: int) -> None:
    """A database as the PostgreSQL store before the one SQL layer migrated it, up to version `upto`."""
    from tests.postgres.legacy_schema import POSTGRES_V4

    conn = await asyncpg.connect(url)
    try:
        await conn.execute("CREATE TABLE IF NOT EXISTS schema_version (version INTEGER NOT NULL)")
        for number, sql in enumerate(POSTGRES_V4[:upto], start=1):
            async with conn.transaction():
                await conn.execute(sql)
                await conn.execute("INSERT INTO schema_version (version) VALUES ($1)", number)
    finally:
        await conn.close()


async def test_migrations_give_the_schema_the_earlier_store_gave_and_open_its_databases(pg_server: str) -> None:
    """The one list of migrations builds, on PostgreSQL, the very schema (version rows, columns and
    their types, indexes, constraints) that the PostgreSQL store's own list built; a database it wrote
    at any version opens and upgrades to the same schema, its rows kept."""
    from tests import pgserver
    from tests.postgres.legacy_schema import POSTGRES_V4

    urls = [await pgserver.create_database(pg_server) for _ in range(len(POSTGRES_V4) + 2)]
    try:
        old, fresh, *partial = urls
        await _legacy_pg(old, len(POSTGRES_V4))
        # the versions after the legacy lists' last are new on both: the legacy database upgrades to them
        for url in (old, fresh):
            p = PostgresStore(url)
            await p.open()
            await p.close()
        want = await _pg_schema(old)
        assert want["versions"] == list(range(1, len(MIGRATIONS) + 1))
        assert await _pg_schema(fresh) == want
        for upto, url in enumerate(partial):
            await _legacy_pg(url, upto)
            if upto:
                conn = await asyncpg.connect(url)
                await conn.execute("INSERT INTO games (platform, chat_id, kind, state, created, updated)"
                                   " VALUES ('p', 'c', 'duel', '{\"v\": 7}', 1, 1)")
                await conn.close()
            s = PostgresStore(url)
            await s.open()
            try:
                assert [g.state for g in await s.chat_games("p", "c")] == ([{"v": 7}] if upto else [])
            finally:
                await s.close()
            assert await _pg_schema(url) == want, upto
    finally:
        for url in urls:
            await pgserver.drop_database(pg_server, url)


async def test_several_processes_migrate_one_database_once(pg_url: str) -> None:
    stores = [PostgresStore(pg_url) for _ in range(4)]
    await asyncio.gather(*(s.open() for s in stores))  # the advisory lock lets one migrate
    await asyncio.gather(*(s.close() for s in stores))
    conn = await asyncpg.connect(pg_url)
    try:
        assert [r[0] for r in await conn.fetch("SELECT version FROM schema_version ORDER BY 1")] == \
            list(range(1, len(MIGRATIONS) + 1))
    finally:
        await conn.close()


async def _scenario(store: Store) -> dict[str, Any]:
    """The same writes on any store; returns every read's answer."""
    g1 = await store.create_game("p", "c", False, "duel", {"b": [1, {"z": 2, "a": None}], "a": "ü"},
                                 ["alice", "bob"], [Accepted("alice")], 10.0, ("p", "u1"))
    g2 = await store.create_game("p", "c", False, "practice", {"v": 0}, ["carol"], [], 11.0)
    g3 = await store.create_game("p", "c", False, "logik", {"v": 0}, ["dave", "erin"],
                                 [BotLevel("easy")], 12.0)
    g4 = await store.create_game("p", "c", False, "kegeln", {"v": 0}, ["frank"], [], 12.5)
    row = await store.get_game(g1)
    assert row is not None
    await store.save_game(row, {"v": 1}, True, [], [Resigned("bob")],
                          [NewResult("alice", "Alice", Outcome.WIN, 5, 4, False, "good"),
                           NewResult("bob", "Bob", Outcome.LOSS, 5, 4, False, None)], 13.0, ("p", "u2"))
    row2 = await store.get_game(g2)
    assert row2 is not None
    await store.save_game(row2, {"v": 1}, True, [], [],
                          [NewResult("carol", "Carol", Outcome.WIN, 3, 4, True, "genius")], 14.0)
    row3 = await store.get_game(g3)
    assert row3 is not None
    await store.save_game(row3, {"v": 1}, True, [], [],
                          [NewResult("dave", "Dave", Outcome.WIN, 4, 4, False, None, "white"),
                           NewResult("erin", "Erin", Outcome.LOSS, 4, 4, False, None, "black")], 15.0)
    row4 = await store.get_game(g4)
    assert row4 is not None
    members = [MemberRecord(name=n, team=None, number=i, place=i, win=i == 1, throws=3, pins=p, nines=1, pumpen=0)
               for i, (n, p) in enumerate([("Anna", 20), ("ben", 15)], 1)]
    throws = (ThrowRecord("Anna", 9, 1, 9, 12.6), ThrowRecord("ben", 5, 2, 5, 12.7))
    played = Played(True, ("Anna", "ben"), done=True, record=GameRecord("high", 3, 0, "Anna", True),
                    members=tuple(members), log=throws)

    async def job(tx: Tx) -> None:
        await kegeln.record_in(tx, g4, "p", "c", played, 16.0)
    await store.save_game(row4, {"v": 1}, True, [], [], [], 16.0, extra=job)
    await store.set_chat_lang("p", "c", "de")
    await store.set_chat_lang("p", "c", "en")
    await asyncio.gather(store.save_user("p", "alice", "Alice", "de"), store.save_user("p", "bob", "Bob", None))
    await store.save_user("p", "alice", "Alicia", None)
    await store.mark_seen("p", "u3", 17.0)
    g5 = await store.create_game("p", "c", False, "duel", {"v": 0}, ["alice"], [], 18.0)
    # the daily puzzle: a chat's time zone, the code of the day (the first draw stays), attempts
    await store.set_chat_tz("p", "c", "Europe/Berlin")
    first = await daily.daily_puzzle(store, "p", "c", "2026-11-30", "1a2b", lambda: ("0123", "en"), 18.1)
    second = await daily.daily_puzzle(store, "p", "c", "2026-11-30", "1a2b", lambda: ("9876", "en"), 18.2)
    daily_games = []
    for i, (who, day) in enumerate([("dave", "2026-11-29"), ("dave", "2026-11-30"), ("erin", "2026-11-30")]):
        start = daily.daily_start_job("p", "c", day, "1a2b", who, who.title(), 18.3 + i)
        daily_games.append(await store.create_game("p", "c", False, "daily", {"v": 0}, [], [], 18.3 + i,
                                                   extra=start))
    try:
        await store.create_game("p", "c", False, "daily", {"v": 0}, [], [], 18.9,
                                extra=daily.daily_start_job("p", "c", "2026-11-30", "1a2b", "erin", "Erin", 18.9))
        taken = False
    except DailyTaken:
        taken = True
    for gid, outcome, n in zip(daily_games, (DailyOutcome.SOLVED, DailyOutcome.SOLVED, DailyOutcome.FAILED), (4, 3, 10),
                              strict=True):
        daily_row = await store.get_game(gid)
        assert daily_row is not None
        await store.save_game(daily_row, {"v": 1}, True, [], [], [], 19.0,
                              extra=daily.daily_finish_job(gid, outcome, n, 19.0))
    out: dict[str, Any] = {
        "game": await store.get_game(g1), "missing": await store.get_game(999),
        "seated": await store.seated_games("p", "alice"), "seated_c": await store.seated_games("p", "alice", "c"),
        "chat": await store.chat_games("p", "c"), "idle": await store.idle_games(18.5),
        "last": await store.last_game("p", "c", "bob"), "log": await store.event_log(g1),
        "last_games": await store.last_games("p", "c", "bob", 3),
        "seen": [await store.was_seen("p", u) for u in ("u1", "u2", "u3", "u4")],
        "lang": (await store.chat_lang("p", "c"), await store.chat_lang("p", "x")),
        "user": (await store.user_name("p", "alice"), await store.user_locale("p", "alice"),
                 await store.user_locale("p", "bob")),
        "find": (await store.find_users("p", "c", "ALICE"), await store.find_users("p", "c", "alicia"),
                 await store.find_users("p", "c", "nobody"), await store.find_users("p", None, "BOB")),
        "stats": (await store.stats("p", "c", "alice"), await store.stats("p", None, "bob")),
        "bests": await practice_bests(store, "p", "carol"), "top": await store.top("p", "c", "duel"),
        "top_skip": await store.top("p", "c", "duel", skip="bob"),
        "k_member": (await kegeln.member(store, "p", "c", "ANNA"), await kegeln.member(store, "p", "c", "x")),
        "k_club": await kegeln.club(store, "p", "c"), "k_series": await kegeln.series(store, "p", "c"),
        "k_games": await kegeln.games_since(store, "p", "c", 0.0),
        "k_members": await kegeln.members_since(store, "p", "c", 0.0),
        "k_throws": await kegeln.throw_log(store, "p", "c"),
        "l_sides": (await logik_sides(store, "p", "c"), await logik_sides(store, "p", None)),
        "l_record": await logik_record(store, "p", None, "dave"),
        "bot": (await bot_level(store, "p", "c", "logik", g3, "dave"),
                await bot_level(store, "p", "c", "duel", g1, "x")),
        "daily": (first, second, taken, await store.chat_tz("p", "c"), await store.chat_tz("p", "x"),
                  await daily.daily_play(store, "p", "c", "2026-11-30", "1a2b", "erin"),
                  await daily.daily_play(store, "p", "c", "2026-11-30", "1a2b", "zed"),
                  await daily.daily_day(store, "p", "c", "2026-11-30", "1a2b"),
                  await daily.daily_history(store, "p", "c", "1a2b"),
                  await daily.daily_solved_days(store, "p", "c", "1a2b", "dave")),
    }
    await store.migrate_chat("p", "c", "c2")
    out["migrated"] = (await store.chat_games("p", "c2"), await store.chat_lang("p", "c2"),
                       await store.seated_games("p", "alice", "c2"), await kegeln.club(store, "p", "c2"),
                       await store.chat_tz("p", "c2"), await daily.daily_history(store, "p", "c2", "1a2b"))
    assert g5
    return out


async def test_the_same_writes_give_the_same_answers_on_both_stores(tmp_path: Path, pg_url: str) -> None:
    answers = []
    # with the games' schemas, as the App opens them: a game's rows move with its chat (Schema.chat_moves)
    owned = schemas()
    for store in (SqliteStore(str(tmp_path / "same.sqlite3"), schemas=owned), PostgresStore(pg_url, schemas=owned)):
        await store.open()
        try:
            answers.append(await _scenario(store))
        finally:
            await store.close()
    lite, pg = answers
    assert lite["k_club"] and lite["stats"][0] and lite["top"] and lite["l_record"] and lite["migrated"][0]
    assert lite["daily"][:4] == (("0123", "en"), ("0123", "en"), True, "Europe/Berlin")
    assert lite["daily"][9] == ["2026-11-29", "2026-11-30"] and lite["migrated"][5]
    for key in lite:
        assert pg[key] == lite[key], key


@pytest.fixture
async def pg_store(pg_url: str):  # type: ignore[no-untyped-def]
    s = PostgresStore(pg_url)
    await s.open()
    yield s
    await s.close()


async def test_a_second_delivery_is_a_duplicate_and_rolls_its_move_back(pg_store: PostgresStore) -> None:
    gid = await pg_store.create_game("p", "c", False, "duel", {"v": 0}, ["alice"], [], 1.0, ("p", "upd-1"))
    row = await pg_store.get_game(gid)
    assert row is not None
    with pytest.raises(Duplicate):
        await pg_store.save_game(row, {"v": 1}, False, [], [SecretsWanted()], [], 2.0, ("p", "upd-1"))
    assert await pg_store.get_game(gid) == row and await pg_store.event_log(gid) == []
    with pytest.raises(Duplicate):
        await pg_store.create_game("p", "c2", False, "duel", {}, ["zed"], [], 3.0, ("p", "upd-1"))
    assert await pg_store.seated_games("p", "zed") == []


async def test_concurrent_compare_and_set_lets_exactly_one_win(pg_store: PostgresStore, pg_url: str) -> None:
    gid = await pg_store.create_game("p", "c", False, "duel", {"v": 0}, ["alice"], [], 1.0)
    row = await pg_store.get_game(gid)
    assert row is not None
    others = [PostgresStore(pg_url) for _ in range(3)]  # as if three more processes
    await asyncio.gather(*(o.open() for o in others))
    try:
        outcomes = await asyncio.gather(*(s.save_game(row, {"v": i}, False, [], [Resigned(f"u{i}")], [], 2.0)
                                          for i, s in enumerate([pg_store, *others, pg_store, *others])),
                                        return_exceptions=True)
    finally:
        await asyncio.gather(*(o.close() for o in others))
    assert sum(o == 2 for o in outcomes) == 1
    assert all(isinstance(o, Conflict) for o in outcomes if o != 2)
    assert len(await pg_store.event_log(gid)) == 1


async def test_concurrent_seats_in_one_chat_let_one_win(pg_store: PostgresStore) -> None:
    outcomes = await asyncio.gather(*(pg_store.create_game("p", "c", False, "duel", {}, ["alice", f"x{i}"], [], 1.0)
                                      for i in range(6)), return_exceptions=True)
    assert sum(isinstance(o, int) for o in outcomes) == 1
    assert all(isinstance(o, SeatTaken) and o.user_id == "alice" for o in outcomes if not isinstance(o, int))
    assert len(await pg_store.chat_games("p", "c")) == 1  # nothing of the refused games is left


async def test_two_devices_starting_one_daily_attempt_at_once_get_one(pg_store: PostgresStore, pg_url: str) -> None:
    others = [PostgresStore(pg_url) for _ in range(3)]  # as if more processes
    await asyncio.gather(*(o.open() for o in others))
    try:
        outcomes = await asyncio.gather(*(
            s.create_game("p", "c", False, "daily", {}, [], [], 1.0,
                          extra=daily.daily_start_job("p", "c", "2026-11-30", "1a2b", "alice", "Alice", 1.0))
            for s in [pg_store, *others, pg_store, *others]), return_exceptions=True)
    finally:
        await asyncio.gather(*(o.close() for o in others))
    assert sum(isinstance(o, int) for o in outcomes) == 1
    assert all(isinstance(o, DailyTaken) for o in outcomes if not isinstance(o, int))
    assert len(await pg_store.chat_games("p", "c")) == 1  # the refused attempts left no game behind


async def test_no_server_is_a_store_open_error() -> None:
    with socket_closed() as port:
        store = PostgresStore(f"postgresql://nobody:pw-4711@127.0.0.1:{port}/none", timeout=2.0)
        with pytest.raises(StoreOpenError) as err:
            await store.open()
    assert str(err.value).startswith(f"cannot open the database postgresql://nobody@127.0.0.1:{port}/none: ")
    assert "pw-4711" not in str(err.value)


async def test_a_lost_connection_is_store_unavailable_and_nothing_is_half_stored(pg_store: PostgresStore,
                                                                                  pg_server: str,
                                                                                  pg_url: str) -> None:
    gid = await pg_store.create_game("p", "c", False, "duel", {"v": 0}, ["alice"], [], 1.0)
    row = await pg_store.get_game(gid)
    assert row is not None
    dbname = pg_url.rsplit("/", 1)[1]

    async def cut(tx: Any) -> None:  # the server drops this very connection mid-move
        conn: asyncpg.Connection = tx.conn
        admin = await asyncpg.connect(pg_server)
        try:
            await admin.execute("SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = $1"
                                " AND pid = $2", dbname, conn.get_server_pid())
        finally:
            await admin.close()
        await conn.execute("SELECT 1")

    with pytest.raises(StoreUnavailable) as err:
        await pg_store.save_game(row, {"v": 1}, False, [], [SecretsWanted()], [], 2.0, extra=cut)
    assert err.value.reason == "error"
    assert await pg_store.get_game(gid) == row and await pg_store.event_log(gid) == []  # the pool reconnects
    assert await pg_store.save_game(row, {"v": 1}, False, [], [], [], 3.0) == 2


class socket_closed:
    """A loopback port nobody listens on."""

    def __enter__(self) -> int:
        import socket

        with socket.socket() as s:
            s.bind(("127.0.0.1", 0))
            return int(s.getsockname()[1])

    def __exit__(self, *exc: object) -> None:
        return None
