"""What a move is to the move runner (`Move`, `Played`, `Moved`): plain types of their own, so that the
games' plugins and the services protocol (bot/games/plugin.py) name them without importing the runner."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from core.games.base import Ctx, Event, Game

Step = Callable[[Game[Any], Any, Ctx], tuple[Any, list[Event]]]


@dataclass(frozen=True)
class Move:
    """One move for the move runner (`MoveRunner.run`): how it changes the state, and how it is told."""

    step: Step
    label: str  # the log's outcome: "guess", "bot", "hint" …
    extra: tuple[Event, ...] = ()  # events logged before the move's own
    same_version: bool = False  # decided on the row given (a thought, a hint): `Moved` if another came first
    computer: bool = False  # the bot's own move: the bot does not answer it


@dataclass(frozen=True)
class Played:
    """What the move runner played: the game's id and whether that move ended the game."""

    game_id: int
    over: bool


class Moved(Exception):
    """A move decided on a state that another move has changed meanwhile: decide again."""
