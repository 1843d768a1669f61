"""The package as a self-hoster installs it: a wheel built from the repository, installed into a fresh
venv, run as `chatgames` from another folder, plays every game (tests/deploy/playall.py) and keeps its
state in the platform's state folder, never beside the code (bot/process/shipped.py, bot/process/state.py).

Before the data moved into the package, the installed bot stopped at once: "no catalog for the fallback
language 'en' in …/site-packages/data/locales" (issue 37)."""

from __future__ import annotations

import os
import subprocess
import sys
from collections.abc import Sequence
from pathlib import Path

import pytest

from tests import leakscan
from tests.deploy import playall

ROOT = Path(__file__).resolve().parents[2]
pytestmark = pytest.mark.e2e


def sh(*cmd: str | Path, cwd: Path | None = None, timeout: float = 600) -> str:
    done = subprocess.run([str(c) for c in cmd], capture_output=True, text=True, cwd=cwd, timeout=timeout)
    assert done.returncode == 0, f"{' '.join(map(str, cmd))} exited {done.returncode}:\n{done.stderr[-3000:]}"
    return done.stdout


@pytest.fixture(scope="module")
def installed(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A fresh venv with the wheel built from this checkout (and its pinned dependencies) installed."""
    tmp = tmp_path_factory.mktemp("wheel")
    sh(sys.executable, "-m", "pip", "wheel", "--quiet", "--no-deps", "--wheel-dir", tmp / "dist", ROOT)
    (wheel,) = (tmp / "dist").glob("chatgames-*.whl")
    sh(sys.executable, "-m", "venv", tmp / "venv")
    sh(tmp / "venv" / "bin" / "python", "-m", "pip", "install", "--quiet", wheel)
    return tmp / "venv"


def runner(venv: Path, cwd: Path, home: Path) -> playall.Runner:
    """The installed program, from `cwd` (not the checkout), with only the environment a user has:
    no PYTHONPATH into the checkout, no STATE_DIR, no token; HOME and XDG_STATE_HOME of the test."""
    keep = {k: v for k, v in os.environ.items()
            if k not in ("PYTHONPATH", "STATE_DIR", "DATABASE_PATH", "DATABASE_URL") and not k.endswith("_TOKEN")}
    env = leakscan.process_env({**keep, "HOME": str(home), "XDG_STATE_HOME": str(home / "state")})

    def run(argv: Sequence[str], stdin: str) -> str:
        done = subprocess.run([str(venv / "bin" / argv[0]), *argv[1:]], input=stdin, text=True, capture_output=True,
                              cwd=cwd, env=env, timeout=300)
        leakscan.bot_process(done.stderr, script=stdin)
        assert done.returncode == 0 and "Traceback" not in done.stderr, done.stderr[-3000:]
        return done.stdout

    return run


def test_the_wheel_plays_every_game_from_another_folder(installed: Path, tmp_path: Path) -> None:
    elsewhere, home = tmp_path / "elsewhere", tmp_path / "home"
    elsewhere.mkdir()
    run = runner(installed, elsewhere, home)
    assert str(installed) in playall.shipped(run)  # the venv's own copy, not the checkout's
    playall.play_everything(run)
    state = home / "state" / "chatgames"  # $XDG_STATE_HOME/chatgames: the state, and nothing beside the code
    assert (state / "bot.sqlite3").is_file() and (state / "boards" / "mydata-2.json").is_file()
    assert list(elsewhere.iterdir()) == []
    site = next((installed / "lib").glob("python3*/site-packages"))
    code = [p for d in ("bot", "core", "adapters", "data") for p in (site / d).rglob("*")]
    written = [p for p in code if p.suffix in (".sqlite3", ".json", ".png") or p.name == "solver-cache"]
    assert code and written == [], written


def test_the_state_folder_is_kept_between_runs_and_named_by_state_dir(installed: Path, tmp_path: Path) -> None:
    run = runner(installed, tmp_path, tmp_path / "home")
    playall.upgrade_data(run)
    playall.kept_after_upgrade(run)  # a second process on the same state folder sees it all
    playall.shared_database(run, run)
    elsewhere = tmp_path / "other-state"
    out = subprocess.run([str(installed / "bin" / "chatgames"), "--seed", "1"], input="alice: /practice\n", text=True,
                         capture_output=True, cwd=tmp_path, timeout=120,
                         env={**os.environ, "STATE_DIR": str(elsewhere), "PYTHONPATH": ""})
    assert out.returncode == 0, out.stderr
    assert (elsewhere / "bot.sqlite3").is_file()
