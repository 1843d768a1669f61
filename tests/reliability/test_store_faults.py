"""SQLite busy/locked and a full disk: a clear log line, a clear reply, no corrupted game."""

from __future__ import annotations

import logging
import sqlite3
from pathlib import Path

import pytest

from bot.app.app import App
from bot.storage.sqlite import SqliteStore
from bot.texts.i18n import Catalogs
from tests.app.harness import Table, found, texts


async def open_app(path: Path, busy_ms: int = 5000) -> App:
    store = SqliteStore(str(path), busy_timeout_ms=busy_ms)
    await store.open()
    return App(store, Catalogs(), seed=5)


def codes() -> list[str]:
    return [f"{i:04d}" for i in range(123, 9999) if len(set(f"{i:04d}")) == 4]


async def test_full_disk_refuses_the_move_clearly_and_keeps_the_game(tmp_path: Path,
                                                                    caplog: pytest.LogCaptureFixture) -> None:
    db = tmp_path / "bot.sqlite3"
    app = await open_app(db)
    t = Table(app)
    try:
        await t.say("alice", "/practice")
        gid = found(await app.store.last_game("test", "group-1", "alice")).id
        store = app.store
        assert isinstance(store, SqliteStore) and store._w is not None
        writer = store._w
        (pages,) = found(await (await writer.execute("PRAGMA page_count")).fetchone())
        await writer.execute(f"PRAGMA max_page_count = {pages}")  # the disk is now full
        secret = (await t.state(gid))["secret"]
        refused = None
        for code in codes():
            if code == secret:
                continue
            before = await app.store.get_game(gid)
            r = await t.say("alice", code)
            if "storage is full" in texts(r):
                refused = (code, before)
                break
        assert refused, "the database never filled up"
        code, before = refused
        after = await app.store.get_game(gid)
        assert after == before  # the refused move left no trace
        assert any("database write failed (full)" in rec.getMessage() for rec in caplog.records)
        await writer.execute("PRAGMA max_page_count = 1073741823")  # space again
        r = await t.say("alice", code)
        assert f"#{len(found(before).state['attempts']) + 1}: {code}" in texts(r)
    finally:
        await app.close()
    with sqlite3.connect(db) as check:
        assert check.execute("PRAGMA integrity_check").fetchone()[0] == "ok"


async def test_locked_database_refuses_clearly_then_recovers(tmp_path: Path,
                                                            caplog: pytest.LogCaptureFixture) -> None:
    db = tmp_path / "bot.sqlite3"
    app = await open_app(db, busy_ms=100)
    t = Table(app)
    try:
        await t.say("alice", "/practice")
        other = sqlite3.connect(db, isolation_level=None)  # another process holds the write lock
        other.execute("BEGIN IMMEDIATE")
        with caplog.at_level(logging.ERROR):
            r = await t.say("alice", "0123")
        assert "busy" in texts(r) and "not saved" in texts(r)
        assert any("database write failed (busy)" in rec.getMessage() for rec in caplog.records)
        other.execute("ROLLBACK")
        other.close()
        r = await t.say("alice", "0123")
        assert "#1: 0123" in texts(r)
    finally:
        await app.close()
