"""The canonical commands (identical on every platform) and their option parsing."""

from __future__ import annotations

import re
from dataclasses import dataclass

from bot.i18n import Catalogs
from core.codes import DEFAULT_LENGTH, LENGTHS
from core.errors import GameError
from core.games import kegeln
from core.options import Vocabulary, meaning


@dataclass(frozen=True)
class Command:
    name: str
    options: tuple[str, ...] = ()
    group_only: bool = False
    hidden: bool = False  # not in platform menus (e.g. /start, which platforms handle themselves)


COMMANDS: tuple[Command, ...] = (
    Command("help", ("command",)),
    Command("practice", ("length", "repeats")),
    Command("duel", ("opponent", "length", "repeats"), group_only=True),
    Command("accept"),
    Command("decline"),
    Command("guess", ("code",)),
    Command("giveup"),
    Command("resign"),
    Command("board"),
    Command("rematch"),
    Command("stats", ("player",)),
    Command("top"),
    Command("lang", ("code",)),
    Command("cancel"),
    Command("kegeln", ("mode", "places", "names")),
    Command("wurf", ("pins", "position")),
    Command("throw", ("pins", "position")),
    Command("undo"),
    Command("scorer", ("user",)),
    Command("kegelstats", ("name",)),
    Command("abend"),
    Command("kegelexport"),
    Command("words", ("options",)),
    Command("join"),
    Command("leave"),
    Command("begin"),
    Command("logik", ("opponent", "rows"), group_only=True),
    Command("hint"),
    Command("analyse"),
    Command("start", ("token",), hidden=True),
)
BY_NAME = {c.name: c for c in COMMANDS}

# Option words: each option's id is its English word; every catalog lists its own words under these keys
# (literal keys, so the catalog test sees them). The App reads them into one vocabulary (word → id).
OPTION_WORD_KEYS: dict[str, str] = {
    "repeats": "option.words.repeats", "bot": "option.words.bot",
    "easy": "option.words.easy", "strong": "option.words.strong",
    "rows": "option.words.rows",
    "high": "option.words.high", "low": "option.words.low", "teams": "option.words.teams",
    "solo": "option.words.solo", "length": "option.words.length", "rounds": "option.words.rounds",
    "points": "option.words.points", "limit": "option.words.limit", "answers": "option.words.answers",
    "classic": "option.words.classic", "counts": "option.words.counts", "strict": "option.words.strict",
    "free": "option.words.free", "lang": "option.words.lang", "time": "option.words.time",
}
MENTION = re.compile(r"^<@!?([^<>@\s]+)>$")


@dataclass(frozen=True)
class CodeOptions:
    length: int = DEFAULT_LENGTH
    repeats: bool = False
    opponent: str | None = None  # as written: a mention, @name or name


def option_vocabulary(catalogs: Catalogs) -> dict[str, str]:
    """Every language's option words → the option id (each id is its own English word). A word that
    two options share is left out (tests/test_option_words.py keeps the catalogs free of such words)."""
    found: dict[str, set[str]] = {}
    for option, key in OPTION_WORD_KEYS.items():
        for word in {option, *catalogs.words(key)}:
            found.setdefault(word, set()).add(option)
    return {word: options.pop() for word, options in found.items() if len(options) == 1}


def parse_code_options(args: tuple[str, ...], allow_opponent: bool, vocab: Vocabulary | None = None) -> CodeOptions:
    """`[opponent] [3|4|5] [repeats]` in any order (the repeats word in any language); anything else is
    a coded error."""
    length, repeats, opponent = DEFAULT_LENGTH, False, None
    for raw in args:
        word = raw.strip().lower()
        if not word:
            continue
        if word.isdecimal():
            if int(word) not in LENGTHS:
                raise GameError("bad_length", given=word, lengths="/".join(map(str, LENGTHS)))
            length = int(word)
        elif meaning(word, vocab, ("repeats",)):
            repeats = True
        elif allow_opponent and opponent is None:
            opponent = raw.strip()
        else:
            raise GameError("bad_option", option=raw[:30])
    return CodeOptions(length, repeats, opponent)


def mention_id(text: str) -> str | None:
    """The user id in a platform mention like `<@123>`."""
    m = MENTION.match(text.strip())
    return m.group(1) if m else None


CHOICES: dict[str, tuple[str, ...]] = {
    "length": tuple(map(str, LENGTHS)),  # 1A2B code lengths
    "mode": ("high", "low"),  # Hausnummern
    "places": tuple(str(n) for n in range(kegeln.MIN_DIGITS, kegeln.MAX_DIGITS + 1)),  # Hausnummern digits
}


def option_choices(command: Command) -> dict[str, tuple[str, ...]]:
    """Fixed value sets of a command's options, for platform menus (Discord choices); typed
    commands accept more (every language's option words, e.g. German `hoch`/`tief`)."""
    return {opt: CHOICES[opt] for opt in command.options if opt in CHOICES}
