"""Option words in every language: the catalogs' word lists (`option.words.*`) parse like the English words,
no word means two options, and what the help, the menus and the errors of each language show is made of
that language's words and runs through the real App to the game it promises.

The usage lines are taken from the catalogs themselves: every `/practice`, `/duel`, `/words`, `/kegeln` or
`/logik` with what follows it (up to the end of the clause), and the menu texts `cmd.*`. A line with
`[optional]` parts, `a|b` choices or placeholders (N, NAME…, 3–8) is expanded into concrete commands, one
choice at a time; each must start its game, with the same options as the English line at the same place.
"""

from __future__ import annotations

import itertools
import re
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any

import pytest

from bot.app.app import App
from bot.games.computer import without_bot as _without_bot
from bot.games.computer.storage import bot_level
from bot.games.daily.commands import parse as daily_parse
from bot.games.registry import GAMES, schemas
from bot.storage.sqlite import SqliteStore
from bot.texts.i18n import Catalogs
from bot.texts.option_words import option_vocabulary, option_word_keys, parse_code_options
from core import serial
from core.errors import GameError
from core.games.kegeln import options
from core.games.kegeln.state import Mode
from core.games.logik import rules as logik
from core.games.words import options as words_options
from core.games.words import state as words_state
from core.messages import Actor, Chat, Inbound
from tests.solver import views as solver_games

CATALOGS = Catalogs()
LANGS = CATALOGS.languages
VOCAB = option_vocabulary(CATALOGS)
OPTION_WORD_KEYS = option_word_keys(CATALOGS)  # the shared options' and each game's own
GAME_COMMANDS = ("practice", "duel", "words", "kegeln", "logik")


def own_words(lang: str) -> dict[str, str]:
    """A language's option words → option id (English: the ids themselves too)."""
    found = {w.lower(): option for option, key in OPTION_WORD_KEYS.items()
             for w in CATALOGS.catalogs[lang].get(key, [])}
    if lang == "en":
        found.update({option: option for option in OPTION_WORD_KEYS})
    return found


# ---------------------------------------------------------------- the vocabularies


def test_every_catalog_lists_words_for_every_option() -> None:
    for lang in LANGS:
        for key in OPTION_WORD_KEYS.values():
            listed = CATALOGS.catalogs[lang].get(key)
            assert isinstance(listed, list) and listed, (lang, key)
            assert all(isinstance(w, str) and w == w.strip().lower() and " " not in w for w in listed), (lang, key)
    assert all(CATALOGS.catalogs["en"][key][0] == option for option, key in OPTION_WORD_KEYS.items())


def test_no_word_names_two_options() -> None:
    """Across all languages: a word that two languages (or one) use for different options would be ambiguous."""
    meanings: dict[str, set[str]] = {}
    for lang in LANGS:
        for word, option in own_words(lang).items():
            meanings.setdefault(word, set()).add(option)
    clashes = {w: sorted(o) for w, o in meanings.items() if len(o) > 1}
    assert clashes == {}
    assert set(VOCAB) == set(meanings)  # so the App's vocabulary drops nothing
    # and none is a value an option takes: a language code, a number
    assert not set(VOCAB) & {"en", "de", "ru", "bg", "sv"}
    assert not any(w.isdecimal() for w in VOCAB)


def _parse(option: str, word: str) -> Any:
    """What `word`, standing for `option`, does in the parser of its command."""
    if option == "repeats":
        return parse_code_options((word,), False, VOCAB)
    if option == "bot":
        return _without_bot((word, "3"), VOCAB)
    if option in ("easy", "strong", "perfect"):
        return solver_games.parse_level((word, "3"), VOCAB)
    if option == "rows":
        return logik.parse_options((word, "9"), VOCAB)
    if option in ("high", "low"):
        return options.parse_setup((word, "A", "B"), VOCAB)
    if option == "teams":
        return options.parse_setup(("high", word, "A", "/", "B"), VOCAB)
    if option in ("1a2b", "logik", "words", "board", "table"):  # /daily's puzzles and subcommands
        return daily_parse((word,), VOCAB)
    value = {"length": ("4",), "rounds": ("3",), "points": ("3",), "limit": ("20",), "answers": ("counts",),
             "lang": ("ru",), "time": ("60",)}.get(option, ())
    return words_options.parse_options((word, *value), "en", VOCAB)


@pytest.mark.parametrize("lang", LANGS)
def test_every_word_parses_like_the_english_one(lang: str) -> None:
    for word, option in own_words(lang).items():
        assert _parse(option, word) == _parse(option, option), (lang, word, option)
        if option in ("classic", "counts"):  # also as the value of `answers`
            assert (words_options.parse_options(("answers", word), "en", VOCAB)
                    == words_options.parse_options(("answers", option), "en", VOCAB)), (lang, word)
    # and it is not the default: the word does something
    assert _parse("repeats", "repeats") != parse_code_options((), False, VOCAB)


def test_without_a_vocabulary_core_knows_the_english_ids() -> None:
    assert options.parse_setup(("low", "A", "B")).mode is Mode.LOW
    with pytest.raises(GameError):
        options.parse_setup(("tief", "A", "B"))
    assert options.parse_setup(("tief", "A", "B"), VOCAB).mode is Mode.LOW


# ---------------------------------------------------------------- the usage lines of the catalogs

PROSE = {"or", "oder", "или", "eller", "in", "в", "i", "to", "för", "за", "and", "und", "и", "och"}  # a clause goes on
STOP = re.compile(r"[—,;:()!?«»“”„.·\n]| – ")
BRACKETS = re.compile(r"\[([^\]]*)\]")
PLACEHOLDER_VALUES = {"length": "5", "rows": "10", "rounds": "3", "points": "3", "limit": "20", "time": "60"}


def _is_placeholder(token: str) -> bool:
    letters = token.rstrip("…")
    return any(ch.isalpha() for ch in letters) and letters == letters.upper() and len(letters) >= 1


def usage_runs(text: str) -> list[tuple[str, str]]:
    """(command, what follows it up to the end of its clause) for every game command named in `text`."""
    runs = []
    text = re.sub(r"(\d)–(\d)", r"\1-\2", text)
    for m in re.finditer(r"/(" + "|".join(GAME_COMMANDS) + r")\b", text):
        rest = text[m.end():]
        depth, end = 0, len(rest)
        for i, ch in enumerate(rest):  # a clause ends at punctuation outside brackets
            depth += ch == "["
            depth -= ch == "]"
            if depth == 0 and STOP.match(rest, i):
                end = i
                break
        tokens = []
        for token in re.findall(r"\[[^\]]*\]|\S+", rest[:end]):
            if token.startswith("/") and token != "/":
                break  # the next command
            if token.lower() in PROSE:
                break
            tokens.append(token)
        runs.append((m.group(1), " ".join(tokens)))
    return runs


def menu_runs(lang: str) -> list[tuple[str, str]]:
    """The menu text of a game command (`cmd.practice`: "…: [3|4|5] [repeats]"): its part after the colon."""
    out = []
    for name in GAME_COMMANDS:
        text = str(CATALOGS.catalogs[lang][f"cmd.{name}"])
        part = text.rsplit(": ", 1)[-1]
        out.append((name, re.split(r"\s(?:" + "|".join(PROSE) + r")\s", re.sub(r"(\d)–(\d)", r"\1-\2", part))[0]))
    return out


def _choices(group: str) -> list[list[str]]:
    """`rounds N | points N` → [["rounds", "N"], ["points", "N"]]; `answers classic|counts` →
    [["answers", "classic"], ["answers", "counts"]]; `3|4|5` → [["3"], ["4"], ["5"]]."""
    out: list[list[str]] = []
    for alt in re.split(r"\s\|\s", group):
        tokens = [[c for c in token.split("|") if c] for token in alt.split()]
        out.extend(list(combo) for combo in itertools.product(*tokens) if combo)
    return out


def expand(run: str) -> list[list[str]]:
    """A usage line → concrete token lists: the required parts with their first choice, then each
    choice of each part on its own (optional parts left out otherwise)."""
    parts: list[tuple[bool, list[list[str]]]] = []  # (optional?, choices)
    for token in re.findall(r"\[[^\]]*\]|\S+", run):
        if token.startswith("["):
            parts.append((True, _choices(token[1:-1])))
        else:
            parts.append((False, _choices(token)))
    base = [choices[0] for optional, choices in parts if not optional]
    out = [list(itertools.chain(*base))]
    for i, (optional, choices) in enumerate(parts):
        if len(choices) == 1 and not optional:
            continue
        for choice in choices:
            picked = [choice if j == i else (c[0] if not opt else None)
                      for j, (opt, c) in enumerate(parts)]
            out.append(list(itertools.chain(*(p for p in picked if p is not None))))
    concrete = []
    for tokens in out:
        filled: list[str] = []
        for token in tokens:
            previous = VOCAB.get(filled[-1].lower()) if filled else None
            if re.fullmatch(r"\d+-\d+", token):
                filled.append(token.split("-")[0] if previous != "length" else "5")
            elif _is_placeholder(token):
                filled.extend([PLACEHOLDER_VALUES[previous]] if previous in PLACEHOLDER_VALUES else ["Anna", "Ben"])
            else:
                filled.append(token)
        if filled not in concrete:
            concrete.append(filled)
    return concrete


def lines_of(lang: str) -> dict[str, list[tuple[str, str]]]:
    """Catalog key → its usage runs, for every key that names a game command, and the menu texts."""
    found: dict[str, list[tuple[str, str]]] = {}
    for key, value in CATALOGS.catalogs[lang].items():
        if isinstance(value, str) and not key.startswith("cmd."):
            runs = usage_runs(value)
            if runs:
                found[key] = runs
    for name, run in menu_runs(lang):
        found[f"cmd.{name}"] = [(name, run)]
    return found


def is_syntax(run: str) -> bool:
    return any(ch in run for ch in "[|") or any(_is_placeholder(t) for t in run.split())


@pytest.mark.parametrize("lang", LANGS)
def test_usage_lines_show_the_languages_own_words(lang: str) -> None:
    """Every option word a usage line of a language shows is one of that language's words."""
    mine = own_words(lang)
    foreign = []
    for key, runs in lines_of(lang).items():
        for _command, run in runs:
            for token in re.findall(r"[^\s\[\]|]+", run):
                word = token.lower()
                if word in VOCAB and word not in mine and not _is_placeholder(token):
                    foreign.append((key, token))
    assert foreign == []


@pytest.fixture
def app(tmp_path: Path) -> Callable[[], Awaitable[App]]:
    """A fresh App on its own database for every command: game ids stay small (the leak guard takes a
    game number that equals a secret code for a leak)."""
    async def fresh() -> App:
        store = SqliteStore(str(tmp_path / f"bot-{next(CHATS)}.sqlite3"), synchronous="OFF",
                            schemas=schemas())  # the games' and the club's own tables (who may score)
        await store.open()
        a = App(store, CATALOGS, seed=5)
        a.solver_cache = str(tmp_path / "solver-cache")
        return a
    return fresh


CHATS = itertools.count(1)


async def started(new_app: Callable[[], Awaitable[App]], command: str, args: list[str]) -> tuple[Any, ...]:
    """Run `/command args` in a group through a fresh App: the game it starts, as (kind, options)."""
    app = await new_app()
    try:
        return await _started(app, command, args)
    finally:
        await app.close()


async def _started(app: App, command: str, args: list[str]) -> tuple[Any, ...]:
    chat = Chat("console", "#table", private=False)
    actor = Actor("console", "zoe", "Zoe", "en")
    response = await app.handle(Inbound(actor, chat, command=command, args=tuple(args)))
    rows = await app.store.chat_games("console", chat.chat_id)
    assert rows, f"/{command} {' '.join(args)} started no game: {[m.text for m in response.messages]}"
    row = rows[0]
    state: Any = serial.load(GAMES[row.kind].state_type, row.state)
    level = await bot_level(app.store, "console", chat.chat_id, row.kind, row.id, "zoe")
    if row.kind == "practice":
        return row.kind, state.rules
    if row.kind == "duel":
        return row.kind, state.rules, solver_games.has_bot(state), level
    if row.kind == "logik":
        return row.kind, state.rows_max, solver_games.has_bot(state), level
    if row.kind == "kegeln":
        return row.kind, state.mode, state.digits, state.teams
    return row.kind, state.opts, getattr(state, "solo", None)


_ENGLISH: dict[str, list[list[tuple[Any, ...]]]] = {}


async def english(app: Callable[[], Awaitable[App]]) -> dict[str, list[list[tuple[Any, ...]]]]:
    """The games the English syntax lines start, per catalog key, line by line (worked out once per
    worker process: every language's test compares with the same English games)."""
    if not _ENGLISH:
        for key, runs in lines_of("en").items():
            _ENGLISH[key] = [[await started(app, c, args) for args in expand(run)] for c, run in runs
                             if is_syntax(run)]
    return _ENGLISH


@pytest.mark.parametrize("lang", LANGS)
async def test_usage_lines_start_their_games_like_the_english_ones(
        lang: str, app: Callable[[], Awaitable[App]]) -> None:
    en = await english(app)
    checked = 0
    for key, runs in lines_of(lang).items():
        syntax = []
        for command, run in runs:
            if is_syntax(run):
                syntax.append([await started(app, command, args) for args in expand(run)])
            else:  # a concrete example: it must start its game
                await started(app, command, run.split())
            checked += 1
        assert syntax == en.get(key, []), (lang, key)
    assert checked > 30


async def test_the_german_words_example_works(app: Callable[[], Awaitable[App]]) -> None:
    assert "/words länge 4 punkte 5" in str(CATALOGS.catalogs["de"]["help.cmd.words"])
    game = await started(app, "words", ["länge", "4", "punkte", "5"])
    assert game[1] == words_state.Options(length=4, mode=words_state.Mode.POINTS, goal=5, lang="en")
