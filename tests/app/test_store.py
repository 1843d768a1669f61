"""The stores on real databases: migrations from zero, atomic moves, fresh reads under load.
Every test taking `store` runs on SQLite and on PostgreSQL (skipped when no server is available)."""

from __future__ import annotations

import asyncio
import sqlite3
from pathlib import Path

import pytest

from bot.storage import queries as q
from bot.storage.base import Conflict, NewResult, SeatTaken, Store
from bot.storage.migrations import MIGRATIONS
from bot.storage.sql import Tx, TxJob
from bot.storage.sqlite import SqliteStore
from core.games.base import Outcome
from core.games.challenge_events import Challenged, SecretsWanted


@pytest.fixture(params=["sqlite", "postgres"])
async def store(request: pytest.FixtureRequest, tmp_path: Path):  # type: ignore[no-untyped-def]
    if request.param == "postgres":  # a fresh database on the session's PostgreSQL server
        from bot.storage.postgres import PostgresStore
        from tests import pgserver

        server = request.getfixturevalue("pg_server")
        url = await pgserver.create_database(server)
        s: Store = PostgresStore(url)
    else:
        s = SqliteStore(str(tmp_path / "s.sqlite3"))
    await s.open()
    yield s
    await s.close()
    if request.param == "postgres":
        await pgserver.drop_database(server, url)


async def test_migrations_apply_from_zero_and_set_pragmas(tmp_path: Path) -> None:
    path = tmp_path / "m.sqlite3"
    s = SqliteStore(str(path))
    await s.open()
    await s.close()
    with sqlite3.connect(path) as db:
        assert db.execute("PRAGMA user_version").fetchone()[0] == len(MIGRATIONS)
        assert db.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
        tables = {r[0] for r in db.execute("SELECT name FROM sqlite_master WHERE type = 'table'")}
    assert {"games", "seats", "events", "results", "chats", "users", "seen"} <= tables
    s = SqliteStore(str(path))  # reopening applies nothing twice
    await s.open()
    await s.close()


async def test_reads_after_writes_are_fresh_under_concurrent_reads(store: Store) -> None:
    """Regression: overlapping statements on the reader connection once pinned an old snapshot."""
    gid = await store.create_game("p", "c", False, "duel", {"v": 0}, ["u0"], [], 1.0)
    stop = asyncio.Event()

    async def noise() -> None:
        while not stop.is_set():
            await store.chat_games("p", "c")

    readers = [asyncio.create_task(noise()) for _ in range(20)]
    try:
        for v in range(1, 150):
            row = await store.get_game(gid)
            assert row is not None and row.state["v"] == v - 1, f"stale read at {v}"
            await store.save_game(row, {"v": v}, False, [], [], [], 2.0)
    finally:
        stop.set()
        await asyncio.gather(*readers)


async def test_compare_and_set_and_one_seat_per_chat(store: Store) -> None:
    gid = await store.create_game("p", "c", False, "duel", {"v": 0}, ["alice"], [Challenged()], 1.0)
    row = await store.get_game(gid)
    assert row is not None
    await store.save_game(row, {"v": 1}, False, [], [], [], 2.0)
    with pytest.raises(Conflict):  # the same (now old) version again
        await store.save_game(row, {"v": 2}, False, [], [], [], 3.0)
    with pytest.raises(SeatTaken):
        await store.create_game("p", "c", False, "practice", {}, ["alice"], [], 4.0)
    other_chat = await store.create_game("p", "other", False, "practice", {}, ["alice"], [], 4.0)
    assert other_chat


async def test_a_failed_move_leaves_nothing_behind(store: Store) -> None:
    gid = await store.create_game("p", "c", False, "duel", {"v": 0}, ["alice"], [], 1.0)
    await store.create_game("p", "c", False, "practice", {}, ["bob"], [], 1.0)
    row = await store.get_game(gid)
    assert row is not None
    with pytest.raises(SeatTaken):  # bob sits elsewhere in this chat: the whole move is rolled back
        result = NewResult("alice", "A", Outcome.WIN, 1, 4, False, None)
        await store.save_game(row, {"v": 1}, True, ["bob"], [SecretsWanted()], [result], 2.0)
    after = await store.get_game(gid)
    assert after == row
    assert await store.event_log(gid) == []
    assert await store.stats("p", "c", "alice") == []


async def test_game_bounds_hold_under_concurrent_creations(store: Store) -> None:
    """The bounds are counted in the creating transaction: 40 creations at once in one chat leave
    exactly `max_chat` running games, and one creator's never pass `max_user`."""
    from bot.storage.base import TooManyGames

    async def create(i: int, creator: str) -> int | str:
        try:
            return await store.create_game("p", "c", False, "kegeln", {}, [f"{creator}-{i}"], [], 1.0,
                                           creator=f"{creator}-{i}", max_chat=7, max_user=3)
        except TooManyGames as refused:
            return refused.scope

    outcomes = await asyncio.gather(*(create(i, "u") for i in range(40)))
    assert sum(isinstance(o, int) for o in outcomes) == 7
    assert {o for o in outcomes if isinstance(o, str)} == {"chat"}
    assert len(await store.chat_games("p", "c")) == 7
    # one creator whose seat moves on (a scorer handing the role away) still counts every game
    made = []
    for i in range(5):
        try:
            gid = await store.create_game("p", "d", False, "kegeln", {}, ["boss"], [], 1.0,
                                          creator="boss", max_chat=7, max_user=3)
        except TooManyGames as refused:
            made.append(refused.scope)
            continue
        made.append("ok")
        row = await store.get_game(gid)
        assert row is not None
        await store.save_game(row, {}, False, [f"helper{i}"], [], [], 2.0,
                              extra=release_seats(gid, f"helper{i}"))
    assert made == ["ok", "ok", "ok", "user", "user"]


async def test_find_users_prefers_the_chat_and_compares_cleaned_names(store: Store) -> None:
    for uid, name in (("b1", "Bob"), ("b2", "bob"), ("b3", "BOB"), ("g1", "Bir\u200bgit")):
        await store.save_user("p", uid, name, None)
    await store.create_game("p", "c", False, "practice", {}, ["b2"], [], 1.0)
    await store.create_game("p", "c", False, "practice", {}, ["g1"], [], 1.0)
    assert await store.find_users("p", "c", "BOB") == [("b2", "bob")]
    assert await store.find_users("p", "c", "Birgit") == [("g1", "Bir\u200bgit")]
    assert sorted(await store.find_users("p", None, "bob")) == [("b1", "Bob"), ("b2", "bob"), ("b3", "BOB")]
    assert await store.find_users("p", "elsewhere", "bob") == []
    assert await store.get_game(10**30) is None  # an id longer than the database's integers names no game


def _sqlite_schema(path: Path) -> tuple[int, list[tuple[str, ...]]]:
    with sqlite3.connect(path) as db:
        version = db.execute("PRAGMA user_version").fetchone()[0]
        objects = db.execute("SELECT type, name, tbl_name, sql FROM sqlite_master ORDER BY type, name").fetchall()
    return version, objects


def _legacy_sqlite(path: Path, upto: int) -> None:
    """A database as the SQLite store before the one SQL layer migrated it, up to version `upto`."""
    from tests.postgres.legacy_schema import SQLITE_V4

    with sqlite3.connect(path, isolation_level=None) as db:
        for number, sql in enumerate(SQLITE_V4[:upto], start=1):
            db.execute("BEGIN IMMEDIATE")
            for stmt in filter(str.strip, sql.split(";")):
                db.execute(stmt)
            db.execute(f"PRAGMA user_version={number}")
            db.execute("COMMIT")
    sqlite3.connect(path).close()


async def test_migrations_give_the_schema_the_earlier_store_gave_and_open_its_databases(tmp_path: Path) -> None:
    """The one list of migrations builds, on SQLite, the very schema (same version numbers, the same
    CREATE texts) that the SQLite store's own list built; a database it wrote at any version opens and
    upgrades unchanged, its rows kept."""
    from tests.postgres.legacy_schema import SQLITE_V4

    _legacy_sqlite(tmp_path / "old.sqlite3", len(SQLITE_V4))
    # the versions after the legacy list's last are new on both: the legacy database upgrades to them
    for name in ("old", "new"):
        store = SqliteStore(str(tmp_path / f"{name}.sqlite3"))
        await store.open()
        await store.close()
    assert _sqlite_schema(tmp_path / "old.sqlite3")[0] == len(MIGRATIONS) > len(SQLITE_V4)
    assert _sqlite_schema(tmp_path / "new.sqlite3") == _sqlite_schema(tmp_path / "old.sqlite3")
    for upto in range(len(SQLITE_V4) + 1):
        path = tmp_path / f"v{upto}.sqlite3"
        _legacy_sqlite(path, upto)
        if upto:
            with sqlite3.connect(path) as db:
                db.execute("INSERT INTO games (platform, chat_id, kind, state, created, updated)"
                           " VALUES ('p', 'c', 'duel', '{\"v\": 7}', 1, 1)")
        s = SqliteStore(str(path))
        await s.open()
        try:
            assert [g.state for g in await s.chat_games("p", "c")] == ([{"v": 7}] if upto else [])
        finally:
            await s.close()
        assert _sqlite_schema(path) == _sqlite_schema(tmp_path / "old.sqlite3"), upto


def release_seats(game_id: int, keep: str) -> TxJob:
    """A move's extra write: every seat of the game but `keep`'s let go (as Hausnummern's /scorer does)."""
    async def job(tx: Tx) -> None:
        await tx.execute(q.RELEASE_SEATS_BUT, game_id=game_id, keep=keep)
    return job
