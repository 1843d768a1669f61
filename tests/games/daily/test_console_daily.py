"""The daily puzzle through the real `python -m bot` console process (docs/daily.md): three players
of #table play today's code privately (`name> …`); two solve on different attempt counts, one fails;
the group sees only spoiler-free results; a restart (a new process over the same SQLite file) gives
nobody a second try."""

from __future__ import annotations

import itertools
import re
import sqlite3
from pathlib import Path

from tests.console.test_console_process import play
from tests.daytime import clear_of_midnight


def group_lines(out: str) -> list[str]:
    """The lines the group saw: a message's continuation lines belong to the message they follow
    (a private answer shows the player's rows so far, one per line)."""
    group, public = [], False
    for line in out.splitlines():
        if line.startswith("["):
            public = not line.startswith("[@")
        if public:
            group.append(line)
    return group


def test_three_players_spoiler_free_results_and_no_second_try_after_a_restart(tmp_path: Path) -> None:
    clear_of_midnight()
    db = tmp_path / "db.sqlite3"
    out = play(db, "alice: /daily\nbob: /daily 1a2b\ncarol: /daily\n", "--seed", "3")
    assert "[@alice] 🗓 Today's 1A2B daily" in out and "[@carol] 🗓 Today's 1A2B daily" in out
    assert "[#table] 🗓 bob is playing today's 1A2B daily privately" in out
    with sqlite3.connect(db) as conn:
        (secret,), = conn.execute("SELECT secret FROM daily_puzzles").fetchall()
    wrong = ["".join(p) for p in itertools.permutations("0123456789", 4)
             if "".join(p) != secret and p[0] != secret[0]]

    script = "".join([
        f"alice> {wrong[0]}\nalice> {secret}\n",  # solved in 2
        *(f"bob> {code}\n" for code in wrong[1:5]), f"bob> {secret}\n",  # solved in 5
        f"carol: {wrong[5]}\n",  # typed in the group by mistake: not taken
        *(f"carol> {code}\n" for code in wrong[6:16]),  # ten misses
    ])
    out = play(db, script, "--seed", "3")
    group = group_lines(out)
    day = r"\w{3} \d+, \d{4}"  # Nov 30, 2026
    assert any(re.match(rf"\[#table\] 🗓 alice solved the 1A2B daily of {day}: 2/10", line) for line in group)
    assert any(re.match(rf"\[#table\] 🗓 bob solved the 1A2B daily of {day}: 5/10", line) for line in group)
    assert any(re.match(rf"\[#table\] 🗓 carol did not solve the 1A2B daily of {day}: X/10", line) for line in group)
    assert "carol, the daily puzzle is played privately" in out
    assert f"[@alice] 🎉 Solved in 2 attempts: {secret}!" in out
    assert re.search(rf"\[@carol\] 😶 No attempts left\. The code of the 1A2B daily of {day} was {secret}\.", out)
    assert re.search(r"\[@bob\] #1/10: \d{4} → \dA\dB", out)
    for line in group:  # the grids, never a digit of a guess or the code
        shown = re.sub(r"\b[A-Z][a-z]{2} \d{1,2}, \d{4}\b", "", line)  # the day (Nov 30, 2026): its year is no code
        assert not re.search(r"(?<![\d-])\d{4}(?![\d-])", shown), line
    assert "\n  🟩🟩🟩🟩" in out  # the last row of a solved grid

    out = play(db, f"alice: /daily\ncarol: /daily\nalice> {secret}\nbob: /daily board\nbob: /daily table\n",
               "--seed", "99")
    assert "alice: You have already played today's 1A2B daily: solved in 2 attempts." in out
    assert "carol: You have already played today's 1A2B daily: not solved (10 attempts)." in out
    assert "[@alice] No game is waiting" in out
    assert re.search(r"1\. alice — solved in 2 attempts\s*\n\s+2\. bob — solved in 5 attempts\s*\n"
                     r"\s+· carol — not solved", out)
    assert "1. alice — 1/1 · ⌀ 2.0 · 🔥1" in out and "2. bob — 1/1 · ⌀ 5.0 · 🔥1" in out
    assert secret not in "\n".join(group_lines(out))


def test_a_daily_privately_and_a_duel_in_the_group_at_once(tmp_path: Path) -> None:
    """A running daily keeps its player from no game of the group, and private input goes to the
    game that asked for it: a 3-digit code fits only the duel, a 4-digit one only the daily."""
    clear_of_midnight()
    db = tmp_path / "db.sqlite3"
    out = play(db, "alice: /daily\nbob: /duel alice 3\nalice: /accept\nalice> 012\nbob> 345\n", "--seed", "3")
    assert "[@alice] 🗓 Today's 1A2B daily" in out
    assert "already in a game" not in out and "Finish your running game" not in out
    assert "alice accepts bob's duel" in out
    assert "[@alice] 🔐 Your secret code 012 is locked for duel" in out
    with sqlite3.connect(db) as conn:
        (secret,), = conn.execute("SELECT secret FROM daily_puzzles").fetchall()
    wrong = next("".join(p) for p in itertools.permutations("0123456789", 4)
                 if "".join(p) != secret and p[0] != secret[0])
    out = play(db, f"alice> {wrong}\nalice: /board\nalice> {secret}\nbob: /daily\n", "--seed", "3")
    assert f"[@alice] #1/10: {wrong}" in out
    assert "Duel #" in out  # the group's /board: the duel
    assert re.search(r"\[#table\] 🗓 alice solved the 1A2B daily of \w{3} \d+, \d{4}: 2/10", out)
    assert "[@bob] 🗓 Today's 1A2B daily" in out  # a duel player starts a daily too


def test_private_answers_name_the_table_and_an_old_attempt_says_what_became_of_it(tmp_path: Path) -> None:
    """The console's group is "#table": a player's private answers about its daily name it; a code
    sent privately after the attempt is over says how it went, not that no game waits."""
    clear_of_midnight()
    db = tmp_path / "db.sqlite3"
    out = play(db, "alice: /daily\n", "--seed", "3")
    assert "[@alice] 🗓 Today's 1A2B daily of #table (" in out
    with sqlite3.connect(db) as conn:
        (secret,), = conn.execute("SELECT secret FROM daily_puzzles").fetchall()
    out = play(db, f"alice> {secret}\nalice> {secret}\nalice: /daily\n", "--seed", "3")
    assert "[@alice] You have already played today's 1A2B daily of #table: solved in 1 attempt." in out
    assert "alice: You have already played today's 1A2B daily: solved in 1 attempt." in out
    assert "No game is waiting" not in out
