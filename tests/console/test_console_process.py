"""Scripted console sessions through the real `python -m bot` process, as a newcomer plays."""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

from tests import leakscan

ROOT = Path(__file__).resolve().parents[2]


def play(db: Path, script: str, *args: str) -> str:
    env = {k: v for k, v in os.environ.items() if not k.endswith("_TOKEN")}
    env["PYTHONPATH"] = str(ROOT)
    env["STATE_DIR"] = str(db.parent)  # pictures and files beside the test's database, never in the checkout
    done = subprocess.run([sys.executable, "-m", "bot", "--db", str(db), *args], input=script, text=True,
                          capture_output=True, timeout=60, env=leakscan.process_env(env), cwd=ROOT)
    leakscan.bot_process(done.stderr, script=script)
    assert done.returncode == 0, done.stderr
    assert "Traceback" not in done.stderr
    return done.stdout


def buttons(out: str) -> dict[str, str]:
    """Label → number of the buttons shown so far (the newest wins)."""
    return {label.strip(): num for num, label in re.findall(r"\((b\d+)\) ([^(\n]+)", out)}


def test_practice_session(tmp_path: Path) -> None:
    out = play(tmp_path / "db.sqlite3", "alice: /practice 3\nalice: 012\nalice: 01\nalice: /giveup\n", "--seed", "7")
    lines = out.splitlines()
    assert lines[0].startswith("[#table] 🎯 alice, I have picked a secret code: 3 digits")
    assert re.match(r"\[#table\] alice #1: 012 → \dA\dB", lines[1])
    assert "alice: That code has 2 digits, but this game uses 3." in out
    assert re.search(r"gave up after 1 attempt\. The code was \d{3}\.", out)


def test_full_duel_with_buttons_privates_and_restart(tmp_path: Path) -> None:
    db = tmp_path / "db.sqlite3"
    out = play(db, "alice: /duel bob 3\n", "--seed", "1")
    assert "(b1) ✅ Accept  (b2) ❌ Decline" in out
    # a new process (a restart) on the same database: old buttons are renumbered, so accept by command
    out = play(db, "bob: /accept\nalice> 012\nbob> random\n", "--seed", "1")
    assert "[@alice] 🔒 Duel #1 against bob" in out and "[@bob] 🔒 Duel #1 against alice" in out
    assert "[@alice] 🔐 Your secret code 012 is locked" in out
    bob_secret = re.search(r"\[@bob\] 🔐 Your secret code (\d{3}) is locked", out)
    assert bob_secret and bob_secret.group(1) not in [ln for ln in out.splitlines() if ln.startswith("[#table]")][-1]
    starter = re.search(r"(\w+) starts, then (\w+)", out)
    assert starter
    first, second = starter.groups()
    codes = {"alice": bob_secret.group(1), "bob": "012"}
    out = play(db, f"{first}: {codes[first]}\n{second}: 987\n{first}: /board\n", "--seed", "1")
    assert f"{first} cracked the code!" in out and "one last guess" in out
    assert "wins!" in out and "Secret codes:" in out and "🟩🟩🟩" in out
    assert "Match:" in out and "(b1) 🔁 Rematch" in out
    stats = play(db, f"{first}: /stats\n{first}: /top\n")
    assert "1A2B duel: 1 · 1/0/0" in stats and f"1. {first} — 1/0/0 (1)" in stats


def test_every_line_kind_and_bad_input_never_crash(tmp_path: Path) -> None:
    script = "\n".join([
        "# a comment", "", "nonsense without a colon", "alice: /nosuchcommand", "alice: /practice 7",
        "alice: /practice banana", "alice: /duel", "alice: /duel", "bob clicks b99", "carol: /accept",
        "carol> hello", "alice: /lang xx", "alice: /lang", "alice: /help duel", "bob: /guess", "bob: /stats nobody",
    ]) + "\n"
    out = play(tmp_path / "db.sqlite3", script)
    for expected in ["? usage", "I do not know /nosuchcommand", "The length must be 3/4/5, not 7",
                     "I do not understand “banana”", "Who accepts?", "already in a game", "[@bob] ? b99",
                     "carol accepts alice's duel", "[@carol]", "I do not speak “xx”", "Choose the language",
                     "/duel [name] [3|4|5] [repeats] — a duel", "Write the code after the command",
                     "I do not know nobody yet"]:
        assert expected in out, expected


def test_german_console(tmp_path: Path) -> None:
    out = play(tmp_path / "db.sqlite3", "anna: /practice\nanna: 0123\nanna: /giveup\n", "--lang", "de", "--seed", "2")
    assert "Geheimcode" in out or "Code" in out
    assert "I have picked" not in out and "gave up" not in out


def test_a_button_shown_privately_is_pressed_in_that_private_chat(tmp_path: Path) -> None:
    """The App accepts a press only from the game's own chat: a console click happens where the
    button was shown (here alice's private chat), not always in #table."""
    out = play(tmp_path / "db.sqlite3", "alice> /practice 3\nalice> 526\nalice clicks b1\n", "--seed", "7")
    assert "(b1) 🔁 Play again" in out
    assert "another chat" not in out
    assert out.count("[@alice] 🎯 alice, I have picked a secret code") == 2


def test_lang_in_private_sets_only_the_players_language(tmp_path: Path) -> None:
    """`carol> /lang` and a click on a language button: carol's private language changes, the group's not."""
    db = tmp_path / "db.sqlite3"
    out = play(db, "carol> /lang\n")
    assert out.startswith("[@carol] Choose the language:")
    german = buttons(out)["Deutsch"]
    out = play(db, f"carol> /lang\ncarol clicks {german}\ncarol> /help\ncarol: /help\n")
    private = [ln for ln in out.splitlines() if ln.startswith("[@carol]")]
    group = [ln for ln in out.splitlines() if ln.startswith("[#table]")]
    assert "[@carol] Sprache: Deutsch." in private
    assert any(ln.startswith("[@carol] 🎲 Die Spiele, die ich hier anbiete") for ln in private), out
    assert group and group[0].startswith("[#table] 🎲 The games I host here"), out
    assert "Sprache" not in "\n".join(group)


def test_a_rematch_asked_for_by_both_is_one_game(tmp_path: Path) -> None:
    """Issue 18: after alice's /rematch, bob's /rematch (or 🔁) accepts it; alice asking again is told
    that her offer stands; /cancel and /accept answer both in every state."""
    duel = "alice: /duel bob 3\nbob: /accept\nalice> 012\nbob> 345\nalice: /resign\n"
    out = play(tmp_path / "duel.sqlite3", duel + "alice: /rematch\nalice: /rematch\nalice: /accept\nbob: /rematch\n"
               "bob: /accept\nbob: /cancel\nalice: /cancel\n", "--seed", "1")
    assert "[#table] 🔁 alice wants a rematch with bob" in out
    assert out.count("alice: Your rematch offer (game #2) stands: bob can accept it") == 2
    assert "🤝 bob accepts alice's rematch!" in out and "[@bob] 🔒 Duel #2 against alice" in out
    assert "already in a game" not in out
    assert "bob: There is no challenge here for you to answer." in out
    assert out.count("The duel is already running; use /resign to give up.") == 2

    logik = "alice: /logik bob\nbob: /accept\nalice: /resign\n"
    shown = play(tmp_path / "probe.sqlite3", logik, "--seed", "1")
    button = buttons(shown)["🔁 Rematch"]
    out = play(tmp_path / "logik.sqlite3", logik + f"bob clicks {button}\nalice clicks {button}\n", "--seed", "1")
    assert "bob wants a Logik rematch with alice" in out and "🤝 alice accepts bob's Logik rematch!" in out, out
    out = play(tmp_path / "logik.sqlite3", "alice: /resign\nbob: /rematch\nbob: /rematch\nalice: /cancel\n"
               "alice: /rematch\nbob: /decline\nbob: /rematch\nalice: /rematch\n", "--seed", "1")
    assert "bob: Your rematch offer (game #3) stands: alice can accept it" in out
    assert "alice declined the Logik game." in out and "bob declined the Logik game." in out
    assert out.count("Colours swap: alice plays white.") == 3, out  # game 2 had bob play white
    assert "🤝 alice accepts bob's Logik rematch!" in out and "already in a game" not in out, out
