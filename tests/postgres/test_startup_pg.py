"""`python -m bot` on a PostgreSQL database it cannot use stops at once with one clear line (no
traceback, no password, no process left hanging), like the SQLite cases in tests/reliability."""

from __future__ import annotations

import asyncio
import socket
from pathlib import Path

import asyncpg

from bot.app.app import App
from bot.storage.migrations import MIGRATIONS
from tests.reliability.test_startup import bot, one_clear_line

PASSWORD = "S3cret-Pw-4711"


async def test_a_database_from_a_newer_version(pg_url: str, tmp_path: Path) -> None:
    app = await App.open(pg_url)
    await app.close()
    future = len(MIGRATIONS) + 2
    conn = await asyncpg.connect(pg_url)
    try:
        await conn.execute("INSERT INTO schema_version (version) VALUES ($1)", future)
    finally:
        await conn.close()
    url = pg_url.replace("://postgres@", f"://postgres:{PASSWORD}@", 1)
    done = await asyncio.to_thread(bot, "--db", url, env={"DATABASE_PATH": str(tmp_path / "bot.sqlite3")})
    line = one_clear_line(done, f"schema version {future}", str(len(MIGRATIONS)), "newer")
    assert PASSWORD not in done.stdout + done.stderr
    assert line.startswith("cannot open the database postgresql://")
    conn = await asyncpg.connect(pg_url)
    try:  # untouched: no migration ran on it
        assert await conn.fetchval("SELECT MAX(version) FROM schema_version") == future
    finally:
        await conn.close()


def test_no_server(tmp_path: Path) -> None:
    with socket.socket() as s:  # a port nobody listens on
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    url = f"postgresql://chatgames:{PASSWORD}@127.0.0.1:{port}/chatgames"
    done = bot("--db", url, env={"DATABASE_PATH": str(tmp_path / "bot.sqlite3")})
    line = one_clear_line(done, f"127.0.0.1:{port}")
    assert PASSWORD not in done.stdout + done.stderr
    assert line.startswith("cannot open the database postgresql://")
