"""The word game's own actions (its moves): what a player's command, button, word or the App's clock asks
of `rules.apply`. The actions it shares with other games (Cancel, GiveUp — /giveup in solo — and Timeout) are
core/games/actions.py's."""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum


class WordsVerb(StrEnum):
    """The word game's own button verbs (`g:<id>:<verb>`, stored in sent messages as their values); the
    ones the App knows too (`random`, `again`, `secret`) are core's `Verb`."""

    JOIN = "join"
    LEAVE = "leave"  # no button offers it today; a press of an old one still leaves
    BEGIN = "begin"
    VOTE = "vote"


@dataclass(frozen=True)
class Join:
    name: str


@dataclass(frozen=True)
class Leave:
    pass


@dataclass(frozen=True)
class Begin:
    pass



@dataclass(frozen=True)
class SetWord:
    word: str | None  # None: the bot picks a common word


@dataclass(frozen=True)
class GuessWord:
    """A guesser's word: their plain message, or /guess."""

    word: str


@dataclass(frozen=True)
class Vote:
    """/giveup in a group game: a vote to abandon the round."""


@dataclass(frozen=True)
class Skip:
    """The current guesser's (or setter's) time is over; applied lazily by the App (`due_action`)."""
