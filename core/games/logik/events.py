"""The events of Logik, besides the challenge flow's (core/games/challenge_events.py)."""

from __future__ import annotations

from core.games.base import Event
from core.games.challenge_events import FLOW_EVENTS, Rematch


class LogikRematch(Rematch, frozen=True):
    """A rematch offered: the colours swap, `white` plays white."""

    white: str

    def roles(self) -> dict[str, str]:
        return {"white": self.white}


class Started(Event, frozen=True):
    """Both secrets are set: the rounds begin."""

    type = "started"


class Submitted(Event, frozen=True):
    """`by` submitted their row of round `round` (revealed once both rows are in)."""

    type = "submitted"
    by: str
    round: int


class Revealed(Event, frozen=True):
    """Both rows of round `round` are scored and shown."""

    type = "revealed"
    round: int


class BothSolved(Event, frozen=True):
    type = "both_solved"
    round: int


class Solved(Event, frozen=True):
    type = "solved"
    by: str
    round: int


class RowsUsed(Event, frozen=True):
    """Every row was played and nobody solved: a draw."""

    type = "rows_used"
    rows: int


EVENTS: tuple[type[Event], ...] = (*FLOW_EVENTS, LogikRematch, Started, Submitted, Revealed, BothSolved,
                                   Solved, RowsUsed)
