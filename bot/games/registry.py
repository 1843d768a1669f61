"""The games the bot plays, one line each, and the commands they bring (with the shared ones).

A game is its core package (core/games/<kind>/) and its bot-side package or module here, whose
`PLUGIN` carries the core game (`GamePlugin.game`): adding a game is one line below, and its rules
are found through it (`GAMES`; docs/architecture.md, "Adding a game")."""

from __future__ import annotations

from bot.app.turn import Command
from bot.games import daily, duel, kegeln, logik, practice, shared, words
from bot.games.plugin import GAMES, PLUGINS, GamePlugin, link_prefixes, register, schemas
from bot.retention.commands import COMMANDS as RETENTION
from bot.yourdata.commands import COMMANDS as YOUR_DATA

__all__ = ["GAMES", "PLUGINS", "GamePlugin", "commands", "link_prefixes", "register", "schemas"]


def commands() -> tuple[Command, ...]:
    """Every command in menu order: help, each game's own commands, the shared ones, the chat's own posts'
    (bot/retention/commands.py), then a player's own data (bot/yourdata/commands.py)."""
    return (*shared.HEAD, *(c for p in PLUGINS.values() for c in p.commands), *shared.tail(), *RETENTION,
            *YOUR_DATA)


register(practice.PLUGIN)
register(duel.PLUGIN)
register(kegeln.PLUGIN)
register(words.PLUGIN)
register(logik.PLUGIN)
register(daily.PLUGIN)
