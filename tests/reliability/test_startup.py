"""A database the bot cannot use stops `python -m bot` at once with one clear line: no traceback,
no process left hanging. The real command line, in console mode (no token, stdin closed)."""

from __future__ import annotations

import asyncio
import os
import shutil
import sqlite3
import subprocess
import sys
from collections.abc import Iterator, Sequence
from pathlib import Path

import pytest

from bot.app.app import App
from bot.storage.migrations import MIGRATIONS
from tests.app.harness import Table

ROOT = Path(__file__).resolve().parents[2]
HANG = 20  # seconds: a process still running then is hung (it exits within a second or two)


def without_dac_override() -> list[str]:
    """Root ignores directory permissions; run the bot as root without that power, so that a
    read-only directory is read-only to it too (an unprivileged user needs nothing)."""
    if os.geteuid() != 0:
        return []
    setpriv = shutil.which("setpriv")
    if setpriv is None:
        pytest.skip("running as root without setpriv: a read-only directory is writable to root")
    caps = "-dac_override,-dac_read_search"
    return [setpriv, f"--bounding-set={caps}", f"--inh-caps={caps}"]


def bot(*args: str, prefix: Sequence[str] = (), env: dict[str, str] | None = None) -> subprocess.CompletedProcess[str]:
    base = {k: v for k, v in os.environ.items()
            if not k.endswith("_TOKEN") and not k.startswith(("DATABASE_", "PG"))}
    base.update(PYTHONPATH=str(ROOT), **(env or {}))
    return subprocess.run([*prefix, sys.executable, "-m", "bot", *args], stdin=subprocess.DEVNULL,
                          capture_output=True, text=True, env=base, cwd=ROOT, timeout=HANG)


def one_clear_line(done: subprocess.CompletedProcess[str], *words: str) -> str:
    assert done.returncode not in (0, None), done.stderr
    assert "Traceback" not in done.stderr, done.stderr
    lines = done.stderr.strip().splitlines()
    assert len(lines) == 1, done.stderr
    for word in words:
        assert word in lines[0], lines[0]
    return lines[0]


@pytest.fixture
def real_db(tmp_path: Path) -> Iterator[Path]:
    """A database the bot wrote: one practice game."""
    path = tmp_path / "real.sqlite3"

    async def fill() -> None:
        app = await App.open(str(path), seed=1)
        try:
            t = Table(app)
            await t.say("alice", "/practice")
            await t.say("alice", "0123")
        finally:
            await app.close()

    asyncio.run(fill())
    yield path


def test_a_text_file_as_the_database(tmp_path: Path) -> None:
    db = tmp_path / "notes.txt"
    db.write_text("shopping list: milk, eggs\n" * 40)
    line = one_clear_line(bot("--db", str(db)), str(db), "not a database")
    assert line.startswith("cannot open the database")


def test_a_truncated_database(real_db: Path) -> None:
    with real_db.open("r+b") as f:
        f.truncate(real_db.stat().st_size // 2)
    one_clear_line(bot("--db", str(real_db)), str(real_db), "malformed")


def test_a_new_database_in_a_read_only_directory(tmp_path: Path) -> None:
    ro = tmp_path / "ro"
    ro.mkdir()
    ro.chmod(0o555)
    try:
        prefix = without_dac_override()
        one_clear_line(bot("--db", str(ro / "bot.sqlite3"), prefix=prefix), str(ro), "not writable")
        # a directory that must first be made inside the read-only one
        one_clear_line(bot("--db", str(ro / "data" / "bot.sqlite3"), prefix=prefix), str(ro / "data"))
    finally:
        ro.chmod(0o755)
    assert list(ro.iterdir()) == []


def test_a_database_from_a_newer_version(real_db: Path) -> None:
    future = len(MIGRATIONS) + 3
    with sqlite3.connect(real_db) as conn:
        conn.execute(f"PRAGMA user_version = {future}")
    line = one_clear_line(bot("--db", str(real_db)), str(real_db), f"schema version {future}",
                          str(len(MIGRATIONS)))
    assert "newer" in line
    with sqlite3.connect(real_db) as conn:  # untouched
        assert conn.execute("PRAGMA user_version").fetchone()[0] == future


def test_a_good_database_still_starts(real_db: Path) -> None:
    done = bot("--db", str(real_db))
    assert done.returncode == 0, done.stderr
    assert "Traceback" not in done.stderr


# ------------------------------------------------------------ backup (docs/deploy.md: one line, exit 1)
def test_backup_into_a_missing_directory(real_db: Path, tmp_path: Path) -> None:
    dest = tmp_path / "nowhere" / "copy.sqlite3"
    line = one_clear_line(bot("backup", str(dest), "--db", str(real_db)), str(tmp_path / "nowhere"))
    assert line.startswith("backup failed:")
    assert not dest.parent.exists()


def test_backup_from_a_missing_database(tmp_path: Path) -> None:
    db = tmp_path / "missing.sqlite3"
    line = one_clear_line(bot("backup", str(tmp_path / "copy.sqlite3"), "--db", str(db)), str(db))
    assert line.startswith("backup failed:")
    assert not (tmp_path / "copy.sqlite3").exists() and not db.exists()


def test_backup_from_a_text_file(tmp_path: Path) -> None:
    db = tmp_path / "notes.txt"
    db.write_text("not a database at all\n" * 40)
    line = one_clear_line(bot("backup", str(tmp_path / "copy.sqlite3"), "--db", str(db)), str(db))
    assert line.startswith("backup failed:") and "not a database" in line
    assert not (tmp_path / "copy.sqlite3").exists()
