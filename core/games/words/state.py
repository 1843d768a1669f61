"""The word game's state (Бык-корова, docs/rules.md §3): its limits, phases, modes, options, the
tries and rounds of a match, the State, and the queries over it that rules and presenter share."""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import StrEnum

from core.errors import GameError
from core.games.base import Player
from core.games.words.events import ClassicAnswer
from core.lexicon import ALPHABETS, WORD_LENGTHS

LENGTHS = WORD_LENGTHS  # RULES §3: every length of the dictionary, 3–8 letters
DEFAULT_LENGTH = 5
DEFAULT_POINTS = 3
DEFAULT_TURN_SECONDS = 180
TURN_SECONDS = range(30, 24 * 3600 + 1)
MAX_PLAYERS = 12
GIVE_UP_PENALTY = 10  # two players: a round given up costs the guesser this many guesses more

LANGUAGES = tuple(ALPHABETS)
# The language names shown to players (autonyms). The four answers are catalog entries (`words.answer.*`).
AUTONYMS = {"en": "English", "de": "Deutsch", "ru": "русский", "bg": "български", "sv": "svenska"}


class Phase(StrEnum):
    LOBBY = "lobby"
    SETTING = "setting"
    GUESSING = "guessing"
    FINISHED = "finished"


class WordsOutcome(StrEnum):
    """How a word game ended (`State.outcome`, stored as its value)."""

    FINISHED = "finished"  # a group or two-player match played to its end
    CANCELLED = "cancelled"  # the lobby closed before /begin
    TIMEOUT = "timeout"  # the game's time ran out undecided: in the lobby, in solo practice
    SOLVED = "solved"  # solo practice: the word found
    GAVE_UP = "gave_up"  # solo practice: given up, or left


class Mode(StrEnum):
    """How the match ends. PAIR_*: the two-player variants (decided at /begin)."""

    POINTS = "points"  # first to `goal` points
    ROUNDS = "rounds"  # `goal` rounds, most points
    PAIR_ROUNDS = "pair_rounds"  # two players, an even number of rounds, fewer total guesses wins
    PAIR_LIMIT = "pair_limit"  # two players, whoever's total guesses reach `goal` loses
    SOLO = "solo"  # practice against the bot


@dataclass(frozen=True)
class Options:
    length: int = DEFAULT_LENGTH
    mode: Mode = Mode.POINTS  # as asked: POINTS, ROUNDS or PAIR_LIMIT ("limit N")
    goal: int = DEFAULT_POINTS
    counts: bool = False  # answers as bull and cow counts instead of classic
    strict: bool = True  # guesses and words must be in the dictionary
    lang: str = "en"
    turn_seconds: int = DEFAULT_TURN_SECONDS


@dataclass(frozen=True)
class Try:
    by: str
    word: str
    answer: ClassicAnswer
    bulls: int
    cows: int


@dataclass(frozen=True)
class Round:
    setter: str | None
    word: str
    solver: str | None  # None: abandoned
    guesses: int
    guesser: str | None = None  # two players: whose guesses these were


@dataclass
class State:
    opts: Options
    opener: Player
    players: list[Player] = field(default_factory=list)  # in the lot's order once begun
    phase: Phase = Phase.LOBBY
    mode: Mode = Mode.POINTS  # the mode actually played (decided at /begin)
    goal: int = DEFAULT_POINTS
    setter: str | None = None  # None in solo: the bot
    secret: str = ""
    turn: str | None = None
    turn_since: float = 0.0  # when the current guesser's (or setter's) time began
    reminded: float = -1.0  # the `turn_since` a reminder gave (`Reminded`): that turn's time runs out as a skip
    tries: list[Try] = field(default_factory=list)  # this round
    votes: list[str] = field(default_factory=list)  # to abandon this round
    points: dict[str, int] = field(default_factory=dict)
    counts: dict[str, int] = field(default_factory=dict)  # guesses made as guesser, over the match
    rounds: list[Round] = field(default_factory=list)
    left: list[str] = field(default_factory=list)
    outcome: WordsOutcome | None = None
    winners: list[str] = field(default_factory=list)
    loser: str | None = None  # PAIR_LIMIT: who reached the limit
    updated: float = 0.0
    seen: dict[str, list[str]] = field(default_factory=dict)  # setter → their words the group saw (exposed.py)


# ---------------------------------------------------------------- queries

def players(state: State) -> list[Player]:
    return list(state.players)


def seated(state: State) -> list[Player]:
    """Everyone who joined and has not left holds the chat seat."""
    if state.phase is Phase.FINISHED:
        return []
    return [p for p in state.players if p.user_id not in state.left]


def active(state: State) -> list[str]:
    return [p.user_id for p in state.players if p.user_id not in state.left]


def guessers(state: State) -> list[str]:
    return [u for u in active(state) if u != state.setter]


def player(state: State, user_id: str) -> Player:
    for p in state.players:
        if p.user_id == user_id:
            return p
    raise GameError("not_a_player")


def is_pair(state: State) -> bool:
    return state.mode in (Mode.PAIR_ROUNDS, Mode.PAIR_LIMIT)


def awaiting_word(state: State, user_id: str) -> bool:
    return state.phase is Phase.SETTING and state.setter == user_id


def played(s: State) -> bool:
    """Was a word ever set in the match? A match ended before that has no winner."""
    return bool(s.secret) or any(r.word for r in s.rounds)


def movers(state: State) -> set[str]:
    """The players who made a move in the match: a guess, or a word set for the others."""
    setters = {r.setter for r in state.rounds if r.setter and r.word}
    if state.setter and state.secret:
        setters.add(state.setter)
    return {u for u, n in state.counts.items() if n > 0} | {u for u in setters if u is not None}

