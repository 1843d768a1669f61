"""A scripted console session through the real `python -m bot` process: lobby, private word,
guesses in the group, across restarts."""

from __future__ import annotations

import re
from pathlib import Path

from tests.console.test_console_process import buttons, play


def test_word_game_on_the_console(tmp_path: Path) -> None:
    db = tmp_path / "db.sqlite3"
    out = play(db, "alice: /words length 4 lang ru\n", "--seed", "3")
    assert "Bulls & Cows with words (Бык-корова): 4 letters, русский" in out
    assert "➕ Join" in buttons(out)  # buttons are numbered per process: a restart joins by command
    out = play(db, "bob: /join\ncarol: /join\nalice: /begin\n", "--seed", "3")
    m = re.search(r"First to set a word: (\w+)\.", out)
    assert m, out
    setter = m.group(1)
    assert f"[@{setter}] 🔒 Game #1: send me your secret word" in out
    out = play(db, f"{setter}> рОст\n", "--seed", "3")
    assert f"[@{setter}] 🔐 Your word рост is locked" in out
    group = [ln for ln in out.splitlines() if ln.startswith("[#table]")]
    assert group and not any("рост" in ln for ln in group)
    turn = re.search(r"(\w+), your guess!", out)
    assert turn, out
    first = turn.group(1)
    out = play(db, f"{first}: трос\n{first}: /board\n", "--seed", "3")
    assert f"{first}: трос → 🐄 корова (cow)" in out and f"#1 {first}: трос → 🐄" in out
    nxt = re.search(r"· (\w+)'s turn", out)
    assert nxt
    out = play(db, f"{nxt.group(1)}: соль\n{nxt.group(1)}: ёлка\n", "--seed", "3")
    assert "соль → " in out and "turn, please wait" in out
