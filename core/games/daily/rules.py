"""The daily puzzle (docs/daily.md): one code per chat, day and puzzle, cracked by each player alone
and privately, with a fixed number of attempts; the group sees only a spoiler-free grid of marks.

One game per player and day: the state is that player's attempt at the chat's code of the day. The
code is drawn once per chat, day and puzzle by the App (with its injected random source, `draw`) and
stored; every player's attempt copies it. The day itself is the App's to compute (the chat's time
zone, the injected clock); here it is only a label.

Puzzles (docs/rules.md): `1a2b` — 4 different digits, answers xAyB (§1); `logik` — 5 pegs of 8
colours, repeats allowed, black and white pegs (§2); `words` — a 5-letter word of the chat's
language from the shipped word lists, answered with bull and cow counts (§3, the counts variant).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from datetime import date
from enum import StrEnum
from typing import Any, ClassVar

from core.codes import CodeRules
from core.errors import GameError
from core.games.actions import GiveUp, Guess, Timeout
from core.games.base import Ctx, Event, Player, ResultRow, moving, to_actor
from core.games.base import is_over as is_over  # is_over, last_activity: the Rules protocol
from core.games.base import last_activity as last_activity
from core.games.daily.events import EVENTS as EVENTS
from core.games.daily.events import DailyGuessed, DailyOver, DailyStarted
from core.lexicon import ALPHABETS, Lexicon, is_word_of, normalise
from core.messages import Actor, Button, Chat, Message, Text
from core.pegs import BY_NUMBER, PEGS, SEPARATORS, legend, parse_row
from core.scoring import bulls_cows

kind = "daily"

PUZZLES = ("1a2b", "logik", "words")
DEFAULT_PUZZLE = "1a2b"
MAX_ATTEMPTS: dict[str, int] = {"1a2b": 10, "logik": 10, "words": 10}
WORD_LENGTH = 5
DIGITS = CodeRules(4, repeats=False)
GAME_KEYS = {"1a2b": "daily.game.digits", "logik": "daily.game.logik", "words": "daily.game.words"}
PROMPT_KEYS = {"1a2b": "daily.prompt_digits", "logik": "daily.prompt_logik", "words": "daily.prompt_words"}
OVER_KEYS = {"solved": "daily.over_solved", "failed": "daily.over_failed", "gave_up": "daily.over_gave_up",
             "abandoned": "daily.over_abandoned"}
SECRET_KEYS = {"1a2b": "daily.secret.digits", "logik": "daily.secret.logik", "words": "daily.secret.words"}

# The spoiler-free marks: one row per guess, its hits first, then the near ones, then the misses —
# counts only, like the answers themselves (they say nothing about which position is which).
HIT, NEAR, MISS = "🟩", "🟨", "⬛"


def day_of(state: State) -> date:
    """The attempt's day as a date, so that every reader sees it in their own date format."""
    return date.fromisoformat(state.day)


def grid_row(length: int, a: int, b: int) -> str:
    return HIT * a + NEAR * b + MISS * (length - a - b)


def length_of(puzzle: str) -> int:
    return {"1a2b": DIGITS.length, "logik": PEGS, "words": WORD_LENGTH}[puzzle]


def draw(puzzle: str, lang: str, ctx: Ctx) -> str:
    """A fresh code for a chat's day, from the injected random source (never from the date)."""
    if puzzle == "1a2b":
        return DIGITS.random_code(ctx.rng)
    if puzzle == "logik":
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


class Phase(StrEnum):
    PLAYING = "playing"
    FINISHED = "finished"


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
    outcome: str | None = None  # "solved" | "failed" | "gave_up" | "abandoned"
    updated: float = 0.0
    closes: float = 0.0  # when the attempt times out (some hours after its day ends); 0: never (older attempts)


state_type = State


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
    if s.puzzle == "1a2b":
        return DIGITS.validate(text)
    if s.puzzle == "logik":
        return parse_row(text, s.letters)
    word = normalise(text, s.lang)
    if not word.isalpha():
        raise GameError("words.not_a_word", word=word[:20])
    if len(word) != WORD_LENGTH:
        raise GameError("words.length", given=len(word), length=WORD_LENGTH, n=WORD_LENGTH)
    if not is_word_of(word, s.lang) or not _lexicon(ctx, s.lang).knows(word):
        raise GameError("daily.unknown_word", word=word[:20])
    return word


def apply(state: State, action: object, actor: str | None, ctx: Ctx) -> tuple[State, list[Event]]:
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
            n = len(s.rows)
            events: list[Event] = [DailyGuessed(n, a, b)]
            if a == length_of(s.puzzle):
                s.phase, s.outcome = Phase.FINISHED, "solved"
                events.append(DailyOver(n))
            elif n >= s.max_attempts:
                s.phase, s.outcome = Phase.FINISHED, "failed"
                events.append(DailyOver(n))
            return s, events
        case GiveUp():
            s.phase, s.outcome = Phase.FINISHED, "gave_up"
            return s, [DailyOver(len(s.rows))]
        case Timeout():
            s.phase, s.outcome = Phase.FINISHED, "abandoned"
            return s, [DailyOver(len(s.rows))]
    raise GameError("not_now")


# ---------------------------------------------------------------- the App's hooks

def due_action(state: State, now: float) -> Timeout | None:
    """An attempt past its closing time times out before any move reaches it (one opened at 23:59
    cannot be finished days later)."""
    return Timeout() if state.phase is Phase.PLAYING and 0 < state.closes <= now else None


def secret_prompt(game_id: int, state: State, user_id: str) -> Text | None:
    """While the attempt runs, its player's private input is a guess (so it is routed from the
    private chat, and a guess typed in the group is deleted unseen)."""
    if state.phase is Phase.PLAYING and user_id == state.player.user_id:
        return prompt(state)
    return None


def secret_action(text: str | None) -> object | None:
    return None if text is None else Guess(text)


def accepts_text(state: State, text: str) -> bool:
    """A row of colour initials, or one word of the puzzle's length (digit runs are routed anyway)."""
    t = text.strip()
    if state.puzzle == "logik":
        raw = "".join(ch for ch in t.lower() if ch not in SEPARATORS)
        return len(raw) == PEGS and all(ch in state.letters or ch in "12345678" for ch in raw)
    return state.puzzle == "words" and t.isalpha() and len(t) == WORD_LENGTH


def quit_action(state: State, user_id: str, command: str) -> object | None:
    return GiveUp() if command in ("giveup", "resign") else None


def players(state: State) -> list[Player]:
    return [state.player]


def seated(state: State) -> list[Player]:
    return [state.player]


def results(state: State) -> list[ResultRow]:
    """None in the general statistics (the daily keeps its own table: streaks, attempts)."""
    return []


# ---------------------------------------------------------------- what players see

def grid(state: State) -> str:
    length = length_of(state.puzzle)
    return "\n".join(grid_row(length, r.a, r.b) for r in state.rows)


def score(state: State) -> str:
    """`4/10`, or `X/10` when not solved (Wordle's way of saying it)."""
    return f"{len(state.rows) if state.outcome == 'solved' else 'X'}/{state.max_attempts}"


def shown_code(state: State, code: str) -> Any:
    if state.puzzle == "logik":
        return "".join(BY_NUMBER[int(c)].symbol for c in code) + f" ({code})"
    return code.upper() if state.puzzle == "words" else code


def answer(state: State, row: Row) -> str:
    if state.puzzle == "logik":
        return f"{row.a}⚫ {row.b}⚪"
    return f"{row.a}A{row.b}B"


def prompt(state: State) -> Text:
    """How to guess, and what is left; a Logik daily with its colour legend (symbols, numbers, initials)."""
    params: dict[str, Any] = {"left": state.max_attempts - len(state.rows), "max": state.max_attempts,
                              "length": length_of(state.puzzle)}
    if state.puzzle == "logik":
        params["legend"] = legend()
    return Text(PROMPT_KEYS[state.puzzle], params)


def _private_rows(state: State) -> str:
    return "\n".join(f"#{i}: {shown_code(state, r.code)} → {answer(state, r)}" for i, r in enumerate(state.rows, 1))


def _guess_line(state: State, n: int) -> Text:
    row = state.rows[n - 1]
    return Text("daily.guess", {"n": n, "max": state.max_attempts, "code": shown_code(state, row.code),
                                "answer": answer(state, row), "row": grid_row(length_of(state.puzzle), row.a, row.b)})


def guess_buttons(game_id: int, state: State) -> tuple[tuple[Button, ...], ...]:
    """While the attempt runs: a button to send the next guess privately (a Discord modal; in a
    private chat it says that the next code typed there is for this attempt). It names the attempt,
    so only its player may use it (bot/routing.py `check_origin` and `secret_prompt`)."""
    if state.phase is not Phase.PLAYING:
        return ()
    return ((Button(Text("daily.button_guess"), f"g:{game_id}:secret", prompt=Text("daily.guess_prompt")),),)


def present(game_id: int, state: State, events: Sequence[Event], chat: Chat) -> list[Message]:
    """The player hears everything privately (ephemerally where the platform can: `only_for_actor`);
    the group only the spoiler-free result at the end. Each answer to a guess shows the player's
    rows so far, the newest last (a Discord ephemeral answer stands alone)."""
    me = to_actor(chat, state.player)
    game = Text(GAME_KEYS[state.puzzle])
    out: list[Message] = []
    for ev in events:
        match ev:
            case DailyStarted():
                out.append(Message(me, Text("daily.started", {"game": game, "day": day_of(state),
                                                              "prompt": prompt(state)}),
                                   guess_buttons(game_id, state), only_for_actor=True))
            case DailyGuessed(n=n):
                text = _guess_line(state, n)
                if n > 1:
                    text = Text("daily.so_far", {"rows": "\n".join(
                        f"#{i}/{state.max_attempts}: {shown_code(state, r.code)} → {answer(state, r)}  "
                        f"{grid_row(length_of(state.puzzle), r.a, r.b)}" for i, r in enumerate(state.rows[:n - 1], 1)),
                        "last": text})
                out.append(Message(me, text, guess_buttons(game_id, state) if n == len(state.rows) else (),
                                   only_for_actor=True))
            case DailyOver():
                code = shown_code(state, state.secret)  # solved: the code itself; else what the puzzle calls it
                out.append(Message(me, Text(OVER_KEYS[state.outcome or "abandoned"], {  # its day: maybe yesterday's
                    "game": game, "day": day_of(state), "n": len(state.rows), "code": code,
                    "secret": Text(SECRET_KEYS[state.puzzle], {"code": code, "game": game, "day": day_of(state)})}),
                    only_for_actor=True))
                result = "daily.result_solved" if state.outcome == "solved" else "daily.result_failed"
                out.append(Message(chat, Text(result, {
                    "name": state.player.name, "game": game, "day": day_of(state), "score": score(state),
                    "grid": grid(state) or "—"})))
    return out


def board(game_id: int, state: State, chat: Chat) -> Message:
    """/board: the player's own rows, privately (the group never sees them)."""
    me: Actor = to_actor(chat, state.player)
    return Message(me, Text("daily.board", {"game": Text(GAME_KEYS[state.puzzle]), "day": day_of(state),
                                            "rows": _private_rows(state) or "—", "prompt": prompt(state)}),
                   guess_buttons(game_id, state), only_for_actor=True)
