"""A game's own migrations (bot/storage/schemas.py), shown with higher or lower's table on SQLite and
PostgreSQL: applied after the shared list with a version of their own, once; a later entry applies
alone on an older database; a version above the game's newest refuses to open, untouched."""

from __future__ import annotations

import sqlite3
from pathlib import Path

import pytest

from bot.storage.base import Store, StoreOpenError
from bot.storage.migrations import MIGRATIONS, Migration
from bot.storage.schemas import Schema
from bot.storage.sqlite import SqliteStore
from tests.example_game import storage

SECOND = Schema("hilo", (*storage.SCHEMA.migrations, Migration("CREATE INDEX hilo_best_tries ON hilo_best (tries);")))


@pytest.fixture(params=["sqlite", "postgres"])
def db(request: pytest.FixtureRequest, tmp_path: Path) -> str:
    return str(tmp_path / "own.db") if request.param == "sqlite" else str(request.getfixturevalue("pg_url"))


def store_of(db: str, *schemas: Schema) -> Store:
    if db.startswith("postgresql://"):
        from bot.storage.postgres import PostgresStore

        return PostgresStore(db, schemas=schemas)
    return SqliteStore(db, schemas=schemas)


async def versions(db: str) -> tuple[int, dict[str, int]]:
    """The shared list's version and each owner's."""
    if db.startswith("postgresql://"):
        import asyncpg

        conn = await asyncpg.connect(db)
        try:
            shared = await conn.fetchval("SELECT MAX(version) FROM schema_version")
            owned = {r["owner"]: r["version"] for r in await conn.fetch("SELECT owner, version FROM schema_versions")}
        finally:
            await conn.close()
        return shared, owned
    with sqlite3.connect(db) as conn:
        shared = conn.execute("PRAGMA user_version").fetchone()[0]
        owned = dict(conn.execute("SELECT owner, version FROM schema_versions").fetchall())
    return shared, owned


async def set_version(db: str, version: int) -> None:
    if db.startswith("postgresql://"):
        import asyncpg

        conn = await asyncpg.connect(db)
        try:
            await conn.execute("UPDATE schema_versions SET version = $1 WHERE owner = 'hilo'", version)
        finally:
            await conn.close()
        return
    with sqlite3.connect(db) as conn:
        conn.execute("UPDATE schema_versions SET version = ? WHERE owner = 'hilo'", (version,))


async def test_a_game_s_table_is_made_once_with_its_own_version(db: str) -> None:
    store = store_of(db, storage.SCHEMA)
    await store.open()
    try:
        game_id = await store.create_game("p", "c", False, "hilo", {}, [], [], 1.0)
        await store.run(storage.best_job("p", "c", "ann", 5, game_id))
        await store.run(storage.best_job("p", "c", "ann", 7, game_id))  # not better: kept
    finally:
        await store.close()
    assert await versions(db) == (len(MIGRATIONS), {"hilo": 1})
    store = store_of(db, SECOND)  # a later bot adds an entry: only that one runs, the rows stay
    await store.open()
    try:
        assert await storage.best(store, "p", "c", "ann") == storage.Best(5, game_id)
    finally:
        await store.close()
    assert await versions(db) == (len(MIGRATIONS), {"hilo": 2})


async def test_a_game_s_version_above_its_newest_is_refused(db: str) -> None:
    store = store_of(db, storage.SCHEMA)
    await store.open()
    await store.close()
    await set_version(db, 4)
    with pytest.raises(StoreOpenError, match=r"schema version of hilo 4 is newer than this bot's newest \(1\)"):
        await store_of(db, storage.SCHEMA).open()
    assert await versions(db) == (len(MIGRATIONS), {"hilo": 4})


def test_a_store_without_games_tables_makes_no_bookkeeping(tmp_path: Path) -> None:
    """The shared list's databases stay as they were: `schema_versions` comes with the first game table."""
    import asyncio

    async def open_close() -> None:
        store = SqliteStore(str(tmp_path / "plain.db"))
        await store.open()
        await store.close()

    asyncio.run(open_close())
    with sqlite3.connect(tmp_path / "plain.db") as conn:
        names = {r[0] for r in conn.execute("SELECT name FROM sqlite_master WHERE type = 'table'")}
    assert "schema_versions" not in names and "games" in names


def test_one_schema_per_owner() -> None:
    with pytest.raises(ValueError, match="two schemas of one owner: hilo"):
        SqliteStore("x.db", schemas=(storage.SCHEMA, SECOND))
    with pytest.raises(ValueError, match="a game's kind"):
        Schema("Hi Lo", ())
