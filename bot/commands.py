"""The canonical commands (identical on every platform) and their option parsing."""

from __future__ import annotations

import re
from dataclasses import dataclass

from core.codes import DEFAULT_LENGTH, LENGTHS
from core.errors import GameError
from core.games import kegeln


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

# Option words accepted for "repeats allowed", in every language the help promises.
REPEAT_WORDS = {"repeats", "repeat", "r", "doppelt", "wdh", "wiederholung", "wiederholungen",
                "dup", "duplicates", "повторы", "повторения", "upprepning", "upprepningar"}
MENTION = re.compile(r"^<@!?([^<>@\s]+)>$")


@dataclass(frozen=True)
class CodeOptions:
    length: int = DEFAULT_LENGTH
    repeats: bool = False
    opponent: str | None = None  # as written: a mention, @name or name


def parse_code_options(args: tuple[str, ...], allow_opponent: bool) -> CodeOptions:
    """`[opponent] [3|4|5] [repeats]` in any order; anything else is a coded error."""
    length, repeats, opponent = DEFAULT_LENGTH, False, None
    for raw in args:
        word = raw.strip().lower()
        if not word:
            continue
        if word.isdecimal():
            if int(word) not in LENGTHS:
                raise GameError("bad_length", given=word, lengths="/".join(map(str, LENGTHS)))
            length = int(word)
        elif word in REPEAT_WORDS:
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
    commands accept more (e.g. German `hoch`/`tief`)."""
    return {opt: CHOICES[opt] for opt in command.options if opt in CHOICES}
