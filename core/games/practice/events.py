"""The events of practice alone."""

from __future__ import annotations

from core.games.base import Event


class Started(Event, frozen=True):
    type = "started"
    length: int
    repeats: bool


class Guessed(Event, frozen=True):
    """A guess `code`: `a` bulls, `b` cows, the `n`-th attempt."""

    type = "guessed"
    code: str
    a: int
    b: int
    n: int


class Cracked(Event, frozen=True):
    """The code is cracked in `n` attempts; `rating` None: hints were taken (no rating)."""

    type = "cracked"
    n: int
    rating: str | None


class GaveUp(Event, frozen=True):
    type = "gave_up"
    secret: str
    n: int


class TimedOut(Event, frozen=True):
    type = "timed_out"
    secret: str


class Hinted(Event, frozen=True):
    """The solver gave a hint (core/solver/games.py): `left` codes possible, `guess` a strong next one;
    `first`: the first hint of the game (from now on it is assisted); after `n` attempts."""

    type = "hinted"
    left: int
    guess: str
    first: bool
    n: int


EVENTS: tuple[type[Event], ...] = (Started, Guessed, Cracked, GaveUp, TimedOut, Hinted)
