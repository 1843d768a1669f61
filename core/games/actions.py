"""Actions several games share: answering a challenge, secrets, guesses, giving up, timeouts.

Each game accepts only the ones its `apply` knows; game-specific actions live in the game."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Accept:
    name: str  # the accepting player's display name (needed for open challenges)


@dataclass(frozen=True)
class Decline:
    pass


@dataclass(frozen=True)
class Cancel:
    pass


@dataclass(frozen=True)
class SetSecret:
    code: str | None  # None: a random code


@dataclass(frozen=True)
class Guess:
    code: str


@dataclass(frozen=True)
class GiveUp:
    pass


@dataclass(frozen=True)
class Resign:
    pass


@dataclass(frozen=True)
class Timeout:
    """Applied by the App to a game idle past the configured timeout."""


@dataclass(frozen=True)
class Exposed:
    """A secret typed where others saw it (a message the bot asked to delete but could not): the
    App tells the game, which must not let its typist keep that code as their secret."""

    code: str
