"""kill -9 of the real bot process mid-duel, then a restart on the same database: the game goes on,
no acknowledged move is lost and none is applied twice."""

from __future__ import annotations

import os
import re
import signal
import subprocess
import sys
import threading
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


class Bot:
    """The console bot as a child process, driven line by line like a newcomer would."""

    def __init__(self, db: Path, seed: int, *args: str) -> None:
        env = {k: v for k, v in os.environ.items() if not k.endswith("_TOKEN")}
        env["PYTHONPATH"] = str(ROOT)
        env["STATE_DIR"] = str(db.parent)  # pictures and files beside the database, never in the checkout
        self.proc = subprocess.Popen([sys.executable, "-m", "bot", "--db", str(db), "--seed", str(seed), *args],
                                     stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL,
                                     text=True, cwd=ROOT, env=env, bufsize=1)
        self.lines: list[str] = []
        self._reader = threading.Thread(target=self._read, daemon=True)
        self._reader.start()

    def _read(self) -> None:
        assert self.proc.stdout
        for line in self.proc.stdout:
            self.lines.append(line.rstrip("\n"))

    def say(self, line: str, expect: str, timeout: float = 15) -> str:
        """Send a line and wait until the bot has acknowledged it with output matching `expect`."""
        start = len(self.lines)
        assert self.proc.stdin
        self.proc.stdin.write(line + "\n")
        self.proc.stdin.flush()
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            for text in self.lines[start:]:
                if re.search(expect, text):
                    return text
            time.sleep(0.01)
        raise AssertionError(f"no {expect!r} after {line!r}: {self.lines[start:]}")

    def kill9(self) -> None:
        self.proc.send_signal(signal.SIGKILL)
        self.proc.wait(timeout=10)

    def close(self) -> None:
        if self.proc.poll() is None:
            assert self.proc.stdin
            self.proc.stdin.close()
            self.proc.wait(timeout=10)


def test_kill9_mid_duel_and_restart(tmp_path: Path) -> None:
    db = tmp_path / "bot.sqlite3"
    bot = Bot(db, seed=3)
    try:
        bot.say("alice: /duel bob 3", r"challenges bob")
        bot.say("bob: /accept", r"bob accepts")
        bot.say("alice> 123", r"\[@alice\] .*locked")
        line = bot.say("bob> 456", r"starts, then")
        first, second = re.search(r"(\w+) starts, then (\w+)", line).groups()  # type: ignore[union-attr]
        bot.say(f"{first}: 789", rf"{first} #1: 789")
        bot.say(f"{second}: 780", rf"{second} #1: 780")
        bot.kill9()  # acknowledged moves so far: two guesses
    finally:
        if bot.proc.poll() is None:
            bot.kill9()

    bot = Bot(db, seed=4)
    try:
        board = bot.say(f"{first}: /board", r"Duel #1")
        assert board
        text = "\n".join(bot.lines)
        assert f"{first} #1: 789" in text and f"{second} #1: 780" in text and "#2" not in text
        bot.say(f"{second}: 781", rf"{second}: It is {first}'s turn")  # the turn survived the crash
        bot.say(f"{first}: 781", rf"{first} #2: 781")
        target = {"alice": "456", "bob": "123"}[second]
        bot.say(f"{second}: {target}", r"wins!")
    finally:
        bot.close()


def test_kill9_mid_kegel_game_and_restart(tmp_path: Path) -> None:
    db = tmp_path / "bot.sqlite3"
    bot = Bot(db, seed=1)
    try:
        bot.say("anna: /kegeln high 2 Birgit Klaus", r"Throwing order: Birgit, Klaus")
        bot.say("anna: /wurf 7 Z", r"Birgit: 7 pins → tens")
        bot.say("anna: /wurf 9 Z", r"Klaus: 9 pins → tens")
        bot.kill9()  # two acknowledged throws
    finally:
        if bot.proc.poll() is None:
            bot.kill9()
    bot = Bot(db, seed=2)
    try:
        bot.say("anna: /board", r"Birgit's throw \(round 2 of 2\)")
        assert any("Birgit 7_" in line for line in bot.lines) and any("Klaus  9_" in line for line in bot.lines)
        bot.say("anna: /wurf 3 E", r"Birgit: 3 pins → ones")
        bot.say("anna: /wurf 1 E", r"Klaus: 1 pin")
        final = "\n".join(bot.lines)
        assert "91" in final and "73" in final  # Klaus 91 beats Birgit 73: no throw lost, none doubled
    finally:
        bot.close()
