"""`python -m bot health` on PostgreSQL: the store is queried, the status file read beside DATABASE_PATH."""

from __future__ import annotations

import asyncio
from pathlib import Path

from bot.app.app import App
from bot.process import ops


async def test_health_on_postgresql(pg_url: str, tmp_path: Path) -> None:
    app = await App.open(pg_url)
    await app.close()
    status_db = tmp_path / "bot.sqlite3"
    ops.write_status(status_db, {"telegram": True})
    # `python -m bot health` is a plain process with no event loop: run it outside this test's loop
    healthy, line = await asyncio.to_thread(ops.health, pg_url, status_db=status_db)
    assert healthy and line == "store ok; telegram connected"
    broken = pg_url.rsplit("/", 1)[0] + "/no_such_database"
    healthy, line = await asyncio.to_thread(ops.health, broken, status_db=status_db)
    assert not healthy and line.startswith("store FAILED (") and "no_such_database" not in line
