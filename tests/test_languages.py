"""A scripted console game in every non-English language, through the real `python -m bot --lang XX` process:
every game, its errors, buttons and help — and not one untranslated key or English fallback in what the bot says.

The script types the localised words the help promises (the repeats and random words, colour initials, Kegeln
positions), taken from the catalogs where they live there, so the parser is checked along the way."""

from __future__ import annotations

import io
import os
import re
import string
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from adapters.console.adapter import ConsoleAdapter
from bot.app.app import App
from bot.games.registry import PLUGINS
from bot.texts.i18n import Catalogs, shipped_owners
from core import pegs
from tests.example_game import plugin as hilo

ROOT = Path(__file__).resolve().parents[1]
CATALOGS = Catalogs(owners=[*shipped_owners(), ROOT / "tests" / "example_game" / "texts"])  # a new game's too
EN = CATALOGS.catalogs["en"]

# The words a player of that language types (the help of that language promises them).
SAID = {
    "de": {"repeats": "doppelt", "random": "zufall", "letters": "abcd"},
    "ru": {"repeats": "повторы", "random": "случайно", "letters": "абвг"},
    "bg": {"repeats": "повторения", "random": "случаен", "letters": "абвг"},
    "sv": {"repeats": "upprepning", "random": "slump", "letters": "abcd"},
}

# Phrases of the English catalog that must never reach a non-English chat (besides the ones derived below).
ENGLISH_MARKERS = [
    "I have picked a secret code", "Send your guesses", "gave up after", "The code was", "Your secret code",
    "is not a code", "this game uses", "Choose the language", "Running games here", "'s turn", "wins!",
    "Waiting for", "Send me your secret", "Start one with", "I do not know", "See /help", "Both codes are locked",
    "accepts", "challenges", "possible codes", "strong next guess", "counts as assisted", "The strong solver",
    "Throwing order", "Enter throws", "choose the place", "is already taken", "Undone:", "Club evening",
    "Logik game", "secret row", "Colours:", "rows left", "I have thought of a word", "letters,", "per guess",
    "Guess a code", "Practice 1A2B", "Challenge someone", "Give up", "Show your game", "leaderboard",
]


def _texts(entry: Any) -> list[str]:
    if isinstance(entry, dict):
        return [str(v) for v in entry.values()]
    if isinstance(entry, list):
        return []  # word lists are input vocabulary, not output
    return [str(entry)]


def english_fragments(lang: str) -> set[str]:
    """Runs of at least three English words from en.toml (between placeholders and line breaks) that the
    catalog of `lang` does not contain itself (command syntax like `/kegeln high 3 teams …` stays English)."""
    own = "\n".join(t for e in CATALOGS.catalogs[lang].values() for t in _texts(e))
    found: set[str] = set()
    for entry in EN.values():
        for text in _texts(entry):
            literal = "".join(lit for lit, _, _, _ in string.Formatter().parse(text))
            for part in re.split(r"[\n{}()“”\"—·:;,.!?/\[\]|…]+", literal):
                words = re.findall(r"[A-Za-z']{2,}", part)
                run = part.strip()
                if len(words) >= 3 and re.fullmatch(r"[A-Za-z' ]+", run) and run not in own:
                    found.add(run)
    return found


KEY_LIKE = re.compile(r"(?<![-/\w.])[a-z][a-z_]{2,}(?:\.[a-z_]{2,})+(?![\w.])")


def play(tmp: Path, lang: str, script: str) -> str:
    env = {k: v for k, v in os.environ.items() if not k.endswith("_TOKEN")}
    env["PYTHONPATH"] = str(ROOT)
    done = subprocess.run([sys.executable, "-m", "bot", "--db", str(tmp / "db.sqlite3"), "--lang", lang,
                           "--seed", "5", "--admin", "anna"],  # the table's admin: her Kegeln game is the club's
                          input=script, text=True, capture_output=True, timeout=90, env=env,
                          cwd=tmp)
    assert done.returncode == 0, done.stderr
    assert "Traceback" not in done.stderr
    return done.stdout


def script_for(lang: str) -> str:
    cat, said = CATALOGS.catalogs[lang], SAID[lang]
    initial = {c.name_key.rsplit(".", 1)[1]: str(cat[c.initial_key]) for c in pegs.COLOURS}
    row = initial["red"] + initial["red"] + initial["green"] + initial["green"] + initial["blue"]
    hundreds, tens = cat["kegeln.words.hundreds"], cat["kegeln.words.tens"]
    return "\n".join([
        "anna: /start", "anna: /help", "anna: /help duel", "anna: /help kegeln", "anna: /help logik",
        "anna: /help words",
        # 1A2B practice: repeats in the player's own word, a short code, a hint, the board, give up, analysis
        f"anna: /practice 3 {said['repeats']}", "anna: 012", "anna: 01", "anna: /hint", "anna: /board",
        "anna: /giveup", "anna: /analyse", "anna: /practice 7", "anna: /practice banana",
        # a duel: the random word privately, guesses out of turn, board, resign, rematch declined
        "anna: /duel bob 3", "bob: /accept", f"anna> {said['random']}", "bob> 123", "anna: 345", "bob: 345",
        "anna: 11", "bob: 11", "anna: /board", "anna: /resign", "bob: /resign", "anna: /rematch", "bob: /decline",
        "anna: /stats", "anna: /top", "anna: /lang", "anna: /nosuch", "anna: /guess", "anna: /cancel",
        # a duel against the bot
        "anna: /duel bot easy 3", "anna> 012", "anna: 345", "anna: /resign",
        # Logik: colour initials of this language, a wrong row, the board, resign, stats
        "anna: /logik bob 8", "bob: /accept", f"anna> {row}", f"bob> {said['random']}", "anna: 12345",
        "anna: 12345", f"bob: {row}", "anna: 12399", "anna: /board", "anna: /resign", "anna: /stats logik",
        # Kegeln: a whole game with localised positions (letter and word), a Pumpe, undo, stats, evening, export
        "anna: /kegeln high 3 Anna Ben", "anna: /wurf 7", "anna: /wurf 5 1", "anna: /undo",
        f"anna: /wurf 9 {hundreds[0]}", f"anna: /wurf 3 {tens[1]}", f"anna: /wurf 8 {tens[0]}", "anna: /wurf 4 10",
        f"anna: /wurf 0 {hundreds[1]}", "anna: /wurf 1 1", "anna: /wurf 7 zz", "anna: /wurf 6 1",
        "anna: /kegelstats", "anna: /kegelstats Anna", "anna: /abend", "anna: /kegelexport",
        # the club: its roster, and a casual game of a plain member, cancelled
        "anna: /verein", "bob: /kegeln high 2 Xaver Yvo", "bob: /cancel",
        # the word game: solo with free letters, then a group lobby
        "anna: /words solo length 4 free", f"anna: {said['letters']}", "anna: /board", "anna: /giveup",
        "anna: /words length 4 rounds 1 free", "bob: /join", "bob: /join", "anna: /begin", "anna: /board",
        f"anna> {said['random']}", f"bob> {said['random']}", f"anna: {said['letters']}", f"bob: {said['letters']}",
        "anna: /leave", "bob: /leave",
    ]) + "\n"


@pytest.mark.parametrize("lang", ["de", "ru", "bg", "sv"])
def test_a_console_game_speaks_only_that_language(tmp_path: Path, lang: str) -> None:
    out = play(tmp_path, lang, script_for(lang))
    said = "\n".join(ln for ln in out.splitlines() if not ln.startswith("? "))
    # the session really went through every game
    for key in ("practice.gave_up", "duel.started", "solver.bot_duel", "logik.started", "logik.revealed",
                "kegeln.result", "kegeln.abend.head", "kegeln.casual.started", "club.view", "words.solo_started",
                "words.lobby", "lang.choose"):
        entry = CATALOGS.catalogs[lang][key]
        first = str(entry.get("other") if isinstance(entry, dict) else entry).split("{")[0].strip()
        assert first == "" or first in said, (key, first)
    keys = [k for k in EN if k in said.replace("\n", " ").split()]
    assert keys == [], f"untranslated keys: {keys}"
    looks_like_key = KEY_LIKE.findall(said)
    assert looks_like_key == [], f"text that looks like a key: {looks_like_key}"
    english = sorted(p for p in [*ENGLISH_MARKERS, *english_fragments(lang)] if p in said)
    assert english == [], f"English in a {lang} chat: {english}"


def test_the_markers_would_catch_an_english_session(tmp_path: Path) -> None:
    """The same session in English trips the checks (so the checks can fail); a raw key would be caught."""
    assert KEY_LIKE.findall("[#table] kegeln.abend.head\n  ↩️ error.store_busy!") == ["kegeln.abend.head",
                                                                                   "error.store_busy"]
    assert KEY_LIKE.findall("board-5.png kegeln-table.csv /work/data t.ex. z. B.") == []
    out = play(tmp_path, "en", script_for("de").replace("doppelt", "repeats").replace("zufall", "random"))
    assert sum(p in out for p in ENGLISH_MARKERS) > 20
    assert len([p for p in english_fragments("de") if p in out]) > 20


@pytest.mark.parametrize("lang", ["de", "ru", "bg", "sv"])
async def test_a_new_game_speaks_only_that_language(tmp_path: Path, lang: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """The example game (tests/example_game/), registered as a new game is, played in the App with its own
    catalogs: the same checks as the shipped games' session above."""
    monkeypatch.setitem(PLUGINS, hilo.PLUGIN.kind, hilo.PLUGIN)
    app = await App.open(str(tmp_path / "db.sqlite3"), seed=5, default_lang=lang)
    out = io.StringIO()
    console = ConsoleAdapter(app.handle, out=out, locale=lang, image_dir=tmp_path)
    try:
        for line in ("anna: /hilo", "anna: 500", "anna: 50", "anna: 25", "anna: /board", "anna: /help hilo",
                     "anna: /help", "anna: /giveup", "anna: /stats"):
            await console.feed(line)
    finally:
        await app.close()
    said = out.getvalue()
    for key in ("hilo.started", "error.hilo.not_a_number", "hilo.ended", "help.cmd.hilo", "cmd.hilo", "game.hilo"):
        entry = CATALOGS.catalogs[lang][key]
        first = str(entry.get("other") if isinstance(entry, dict) else entry).split("{")[0].strip()
        assert first == "" or first in said, (key, first)
    assert any(w in said for w in ("higher", "lower", "höher", "niedriger", "больше", "меньше", "по-голямо",
                                   "по-малко", "högre", "lägre"))
    assert [k for k in EN if k in said.replace("\n", " ").split()] == []
    assert KEY_LIKE.findall(said) == []
    english = sorted(p for p in [*ENGLISH_MARKERS, *english_fragments(lang)] if p in said)
    assert english == [], f"English in a {lang} chat: {english}"
