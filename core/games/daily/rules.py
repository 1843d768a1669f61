"""The daily puzzle's rules (docs/daily.md): its puzzles, one player's attempt as a state, its moves.

One code per chat, day and puzzle, cracked by each player alone and privately, with a fixed number
of attempts. One game per player and day: the state is that player's attempt at the chat's code of
the day. The code is drawn once per chat, day and puzzle by the App (with its injected random
source, `draw`) and stored; every player's attempt copies it. The day itself is the App's to compute
(the chat's time zone, the injected clock); here it is only a label. What the player and the group
see is core/games/daily/presenter.py's.

Puzzles (docs/rules.md): `1a2b` — 4 different digits, answers xAyB (§1); `logik` — 5 pegs of 8
colours, repeats allowed, black and white pegs (§2); `words` — a 5-letter word of the chat's
language from the shipped word lists, answered with bull and cow counts (§3, the counts variant).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from datetime import date
from enum import StrEnum
from typing import ClassVar

from core.codes import CodeRules
from core.errors import GameError
from core.games.actions import GiveUp, Guess, Timeout
from core.games.base import Ctx, Event, Player, ResultRow, moving
from core.games.daily.events import DailyGuessed, DailyOver, DailyStarted
from core.lexicon import ALPHABETS, Lexicon, is_word_of, normalise
from core.pegs import PEGS, SEPARATORS, parse_row
from core.scoring import bulls_cows


class Puzzle(StrEnum):
    """The daily puzzle's variants. Their values are the daily's own names, written once here: stored in
    every attempt and daily table row, carried by the play buttons and deep links already posted, and
    typed as `/daily logik`; two of them read like another game's kind but name a puzzle of this one
    (tests/test_import_graph.py `KIND_LITERALS`)."""

    DIGITS = "1a2b"  # 4 different digits, answered xAyB
    COLOURS = "logik"  # 5 pegs of 8 colours, answered with black and white pegs
    LETTERS = "words"  # a 5-letter word of the chat's language, answered with bull and cow counts


PUZZLES: tuple[str, ...] = tuple(p.value for p in Puzzle)
DEFAULT_PUZZLE: str = Puzzle.DIGITS.value
MAX_ATTEMPTS: dict[str, int] = dict.fromkeys(PUZZLES, 10)
WORD_LENGTH = 5
DIGITS = CodeRules(4, repeats=False)
QUIT_COMMANDS = ("giveup", "resign")


class Phase(StrEnum):
    PLAYING = "playing"
    FINISHED = "finished"


class DailyOutcome(StrEnum):
    """How an attempt ended (stored with its state and in `daily_plays.outcome`)."""

    SOLVED = "solved"
    FAILED = "failed"  # the last attempt missed
    GAVE_UP = "gave_up"
    ABANDONED = "abandoned"  # timed out: idle, or still running after its day closed


@dataclass
class Row:
    code: str
    a: int
    b: int


@dataclass
class State:
    """One player's attempt at a chat's daily puzzle. `secret` never reaches the group (a finished
    attempt shows its player the code privately; others in the chat may still be playing it)."""

    never_revealed: ClassVar[bool] = True  # tests/leakscan.py: an attempt over does not make the code public

    puzzle: str
    day: str
    player: Player
    secret: str
    lang: str = "en"  # words: the dictionary's language
    letters: dict[str, str] = field(default_factory=dict)  # logik: colour initial → colour digit
    max_attempts: int = 10
    rows: list[Row] = field(default_factory=list)
    phase: Phase = Phase.PLAYING
    outcome: DailyOutcome | None = None
    updated: float = 0.0
    closes: float = 0.0  # when the attempt times out (some hours after its day ends); 0: never (older attempts)


def day_of(state: State) -> date:
    """The attempt's day as a date, so that every reader sees it in their own date format."""
    return date.fromisoformat(state.day)


def length_of(puzzle: str) -> int:
    return {Puzzle.DIGITS: DIGITS.length, Puzzle.COLOURS: PEGS, Puzzle.LETTERS: WORD_LENGTH}[Puzzle(puzzle)]


def draw(puzzle: str, lang: str, ctx: Ctx) -> str:
    """A fresh code for a chat's day, from the injected random source (never from the date)."""
    if puzzle == Puzzle.DIGITS:
        return DIGITS.random_code(ctx.rng)
    if puzzle == Puzzle.COLOURS:
        return "".join(ctx.rng.choice("12345678") for _ in range(PEGS))
    pool = [w for w in _lexicon(ctx, lang).common if len(w) == WORD_LENGTH]
    if not pool:
        raise GameError("words.no_dictionary")
    return ctx.rng.choice(pool)


def _lexicon(ctx: Ctx, lang: str) -> Lexicon:
    if ctx.lexicon is None or lang not in ALPHABETS:
        raise GameError("words.no_dictionary")
    lex: Lexicon = ctx.lexicon(lang)
    return lex


def new(puzzle: str, day: str, player: Player, secret: str, ctx: Ctx, lang: str = "en",
        letters: Mapping[str, str] | None = None, closes: float = 0.0) -> tuple[State, list[Event]]:
    """A player's attempt at the day's code; `closes`: when it times out (the bot knows the day's end)."""
    if puzzle not in PUZZLES:
        raise GameError("daily.unknown", puzzle=puzzle[:20], puzzles=", ".join(PUZZLES))
    state = State(puzzle, day, player, secret, lang, dict(letters or {}), MAX_ATTEMPTS[puzzle], updated=ctx.now,
                  closes=closes)
    return state, [DailyStarted(puzzle, day)]


def _read(s: State, text: str, ctx: Ctx) -> str:
    """The guess as the puzzle's code, else the usual coded refusal."""
    if s.puzzle == Puzzle.DIGITS:
        return DIGITS.validate(text)
    if s.puzzle == Puzzle.COLOURS:
        return parse_row(text, s.letters)
    word = normalise(text, s.lang)
    if not word.isalpha():
        raise GameError("words.not_a_word", word=word[:20])
    if len(word) != WORD_LENGTH:
        raise GameError("words.length", given=len(word), length=WORD_LENGTH, n=WORD_LENGTH)
    if not is_word_of(word, s.lang) or not _lexicon(ctx, s.lang).knows(word):
        raise GameError("daily.unknown_word", word=word[:20])
    return word


def _finish(s: State, outcome: DailyOutcome) -> DailyOver:
    s.phase, s.outcome = Phase.FINISHED, outcome
    return DailyOver(len(s.rows))


def apply(state: State, action: object, actor: str | None, ctx: Ctx) -> tuple[State, list[Event]]:
    """A guess (refused, costing nothing, when invalid or guessed before), giving up, or timing out."""
    s = moving(state, ctx)
    if actor is not None and actor != s.player.user_id:
        raise GameError("not_a_player")
    match action:
        case Guess(code=text):
            code = _read(s, text, ctx)
            if any(r.code == code for r in s.rows):
                raise GameError("already_guessed", code=code)
            a, b = bulls_cows(s.secret, code)
            s.rows.append(Row(code, a, b))
            events: list[Event] = [DailyGuessed(len(s.rows), a, b)]
            if a == length_of(s.puzzle):
                events.append(_finish(s, DailyOutcome.SOLVED))
            elif len(s.rows) >= s.max_attempts:
                events.append(_finish(s, DailyOutcome.FAILED))
            return s, events
        case GiveUp():
            return s, [_finish(s, DailyOutcome.GAVE_UP)]
        case Timeout():
            return s, [_finish(s, DailyOutcome.ABANDONED)]
    raise GameError("not_now")


def players(state: State) -> list[Player]:
    """The attempt's one player (seated nowhere in the group: bot/games/daily/attempt.py)."""
    return [state.player]


def results(state: State) -> list[ResultRow]:
    """None in the general statistics (the daily keeps its own table: streaks, attempts)."""
    return []


def closed(state: State, now: float) -> bool:
    """A running attempt past its closing time (one opened at 23:59 cannot be finished days later)."""
    return state.phase is Phase.PLAYING and 0 < state.closes <= now


def due_action(state: State, now: float) -> Timeout | None:
    """An attempt past its closing time times out before any move reaches it."""
    return Timeout() if closed(state, now) else None


def awaits(state: State, user_id: str) -> bool:
    """Whether the attempt waits for this user's private input (a guess): its running attempt's player."""
    return state.phase is Phase.PLAYING and user_id == state.player.user_id


def secret_action(text: str | None) -> Guess | None:
    """Its player's private input is a guess (no random one)."""
    return None if text is None else Guess(text)


def accepts_text(state: State, text: str) -> bool:
    """A row of colour initials, or one word of the puzzle's length (digit runs are routed anyway)."""
    t = text.strip()
    if state.puzzle == Puzzle.COLOURS:
        raw = "".join(ch for ch in t.lower() if ch not in SEPARATORS)
        return len(raw) == PEGS and all(ch in state.letters or ch in "12345678" for ch in raw)
    return state.puzzle == Puzzle.LETTERS and t.isalpha() and len(t) == WORD_LENGTH


def quit_action(state: State, user_id: str, command: str) -> GiveUp | None:
    return GiveUp() if command in QUIT_COMMANDS else None
