"""What the App needs from a store, whatever the database behind it."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any


@dataclass(frozen=True)
class GameRow:
    """A stored game: where it runs, which kind, its JSON state, and its version for compare-and-set."""

    id: int
    platform: str
    chat_id: str
    private: bool
    kind: str
    state: dict[str, Any]
    over: bool
    version: int


@dataclass(frozen=True)
class NewResult:
    """A player's result row, written in the same transaction as the game's last move."""

    user_id: str
    name: str
    outcome: str
    attempts: int | None
    length: int | None
    repeats: bool | None
    rating: str | None
    side: str | None = None  # "white" | "black" where the game records sides (Logik)


@dataclass(frozen=True)
class StatLine:
    kind: str
    games: int
    wins: int
    draws: int
    losses: int
    abandoned: int
    gave_up: int


class SeatTaken(Exception):
    """The player already sits in a running game in that chat."""

    def __init__(self, user_id: str) -> None:
        super().__init__(user_id)
        self.user_id = user_id


class Duplicate(Exception):
    """The platform delivered this update before and its move is already stored."""


class Conflict(Exception):
    """The game changed since it was loaded (another handler or process won the race)."""


class StoreUnavailable(Exception):
    """The database could not take the write (busy/locked, disk full, I/O error); nothing of it was
    stored. `reason` is "busy", "full" or "error", for a clear reply."""

    def __init__(self, reason: str, detail: str) -> None:
        super().__init__(f"{reason}: {detail}")
        self.reason = reason
