"""The games the bot plays, one line each, and the commands they bring (with the shared ones).

A game is its core package (core/games/<kind>/, listed in core/games/registry.py) and its plugin
here: adding a game is one line below (docs/architecture.md, "Adding a game")."""

from __future__ import annotations

from bot.games import daily, duel, kegeln, logik, practice, shared, words
from bot.services import Command, GamePlugin

PLUGINS: dict[str, GamePlugin] = {}


def register(plugin: GamePlugin) -> None:
    """Add a game's plugin (or replace the one of its kind); its commands join the menus."""
    PLUGINS[plugin.kind] = plugin


def commands() -> tuple[Command, ...]:
    """Every command in menu order: help, each game's own commands, then the shared ones."""
    return (*shared.HEAD, *(c for p in PLUGINS.values() for c in p.commands), *shared.TAIL)


register(practice.PLUGIN)
register(duel.PLUGIN)
register(kegeln.PLUGIN)
register(words.PLUGIN)
register(logik.PLUGIN)
register(daily.PLUGIN)
