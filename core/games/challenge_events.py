"""The events of the two-player challenge flow (core/games/challenge.py) that the 1A2B duel and Logik
share: the challenge and its answers, the secrets, /resign, the timeout, the end (`ChallengeOutcome`),
the bot's level."""

from __future__ import annotations

from enum import StrEnum

from core.games.base import Event


class ChallengeOutcome(StrEnum):
    """How a challenge game ended (the state's `outcome`, the `Finished` event's; stored as its value)."""

    WIN = "win"
    DRAW = "draw"
    RESIGNED = "resigned"
    TIMEOUT = "timeout"  # time ran out while the game ran
    DECLINED = "declined"
    CANCELLED = "cancelled"  # the challenger withdrew
    EXPIRED = "expired"  # nobody answered the challenge in time


# how a challenge ends that nobody accepted
UNPLAYED = frozenset({ChallengeOutcome.DECLINED, ChallengeOutcome.CANCELLED, ChallengeOutcome.EXPIRED})


class Challenged(Event, frozen=True):
    """A challenge was made (the state names who challenged whom)."""

    type = "challenged"


class Rematch(Event, frozen=True):
    """A rematch was offered by `by`; each game adds who opens it (`roles`)."""

    type = "rematch"
    by: str

    def roles(self) -> dict[str, str]:
        """The user ids the offer names besides its offerer, by the parameter of the game's text."""
        return {}


class Accepted(Event, frozen=True):
    type = "accepted"
    by: str


class SecretsWanted(Event, frozen=True):
    """Both players are asked privately for their secrets."""

    type = "secrets_wanted"


class SecretSet(Event, frozen=True):
    type = "secret_set"
    by: str
    random: bool


class SecretSeen(Event, frozen=True):
    """The secret `by` typed in the group stayed there for all to see (the bot could not delete it):
    that code can no longer be their secret."""

    type = "secret_seen"
    by: str


class Declined(Event, frozen=True):
    type = "declined"
    by: str


class Cancelled(Event, frozen=True):
    """The challenger withdrew the challenge."""

    type = "cancelled"
    by: str


class Resigned(Event, frozen=True):
    type = "resigned"
    by: str


class TimedOut(Event, frozen=True):
    """Time ran out: `idle` is who was to move (None: nobody answered the challenge, or no turn); the
    state's `winner` is the other player when exactly one owed the move (`owing`)."""

    type = "timed_out"
    idle: str | list[str] | None  # the duel's player to move; Logik's players whose row was missing


class Finished(Event, frozen=True):
    """The game ended: how, and who won (None: nobody)."""

    type = "finished"
    outcome: ChallengeOutcome
    winner: str | None


class BotLevel(Event, frozen=True):
    """The computer opponent's level, logged by the App before a duel against it (read back for rematches)."""

    type = "bot"
    level: str


FLOW_EVENTS: tuple[type[Event], ...] = (Challenged, Accepted, SecretsWanted, SecretSet, SecretSeen, Declined,
                                        Cancelled, Resigned, TimedOut, Finished, BotLevel)
