"""The events of the daily puzzle."""

from __future__ import annotations

from core.games.base import Event


class DailyStarted(Event, frozen=True):
    type = "daily_started"
    puzzle: str
    day: str


class DailyGuessed(Event, frozen=True):
    """The `n`-th guess: `a` hits, `b` near (the row itself is in the state, never in the event)."""

    type = "daily_guess"
    n: int
    a: int
    b: int


class DailyOver(Event, frozen=True):
    """The puzzle is over (solved, failed, given up or timed out) after `n` guesses."""

    type = "daily_over"
    n: int


EVENTS: tuple[type[Event], ...] = (DailyStarted, DailyGuessed, DailyOver)
