"""An upgrade as docs/deploy.md "Upgrades" describes it: a database written by an earlier main
(tests/deploy/fixtures/main-3bed8d1.sqlite3, schema 14) opened by today's code: the migrations run at
start, and its games, ratings and cash book are all there; then the same database, marked as written
by a newer version, is refused untouched with one clear line (a downgrade)."""

from __future__ import annotations

import os
import shutil
import sqlite3
import subprocess
import sys
from collections.abc import Sequence
from pathlib import Path

import pytest

from bot.storage.migrations import MIGRATIONS
from tests import leakscan
from tests.deploy import playall

ROOT = Path(__file__).resolve().parents[2]
FIXTURE = Path(__file__).with_name("fixtures") / "main-3bed8d1.sqlite3"
pytestmark = pytest.mark.e2e


def bot(db: Path, state: Path) -> playall.Runner:
    env = leakscan.process_env({**{k: v for k, v in os.environ.items() if not k.endswith("_TOKEN")},
                                "PYTHONPATH": str(ROOT), "STATE_DIR": str(state)})

    def run(argv: Sequence[str], stdin: str) -> str:
        assert argv[0] == "chatgames"
        done = subprocess.run([sys.executable, "-m", "bot", "--db", str(db), *argv[1:]], input=stdin, text=True,
                              capture_output=True, cwd=state, env=env, timeout=120)
        leakscan.bot_process(done.stderr, script=stdin)
        assert done.returncode == 0 and "Traceback" not in done.stderr, done.stderr[-3000:]
        return done.stdout

    return run


def version(db: Path) -> int:
    with sqlite3.connect(db) as conn:
        return int(conn.execute("PRAGMA user_version").fetchone()[0])


def test_a_database_of_main_opens_migrated_with_everything_kept(tmp_path: Path) -> None:
    db = tmp_path / "bot.sqlite3"
    shutil.copy(FIXTURE, db)
    assert version(db) == 14
    out = playall.kept_after_upgrade(bot(db, tmp_path))
    assert version(db) == len(MIGRATIONS)  # migrated at start
    assert "1. alice — 1/1/1 (3)" in out and "Ben: owes €0.50" in out
    more = bot(db, tmp_path)(["chatgames", "--admin", "alice"], "alice: /board\nalice: /stats logik\n")
    assert "Hausnummern" in more  # the game left running goes on


def test_a_downgrade_is_refused_with_one_clear_line(tmp_path: Path) -> None:
    db = tmp_path / "bot.sqlite3"
    shutil.copy(FIXTURE, db)
    newer = len(MIGRATIONS) + 1  # as if a newer version of the bot had migrated it
    with sqlite3.connect(db) as conn:
        conn.execute(f"PRAGMA user_version = {newer}")
    done = subprocess.run([sys.executable, "-m", "bot", "--db", str(db)], input="", text=True, capture_output=True,
                          cwd=tmp_path, env={**os.environ, "PYTHONPATH": str(ROOT), "STATE_DIR": str(tmp_path)},
                          timeout=60)
    assert done.returncode == 2
    assert done.stderr.strip() == (f"cannot open the database {db}: its schema version {newer} is newer than this "
                                   f"bot's newest ({len(MIGRATIONS)}); run the newer version of the bot")
    assert version(db) == newer  # untouched: no migration, no write
    with sqlite3.connect(db) as conn:
        assert conn.execute("SELECT COUNT(*) FROM games").fetchone()[0] == 9
