"""The stores on real databases: migrations from zero, atomic moves, fresh reads under load.
Every test taking `store` runs on SQLite and on PostgreSQL (skipped when no server is available)."""

from __future__ import annotations

import asyncio
import sqlite3
from pathlib import Path

import pytest

from bot.storage.base import Conflict, NewResult, SeatTaken, Store
from bot.storage.migrations import MIGRATIONS
from bot.storage.sqlite import SqliteStore
from core.games.base import Event


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
    gid = await store.create_game("p", "c", False, "duel", {"v": 0}, ["alice"], [Event("x")], 1.0)
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
        result = NewResult("alice", "A", "win", 1, 4, False, None)
        await store.save_game(row, {"v": 1}, True, ["bob"], [Event("e")], [result], 2.0)
    after = await store.get_game(gid)
    assert after == row
    assert await store.event_log(gid) == []
    assert await store.stats("p", "c", "alice") == []
