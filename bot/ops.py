"""Operations: an online backup of the database, and a health check a supervisor can run.

The running bot writes a small status file beside the database every HEARTBEAT seconds
(which adapters are connected); `python -m bot health` reads it and checks that the store
answers, so its exit status says more than "the process is alive".
"""

from __future__ import annotations

import json
import os
import sqlite3
import time
from collections.abc import Mapping
from pathlib import Path

HEARTBEAT = 30.0
STALE = 3 * HEARTBEAT


def status_path(db: str | Path) -> Path:
    return Path(db).with_suffix(".health.json")


def write_status(db: str | Path, adapters: Mapping[str, bool], now: float | None = None) -> None:
    """Atomically replace the status file (write, then rename)."""
    path = status_path(db)
    tmp = path.with_suffix(".tmp")
    tmp.write_text(json.dumps({"at": now if now is not None else time.time(), "pid": os.getpid(),
                               "adapters": dict(adapters)}))
    tmp.replace(path)


def _check_store(db: str) -> None:
    """Raise unless the database answers a query on the games table."""
    if db.startswith(("postgresql://", "postgres://")):
        import asyncio

        import asyncpg

        async def query() -> None:
            conn = await asyncpg.connect(db, timeout=5)
            try:
                await conn.fetchval("SELECT COUNT(*) FROM games WHERE over = 0")
            finally:
                await conn.close()

        asyncio.run(query())
        return
    conn = sqlite3.connect(f"file:{db}?mode=ro", uri=True, timeout=5)
    try:
        conn.execute("SELECT COUNT(*) FROM games WHERE over = 0").fetchone()
    finally:
        conn.close()


def backup(db: str | Path, dest: str | Path) -> int:
    """A consistent copy of a live database with SQLite's online backup API; returns its size."""
    if not Path(db).exists():
        raise FileNotFoundError(db)
    src = sqlite3.connect(f"file:{db}?mode=ro", uri=True)
    out = sqlite3.connect(dest)
    try:
        src.backup(out)
    finally:
        out.close()
        src.close()
    return Path(dest).stat().st_size


def health(db: str | Path, now: float | None = None, status_db: str | Path | None = None) -> tuple[bool, str]:
    """(healthy, one line): the store answers, and every adapter of the running bot is connected.
    `db` is the SQLite file or a postgresql:// URL; the status file lies beside `status_db` (default
    `db`; with PostgreSQL, the configured DATABASE_PATH)."""
    now = time.time() if now is None else now
    parts, ok = [], True
    try:
        _check_store(str(db))
        parts.append("store ok")
    except Exception as exc:
        ok = False
        detail = str(exc) if isinstance(exc, sqlite3.Error) else type(exc).__name__  # never a URL/password
        parts.append(f"store FAILED ({detail})")
    db = status_db if status_db is not None else db
    try:
        status = json.loads(status_path(db).read_text())
    except (OSError, ValueError):
        return False, "; ".join([*parts, "bot not running (no status file)"])
    age = now - float(status.get("at", 0))
    if age > STALE:
        ok = False
        parts.append(f"status {age:.0f} s old (bot stopped or hung)")
    adapters = status.get("adapters", {})
    if not adapters:
        parts.append("console only")
    for name, connected in sorted(adapters.items()):
        ok = ok and bool(connected)
        parts.append(f"{name} {'connected' if connected else 'DISCONNECTED'}")
    return ok, "; ".join(parts)
