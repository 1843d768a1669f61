"""The events of Kegeln (the scorer's sheet): members are indexes into the state's `members`, entries
a member or (team duel) a team index."""

from __future__ import annotations

from core.games.base import Event
from core.games.kegeln.state import Outcome


class Started(Event, frozen=True):
    type = "started"
    scorer: str  # user id


class PinsWaiting(Event, frozen=True):
    """The throw of `pins` waits for the scorer to choose its place."""

    type = "pins"
    member: int
    pins: int


class Thrown(Event, frozen=True):
    """`pins` placed at `position` (giving `digit`); `free`: the best places that were free for it."""

    type = "thrown"
    member: int
    pins: int
    position: int
    digit: int
    free: list[int]


class Undone(Event, frozen=True):
    """The last throw taken back (`position` None: pins that were still waiting for a place)."""

    type = "undone"
    member: int
    pins: int
    position: int | None


class ScorerChanged(Event, frozen=True):
    type = "scorer"
    old: str  # names
    new: str


class Tie(Event, frozen=True):
    """Entries share first place: the scorer decides."""

    type = "tie"
    tied: list[int]


class Decided(Event, frozen=True):
    type = "decided"
    entry: int


class Cancelled(Event, frozen=True):
    type = "cancelled"


class TimedOut(Event, frozen=True):
    type = "timed_out"


class Finished(Event, frozen=True):
    """The game ended: done (with its `winner` entry), cancelled or abandoned."""

    type = "finished"
    outcome: Outcome
    winner: int | None


EVENTS: tuple[type[Event], ...] = (Started, PinsWaiting, Thrown, Undone, ScorerChanged, Tie, Decided, Cancelled,
                                   TimedOut, Finished)
