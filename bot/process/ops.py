"""Operations: an online backup of the database, and a health check a supervisor can run.

Backups: SQLite through its online backup API; PostgreSQL through `pg_dump --format=custom`
(restore with `pg_restore`), with the password passed in the child's environment, never on its
command line (where `ps` shows it to every local user).

The running bot writes a small status file beside the database every HEARTBEAT seconds
(each platform's state: connected, degraded, retrying or stopped); `python -m bot health` reads
it and checks that the store answers, so its exit status says more than "the process is alive".
"""

from __future__ import annotations

import glob
import json
import os
import re
import shutil
import sqlite3
import subprocess
import tempfile
import time
from collections.abc import Mapping
from pathlib import Path
from typing import Any
from urllib.parse import unquote, urlsplit

HEARTBEAT = 30.0
STALE = 3 * HEARTBEAT


def status_path(db: str | Path) -> Path:
    return Path(db).with_suffix(".health.json")


def write_status(db: str | Path, adapters: Mapping[str, bool | Mapping[str, Any]], now: float | None = None) -> None:
    """Atomically replace the status file (write, then rename). Per platform: connected or not, or
    its state (bot/process/platforms.py `Platform.state`: connected, and a note, why it failed or retries)."""
    path = status_path(db)
    tmp = path.with_suffix(".tmp")
    tmp.write_text(json.dumps({"at": now if now is not None else time.time(), "pid": os.getpid(),
                               "adapters": dict(adapters)}))
    tmp.replace(path)


def clear_status(db: str | Path) -> None:
    """Remove an earlier run's status file at start: it tells of a process that is gone (after an
    upgrade, of the old image's), and `health` must not judge the new one by it."""
    status_path(db).unlink(missing_ok=True)


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
    """A consistent copy of a live database with SQLite's online backup API; returns its size.
    Raises BackupError (one line, what and where) when the source or the destination is unusable,
    leaving no file behind at `dest` that it did not find there."""
    db, dest = Path(db), Path(dest)
    if not db.is_file():
        raise BackupError(f"no database at {db}")
    if not dest.parent.is_dir():
        raise BackupError(f"cannot write {dest}: the directory {dest.parent} does not exist")
    existed = dest.exists()
    try:
        src = sqlite3.connect(f"file:{db}?mode=ro", uri=True)
    except sqlite3.Error as exc:
        raise BackupError(f"cannot read {db}: {exc}") from None
    try:
        try:
            out = sqlite3.connect(dest)
        except sqlite3.Error as exc:
            raise BackupError(f"cannot write {dest}: {exc}") from None
        try:
            src.backup(out)
        except sqlite3.Error as exc:
            out.close()
            if not existed:
                dest.unlink(missing_ok=True)
            raise BackupError(f"cannot copy {db} to {dest}: {exc}") from None
        out.close()
    finally:
        src.close()
    return dest.stat().st_size


class BackupError(RuntimeError):
    """A backup that failed; the message is one line, safe to print (no password)."""


def find_tool(name: str) -> str:
    """`name` (pg_dump, pg_restore) on PATH, else the newest Debian install: the bot's venv often
    runs where the client tools are installed but not linked (e.g. only the server package)."""
    found = shutil.which(name)
    if found:
        return found
    installed = sorted(glob.glob(f"/usr/lib/postgresql/*/bin/{name}"),
                       key=lambda p: int(Path(p).parts[-3]) if Path(p).parts[-3].isdigit() else 0)
    if installed:
        return installed[-1]
    raise BackupError(f"{name} not found: install the PostgreSQL client tools (e.g. apt install postgresql-client)")


def split_password(url: str) -> tuple[str, str | None]:
    """(the URL without its password, the password): libpq takes the rest of the URL as written
    (host lists, ?sslmode=...), and the password goes into PGPASSWORD instead. A password may
    stand in the user part or, as libpq also allows, in a `?password=` parameter."""
    base, question, query = url.partition("?")
    password = None
    scheme, slashes, rest = base.partition("://")
    authority, slash, path = rest.partition("/")
    userinfo, at, hosts = authority.rpartition("@")
    if slashes and at and ":" in userinfo:
        user, _, secret = userinfo.partition(":")
        base, password = f"{scheme}://{user}@{hosts}{slash}{path}", unquote(secret)
    params = query.split("&") if query else []
    kept = [p for p in params if p.partition("=")[0] != "password"]
    if len(kept) < len(params):
        password = unquote(next(p for p in params if p.partition("=")[0] == "password").partition("=")[2])
    return base + (question if kept else "") + "&".join(kept), password


def redact(url: str) -> str:
    """The URL fit for a message or a log line: without its password."""
    return split_password(url)[0]


def _scrub(text: str, secrets: list[str]) -> str:
    """pg_dump's stderr as one line, any secret blanked (in case a message ever echoes one)."""
    for secret in secrets:
        if secret:
            text = text.replace(secret, "***")
    return re.sub(r"\s+", " ", text).strip()


def backup_postgres(url: str, dest: str | Path) -> int:
    """`pg_dump --format=custom` of the database at `url` into `dest`; returns its size.
    pg_dump reads from one snapshot, so the dump is consistent while the bot keeps writing. It writes
    to a temporary file beside `dest` that is renamed only on success: a failed or interrupted run
    never leaves a half-written backup under the name a restore script would pick up."""
    dest = Path(dest)
    pg_dump = find_tool("pg_dump")
    bare, password = split_password(url)
    env = dict(os.environ)
    env.setdefault("PGCONNECT_TIMEOUT", "10")  # an unreachable server fails, it does not hang a cron job
    if password is not None:
        env["PGPASSWORD"] = password
    try:
        fd, tmp_name = tempfile.mkstemp(prefix=f".{dest.name}.", suffix=".tmp", dir=dest.parent)
    except OSError as exc:
        raise BackupError(f"cannot write {dest}: {exc.strerror or exc}") from None
    os.close(fd)
    tmp = Path(tmp_name)
    try:
        try:
            done = subprocess.run([pg_dump, "--format=custom", "--file", str(tmp), "--dbname", bare],
                                  env=env, capture_output=True, text=True, stdin=subprocess.DEVNULL)
        except OSError as exc:
            raise BackupError(f"cannot run {pg_dump}: {exc.strerror or exc}") from None
        if done.returncode != 0:
            secrets = [url, password or "", urlsplit(url).password or ""]  # decoded and as written
            raise BackupError(f"pg_dump failed: {_scrub(done.stderr, secrets) or f'exit status {done.returncode}'}")
        try:
            tmp.replace(dest)
        except OSError as exc:
            raise BackupError(f"cannot write {dest}: {exc.strerror or exc}") from None
    finally:
        tmp.unlink(missing_ok=True)
    return dest.stat().st_size


def health(db: str | Path, now: float | None = None, status_db: str | Path | None = None,
           starting_ok: bool = False) -> tuple[bool, str]:
    """(healthy, one line): the store answers, and every adapter of the running bot is connected.
    `db` is the SQLite file or a postgresql:// URL; the status file lies beside `status_db` (default
    `db`; with PostgreSQL, the configured DATABASE_PATH). `starting_ok`: no status file yet counts as
    healthy — for a container's health check, where the bot is the container's own process (so it runs)
    and removes an earlier run's status file as it starts (`clear_status`): it is still starting
    (opening the database, migrating, logging in), or plays in the console, which writes none."""
    now = time.time() if now is None else now
    if starting_ok and not status_path(status_db if status_db is not None else db).exists():
        return True, "bot starting (no status file yet)"
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
    for name, state in sorted(adapters.items()):
        healthy, shown = platform_state(state)
        ok = ok and healthy
        parts.append(f"{name} {shown}")
    return ok, "; ".join(parts)


NOTES = {"no_message_content": "without message content: the Message Content intent is not enabled"}


def platform_state(state: bool | Mapping[str, Any]) -> tuple[bool, str]:
    """(healthy, as shown) for one platform's state in the status file. Running without a refused
    privileged intent is healthy but said; a platform that stopped for good is not."""
    if not isinstance(state, Mapping):
        state = {"connected": bool(state)}
    note = state.get("note")
    extra = f" ({NOTES.get(str(note), str(note))})" if note else ""
    if state.get("failed"):
        return False, f"FAILED ({state['failed']}; stopped, the other platforms keep running)"
    if state.get("connected"):
        return True, f"connected{extra}"
    retrying = f" (retrying after {state['retrying']})" if state.get("retrying") else ""
    problem = f" ({state['problem']})" if state.get("problem") and not retrying else ""
    return False, f"DISCONNECTED{retrying}{problem}"
