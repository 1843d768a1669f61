"""What the daily puzzle shows: the player's answers privately, the group's spoiler-free grid, the board.

The player hears everything privately (ephemerally where the platform can: `only_for_actor`); the
group only the result at the end, one row of marks per guess: its hits first, then the near ones,
then the misses — counts only, like the answers themselves (they say nothing about which position
is which)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from core.games.base import Event, Verb, button, to_actor
from core.games.daily.events import DailyGuessed, DailyOver, DailyStarted
from core.games.daily.rules import DailyOutcome, Phase, Puzzle, Row, State, awaits, day_of, length_of
from core.messages import Actor, Button, Chat, Message, Text
from core.pegs import BY_NUMBER, legend

GAME_KEYS: dict[str, str] = {Puzzle.DIGITS: "daily.game.digits", Puzzle.COLOURS: "daily.game.logik",
                             Puzzle.LETTERS: "daily.game.words"}
PROMPT_KEYS: dict[str, str] = {Puzzle.DIGITS: "daily.prompt_digits", Puzzle.COLOURS: "daily.prompt_logik",
                               Puzzle.LETTERS: "daily.prompt_words"}
OVER_KEYS = {DailyOutcome.SOLVED: "daily.over_solved", DailyOutcome.FAILED: "daily.over_failed",
             DailyOutcome.GAVE_UP: "daily.over_gave_up", DailyOutcome.ABANDONED: "daily.over_abandoned"}
SECRET_KEYS: dict[str, str] = {Puzzle.DIGITS: "daily.secret.digits", Puzzle.COLOURS: "daily.secret.logik",
                               Puzzle.LETTERS: "daily.secret.words"}

HIT, NEAR, MISS = "🟩", "🟨", "⬛"


def grid_row(length: int, a: int, b: int) -> str:
    return HIT * a + NEAR * b + MISS * (length - a - b)


def grid(state: State) -> str:
    length = length_of(state.puzzle)
    return "\n".join(grid_row(length, r.a, r.b) for r in state.rows)


def score(state: State) -> str:
    """`4/10`, or `X/10` when not solved (Wordle's way of saying it)."""
    return f"{len(state.rows) if state.outcome is DailyOutcome.SOLVED else 'X'}/{state.max_attempts}"


def shown_code(state: State, code: str) -> str:
    if state.puzzle == Puzzle.COLOURS:
        return "".join(BY_NUMBER[int(c)].symbol for c in code) + f" ({code})"
    return code.upper() if state.puzzle == Puzzle.LETTERS else code


def answer(state: State, row: Row) -> str:
    if state.puzzle == Puzzle.COLOURS:
        return f"{row.a}⚫ {row.b}⚪"
    return f"{row.a}A{row.b}B"


def prompt(state: State) -> Text:
    """How to guess, and what is left; a Logik daily with its colour legend (symbols, numbers, initials)."""
    params: dict[str, Any] = {"left": state.max_attempts - len(state.rows), "max": state.max_attempts,
                              "length": length_of(state.puzzle)}
    if state.puzzle == Puzzle.COLOURS:
        params["legend"] = legend()
    return Text(PROMPT_KEYS[state.puzzle], params)


def secret_prompt(game_id: int, state: State, user_id: str) -> Text | None:
    """While the attempt runs, its player's private input is a guess (so it is routed from the
    private chat, and a guess typed in the group is deleted unseen)."""
    return prompt(state) if awaits(state, user_id) else None


def _private_rows(state: State) -> str:
    return "\n".join(f"#{i}: {shown_code(state, r.code)} → {answer(state, r)}" for i, r in enumerate(state.rows, 1))


def _guess_line(state: State, n: int) -> Text:
    row = state.rows[n - 1]
    return Text("daily.guess", {"n": n, "max": state.max_attempts, "code": shown_code(state, row.code),
                                "answer": answer(state, row), "row": grid_row(length_of(state.puzzle), row.a, row.b)})


def guess_buttons(game_id: int, state: State) -> tuple[tuple[Button, ...], ...]:
    """While the attempt runs: a button to send the next guess privately (a Discord modal; in a
    private chat it says that the next code typed there is for this attempt). It names the attempt,
    so only its player may use it (bot/app/routing.py `check_origin` and `secret_prompt`)."""
    if state.phase is not Phase.PLAYING:
        return ()
    return ((button(game_id, Verb.SECRET, "daily.button_guess", prompt=Text("daily.guess_prompt")),),)


def present(game_id: int, state: State, events: Sequence[Event], chat: Chat) -> list[Message]:
    """The player hears everything privately; the group only the spoiler-free result at the end. Each
    answer to a guess shows the player's rows so far, the newest last (a Discord ephemeral answer
    stands alone)."""
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
                out.append(Message(me, Text(OVER_KEYS[state.outcome or DailyOutcome.ABANDONED], {  # maybe yesterday's
                    "game": game, "day": day_of(state), "n": len(state.rows), "code": code,
                    "secret": Text(SECRET_KEYS[state.puzzle], {"code": code, "game": game, "day": day_of(state)})}),
                    only_for_actor=True))
                solved = state.outcome is DailyOutcome.SOLVED
                out.append(Message(chat, Text("daily.result_solved" if solved else "daily.result_failed", {
                    "name": state.player.name, "game": game, "day": day_of(state), "score": score(state),
                    "grid": grid(state) or "—"})))
    return out


def board(game_id: int, state: State, chat: Chat) -> Message:
    """/board: the player's own rows, privately (the group never sees them)."""
    me: Actor = to_actor(chat, state.player)
    return Message(me, Text("daily.board", {"game": Text(GAME_KEYS[state.puzzle]), "day": day_of(state),
                                            "rows": _private_rows(state) or "—", "prompt": prompt(state)}),
                   guess_buttons(game_id, state), only_for_actor=True)
