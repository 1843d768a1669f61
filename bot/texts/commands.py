"""The commands as registered at start (bot/games/registry.py), by name, and the option parsers beside them
(bot/texts/option_words.py): what the tests and the docs examples read; the App itself needs none of it."""

from __future__ import annotations

from bot.app.turn import Command
from bot.games.registry import commands
from bot.texts.option_words import (
    CodeOptions,
    mention_id,
    option_vocabulary,
    option_word_keys,
    parse_code_options,
)

__all__ = ["BY_NAME", "COMMANDS", "CodeOptions", "mention_id", "option_vocabulary",
           "option_word_keys", "parse_code_options"]

COMMANDS: tuple[Command, ...] = commands()  # as registered at start (a game registered later: `commands()`)
BY_NAME = {c.name: c for c in COMMANDS}

