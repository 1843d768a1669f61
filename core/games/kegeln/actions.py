"""Hausnummern's actions: what the scorer (or a chat admin, `admin`: the App says the actor is one) does."""

from __future__ import annotations

from dataclasses import dataclass

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


def pressed(verb: str) -> object | None:
    """A button's verb: `p<position>` places the pending pins, `w<entry>` names the winner of a tie, `undo`
    (None: no verb of this game, a stale button)."""
    if verb == "undo":
        return Undo()
    if verb[:1] in ("p", "w") and verb[1:].isdecimal():
        n = int(verb[1:])
        return Place(n) if verb[0] == "p" else Decide(n)
    return None
