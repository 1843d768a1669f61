"""Hausnummern's actions: what the scorer (or a chat admin, `admin`: the App says the actor is one) does."""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum

from core.games.base import Player

# `admin`: the App says the actor is a chat admin; the rules treat admins like the scorer.

@dataclass(frozen=True)
class Pins:
    """Enter a throw: pins as typed, and optionally the position (else buttons ask for it)."""

    text: str
    position: int | None = None
    admin: bool = False


@dataclass(frozen=True)
class Place:
    position: int
    admin: bool = False


@dataclass(frozen=True)
class Undo:
    admin: bool = False


@dataclass(frozen=True)
class HandOver:
    to: Player
    admin: bool = False


@dataclass(frozen=True)
class Decide:
    entry: int  # member index, or team index in a team duel
    admin: bool = False


@dataclass(frozen=True)
class Cancel:
    admin: bool = False


class KegelnVerb(StrEnum):
    """Kegeln's button verbs (`g:<game>:<verb>`): on the wire a verb and its number run together (`p3`, `w1`),
    `undo` stands alone."""

    PLACE = "p"  # p<position>: the pending pins go to that place
    PINS = "n"  # n<pins>: the pin pad's key, the current player's pins (as /wurf PINS)
    WINNER = "w"  # w<entry>: the entry named the winner of a tie
    UNDO = "undo"

    def at(self, n: int) -> str:
        """The verb with its number, as a button carries it (`p3`)."""
        return f"{self.value}{n}"
