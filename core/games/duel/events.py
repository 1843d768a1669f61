"""The events of the 1A2B duel, besides the challenge flow's (core/games/challenge_events.py)."""

from __future__ import annotations

import msgspec

from core.games.base import Event
from core.games.challenge_events import FLOW_EVENTS, Rematch


class DuelRematch(Rematch, frozen=True):
    """A rematch offered: `starter` opens it (the other one than last time)."""

    starter: str

    def roles(self) -> dict[str, str]:
        return {"starter": self.starter}


class Started(Event, frozen=True):
    """Both secrets are set: `starter` guesses first (`lot`: drawn by lot, not a rematch's turn)."""

    type = "started"
    starter: str
    lot: bool = True


class Guessed(Event, frozen=True):
    """`by` guessed `code`: `a` bulls, `b` cows, their `n`-th guess."""

    type = "guessed"
    by: str
    code: str
    a: int
    b: int
    n: int


class LastChance(Event, frozen=True):
    """The starter cracked the code: the second player (`for_`) has one guess left for a draw."""

    type = "last_chance"
    for_: str = msgspec.field(name="for")


class Won(Event, frozen=True):
    type = "won"
    by: str


class Draw(Event, frozen=True):
    """Both cracked in the same round (`both_cracked`), or both ran out of guesses."""

    type = "draw"
    both_cracked: bool


EVENTS: tuple[type[Event], ...] = (*FLOW_EVENTS, DuelRematch, Started, Guessed, LastChance, Won, Draw)
