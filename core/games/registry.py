"""The games, one line each: the App finds a game's rules, presenter and capabilities here by kind.

Adding a game: a package `core/games/<kind>/` whose `GAME` implements `core.games.base.Game`, one line
below, its commands (bot/games/) and its catalog keys (docs/architecture.md, "Adding a game")."""

from __future__ import annotations

from typing import Any

from core.games import daily, duel, kegeln, logik, practice, words
from core.games.base import Game

GAMES: dict[str, Game[Any]] = {}


def register(game: Game[Any]) -> None:
    """Add a game (or replace the one of its kind)."""
    GAMES[game.kind] = game


register(practice.GAME)
register(duel.GAME)
register(words.GAME)
register(kegeln.GAME)
register(logik.GAME)
register(daily.GAME)
