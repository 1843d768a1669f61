"""A duel against the bot and its coaching through the real `python -m bot` console process."""

from __future__ import annotations

import re
from pathlib import Path

from tests.console.test_console_process import play


def test_duel_against_the_bot_then_analyse(tmp_path: Path) -> None:
    guesses = ["345", "678", "901", "234", "567", "890", "123", "456", "789", "012", "135", "246"]
    script = "alice: /duel bot strong 3\nalice> 012\n" + "".join(f"alice: {g}\n" for g in guesses)
    out = play(tmp_path / "db.sqlite3", script + "alice: /analyse\nalice: /hint\n", "--seed", "3")
    assert "🤖 alice takes on Bot (strong)" in out
    assert "[@bot]" not in out  # the bot's own secret goes nowhere
    bot_lines = re.findall(r"Bot #(\d+): (\d{3}) → (\d)A(\d)B", out)
    assert bot_lines and len(bot_lines) <= 7
    assert bot_lines[-1][1:] == ("012", "3", "0") or "alice wins!" in out
    assert "Secret codes:" in out
    assert "🔎 Game #1, alice's" in out and "The strong solver on the same code" in out
    assert "/hint works in your running practice game" in out
