"""What the image relies on (deploy/Dockerfile): `docker stop` (SIGTERM) ends console play at once with the
App closed, and the health check is true while the bot starts (no status file yet) — an earlier run's
stale status file is removed at start, so it cannot make a new container unhealthy."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from bot.process import ops

ROOT = Path(__file__).resolve().parents[2]


@pytest.mark.e2e
def test_sigterm_ends_console_play_and_clears_the_old_status(tmp_path: Path) -> None:
    db = tmp_path / "bot.sqlite3"
    ops.write_status(db, {"telegram": True}, now=0)  # a stale status from an earlier run
    assert ops.health(db, starting_ok=True)[0] is False  # judged by it: stale
    env = {k: v for k, v in os.environ.items() if not k.endswith("_TOKEN")}
    bot = subprocess.Popen([sys.executable, "-m", "bot", "--db", str(db)], stdin=subprocess.PIPE,
                           stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, cwd=ROOT,
                           env={**env, "PYTHONPATH": str(ROOT), "STATE_DIR": str(tmp_path)})
    try:
        assert bot.stdin is not None and bot.stdout is not None
        bot.stdin.write("alice: /practice 3\n")
        bot.stdin.flush()
        assert "alice" in bot.stdout.readline()  # running, stdin left open: it waits for the next line
        assert not ops.status_path(db).exists()
        assert ops.health(db, starting_ok=True) == (True, "bot starting (no status file yet)")
        assert ops.health(db)[0] is False  # without --starting-ok: not running as far as it can tell
        t = time.monotonic()
        bot.send_signal(signal.SIGTERM)
        assert bot.wait(timeout=10) == 0, bot.stderr.read() if bot.stderr else ""
        assert time.monotonic() - t < 5
    finally:
        bot.kill()
        bot.wait()
