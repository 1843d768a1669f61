"""Whom a Kegel club trusts with its season start and member merges besides its chat admins.

A scorer earns it by keeping the score of real club evenings, not by one cheap game of two made-up
names: only completed games with at least `THROWS` throws count, and at least `GAMES` of them.
Pure: the bot hands in the club's completed games' final states."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

GAMES = 3  # completed games a scorer must have kept …
THROWS = 6  # … each with at least this many throws (three players over two digits)


def counted(state: Any) -> bool:
    """A completed game long enough to count towards its scorer's trust."""
    return len(state.throws) >= THROWS


def trusted(user_id: str, states: Iterable[Any]) -> bool:
    """Whether `user_id` kept the score of enough counted games of the club (`states`: its completed games)."""
    return sum(1 for s in states if s.scorer.user_id == user_id and counted(s)) >= GAMES
