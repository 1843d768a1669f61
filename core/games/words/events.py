"""The events of the word game (Wörter): the lobby, the rounds, the guesses, the end."""

from __future__ import annotations

from enum import StrEnum

from core.games.base import Event


class ClassicAnswer(StrEnum):
    """What a guessed word earns: classic rules (docs/rules.md) — the word, a bull, a cow, or nothing."""

    MISS = "miss"
    COW = "cow"
    BULL = "bull"
    GOT = "got"


class Lobby(Event, frozen=True):
    """A group game opened: players may join."""

    type = "lobby"


class Solo(Event, frozen=True):
    """A game alone against the bot's word."""

    type = "solo"


class Joined(Event, frozen=True):
    type = "joined"
    by: str
    n: int  # players now


class Left(Event, frozen=True):
    type = "left"
    by: str
    name: str
    n: int  # players still in


class Cancelled(Event, frozen=True):
    type = "cancelled"


class Begun(Event, frozen=True):
    type = "begun"
    setter: str


class NewRound(Event, frozen=True):
    """Round `n` begins: `setter` is asked privately for the word."""

    type = "round"
    n: int
    setter: str


class WordSet(Event, frozen=True):
    type = "word_set"
    by: str
    random: bool


class Guessing(Event, frozen=True):
    """The word is set: `turn` guesses first."""

    type = "guessing"
    turn: str


class Guessed(Event, frozen=True):
    type = "guessed"
    by: str
    word: str
    answer: ClassicAnswer
    bulls: int
    cows: int
    n: int  # tries in the round


class Solved(Event, frozen=True):
    type = "solved"
    by: str
    word: str
    n: int


class SoloSolved(Event, frozen=True):
    type = "solo_solved"
    n: int


class SoloGaveUp(Event, frozen=True):
    type = "solo_gave_up"
    word: str
    n: int


class Voted(Event, frozen=True):
    """`by` voted to give the word up: `votes` of `needed`."""

    type = "vote"
    by: str
    votes: int
    needed: int


class Abandoned(Event, frozen=True):
    """The round's word was given up (`left`: its setter left); two players: `guesser` pays `penalty`."""

    type = "abandoned"
    word: str
    setter: str
    left: bool
    guesser: str | None
    penalty: int


class LimitReached(Event, frozen=True):
    type = "limit_reached"
    by: str
    n: int


class Skipped(Event, frozen=True):
    """The guesser `by` let their turn run out: `turn` guesses now."""

    type = "skipped"
    by: str | None
    turn: str | None


class Reminded(Event, frozen=True):
    """The guesser `by` let their turn run out where the bot cannot read plain messages (Telegram's
    privacy mode): their word may never have arrived, so they are told how to guess and get another turn's time."""

    type = "reminded"
    by: str


class SetterSkipped(Event, frozen=True):
    """The setter `by` let the time to set a word run out: `setter` sets now."""

    type = "setter_skipped"
    by: str | None
    setter: str


class MatchOver(Event, frozen=True):
    type = "match_over"
    word: str  # the last word, where it is revealed ("" if not)


class TimedOut(Event, frozen=True):
    type = "timed_out"
    word: str


EVENTS: tuple[type[Event], ...] = (Lobby, Solo, Joined, Left, Cancelled, Begun, NewRound, WordSet, Guessing, Guessed,
                                   Solved, SoloSolved, SoloGaveUp, Voted, Abandoned, LimitReached, Skipped,
                                   Reminded, SetterSkipped, MatchOver, TimedOut)
