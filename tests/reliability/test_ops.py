"""Backup of a live database and the health check, through the real command line."""

from __future__ import annotations

import os
import sqlite3
import subprocess
import sys
from pathlib import Path

from bot.app.app import App
from bot.process import ops
from tests.app.harness import Table

ROOT = Path(__file__).resolve().parents[2]


def cli(*args: str) -> subprocess.CompletedProcess[str]:
    env = {k: v for k, v in os.environ.items() if not k.endswith("_TOKEN")}
    env["PYTHONPATH"] = str(ROOT)
    return subprocess.run([sys.executable, "-m", "bot", *args], capture_output=True, text=True, env=env,
                          cwd=ROOT, timeout=60)


async def test_backup_of_a_live_database(tmp_path: Path) -> None:
    db = tmp_path / "bot.sqlite3"
    app = await App.open(str(db), seed=1)
    try:
        t = Table(app)
        await t.say("alice", "/practice")
        await t.say("alice", "0123")
        done = cli("backup", str(tmp_path / "copy.sqlite3"), "--db", str(db))  # while the App runs
        assert done.returncode == 0, done.stderr
    finally:
        await app.close()
    with sqlite3.connect(tmp_path / "copy.sqlite3") as copy:
        assert copy.execute("SELECT COUNT(*) FROM games").fetchone()[0] == 1
        assert copy.execute("SELECT COUNT(*) FROM events").fetchone()[0] == 2
        assert copy.execute("PRAGMA integrity_check").fetchone()[0] == "ok"


async def test_health_reflects_store_and_adapters(tmp_path: Path) -> None:
    db = tmp_path / "bot.sqlite3"
    app = await App.open(str(db))
    await app.close()
    done = cli("health", "--db", str(db))
    assert done.returncode == 1 and "not running" in done.stdout
    ops.write_status(db, {"telegram": True, "discord": True})
    done = cli("health", "--db", str(db))
    assert done.returncode == 0, done.stdout
    assert done.stdout.strip() == "store ok; discord connected; telegram connected"
    ops.write_status(db, {"telegram": True, "discord": False})
    assert cli("health", "--db", str(db)).returncode == 1
    ops.write_status(db, {"telegram": True}, now=0.0)  # an old heartbeat: the bot hangs or died
    healthy, line = ops.health(db)
    assert not healthy and "old" in line
    healthy, line = ops.health(tmp_path / "missing.sqlite3")
    assert not healthy and "store FAILED" in line
