"""A scripted Logik session through the real `python -m bot` console process."""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

from PIL import Image

from tests import leakscan

ROOT = Path(__file__).resolve().parents[3]


def play(tmp: Path, script: str, *args: str) -> str:
    env = {k: v for k, v in os.environ.items() if not k.endswith("_TOKEN")}
    env["PYTHONPATH"] = str(ROOT)
    done = subprocess.run([sys.executable, "-m", "bot", "--db", str(tmp / "db.sqlite3"), *args], input=script,
                          text=True, capture_output=True, timeout=60, env=leakscan.process_env(env),
                          cwd=tmp)  # pictures land in tmp
    leakscan.bot_process(done.stderr, script=script)
    assert done.returncode == 0, done.stderr
    assert "Traceback" not in done.stderr
    return done.stdout


def test_logik_session_with_initials_reveal_and_pictures(tmp_path: Path) -> None:
    out = play(tmp_path, "\n".join([
        "alice: /logik bob rows 8", "bob: /accept", "alice> RGBYW", "bob> 54321",
        "alice: 12345", "alice: 11111", "bob: /board", "bob: r g b y k", "alice: o y b g r", "bob: 11111",
        "alice: /stats logik",
    ]) + "\n", "--seed", "3")
    assert "alice challenges bob to Logik: 5 pegs, 8 colours, 8 rows. alice plays white." in out
    assert "[@alice] 🔐 Your secret row 🟥1R 🟩2G 🟦3B 🟨4Y ⬜7W is locked" in out
    group = [ln for ln in out.splitlines() if ln.startswith("[#table]")]
    assert "[#table] row 1: alice ✓ — waiting for bob" in group
    assert "[#table] alice: You have already sent your row 1; wait for bob." in group
    assert "alice #1: 🟥1R 🟩2G 🟦3B 🟨4Y 🟧5O → ⚫⚪⚪⚪⚪ (1 black, 4 white)" in out
    assert "bob #1: 🟥1R 🟩2G 🟦3B 🟨4Y ⬛8K → ⚫⚫⚫⚫ (4 black, 0 white)" in out
    assert "alice cracked the code in round 2 and wins!" in out and "(b7) 🔁 Rematch" in out
    assert "Here: 1 game: white 1 (100.0 %), black 0 (0.0 %), draws 0 (0.0 %)" in out
    pictures = re.findall(r"^\s+(\S+board-\d+\.png)$", out, re.M)
    assert len(pictures) == 2  # /board and the end
    for p in pictures:
        path = Path(p) if Path(p).is_absolute() else tmp_path / p
        with Image.open(path) as img:
            assert img.size == (640, 40 + 48 + 8 * 40 + 12)
