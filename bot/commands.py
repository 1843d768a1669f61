"""The canonical commands (identical on every platform), gathered from the games (bot/games/registry.py),
and their option parsing (bot/option_words.py)."""

from __future__ import annotations

from bot.games.registry import commands
from bot.option_words import (  # noqa: F401 - the option parsers, here where the commands are
    OPTION_WORD_KEYS,
    CodeOptions,
    mention_id,
    option_vocabulary,
    parse_code_options,
)
from bot.services import Command

COMMANDS: tuple[Command, ...] = commands()  # as registered at start (a game registered later: `commands()`)
BY_NAME = {c.name: c for c in COMMANDS}


def option_choices(command: Command) -> dict[str, tuple[str, ...]]:
    """Fixed value sets of a command's options, for platform menus (Discord choices); typed
    commands accept more (every language's option words, e.g. German `hoch`/`tief`)."""
    return dict(command.choices)
