"""Zahlenraten 1A2B, practice alone ("Allein üben"): the bot hides a code, one player cracks it."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from enum import StrEnum

from core.codes import Attempt, CodeRules
from core.errors import GameError
from core.games.actions import GiveUp, Guess, Timeout
from core.games.base import Ctx, Event, Outcome, Player, ResultRow, button, moving, repeats_text, say
from core.games.base import is_over as is_over  # is_over, last_activity: the Rules protocol
from core.games.base import last_activity as last_activity
from core.games.practice.events import EVENTS as EVENTS
from core.games.practice.events import Cracked, GaveUp, Guessed, Started, TimedOut
from core.messages import Chat, Message, Text
from core.scoring import bulls_cows

kind = "practice"

# Rating bands (docs/rules.md §1): the most attempts for Genie, Profi, Solide; more is Geknackt.
RATING_BANDS: dict[int, tuple[int, int, int]] = {3: (4, 6, 9), 4: (5, 7, 10), 5: (6, 8, 12)}
RATINGS = ("Genie", "Profi", "Solide", "Geknackt")


def rating(rules: CodeRules, attempts: int) -> str:
    """The canonical rating key for a win in `attempts` (repeats: one more in each band)."""
    extra = 1 if rules.repeats else 0
    for name, limit in zip(RATINGS, RATING_BANDS[rules.length], strict=False):
        if attempts <= limit + extra:
            return name
    return RATINGS[-1]


class Phase(StrEnum):
    PLAYING = "playing"
    FINISHED = "finished"


@dataclass
class State:
    rules: CodeRules
    player: Player
    secret: str
    phase: Phase = Phase.PLAYING
    attempts: list[Attempt] = field(default_factory=list)
    outcome: str | None = None  # "cracked" | "gave_up" | "abandoned"
    assisted: bool = False
    updated: float = 0.0


state_type = State





def new(rules: CodeRules, player: Player, ctx: Ctx) -> tuple[State, list[Event]]:
    """A fresh practice game with a random code."""
    state = State(rules=rules, player=player, secret=rules.random_code(ctx.rng), updated=ctx.now)
    return state, [Started(rules.length, rules.repeats)]


def apply(state: State, action: object, actor: str | None, ctx: Ctx) -> tuple[State, list[Event]]:
    s = moving(state, ctx)
    if actor is not None and actor != s.player.user_id:
        raise GameError("not_a_player")
    match action:
        case Guess(code=text):
            code = s.rules.validate(text)
            if any(a.code == code for a in s.attempts):
                raise GameError("already_guessed", code=code)
            a, b = bulls_cows(s.secret, code)
            s.attempts.append(Attempt(code, a, b))
            events: list[Event] = [Guessed(code, a, b, len(s.attempts))]
            if a == s.rules.length:
                s.phase, s.outcome = Phase.FINISHED, "cracked"
                earned = None if s.assisted else rating(s.rules, len(s.attempts))  # hints earn no rating
                events.append(Cracked(len(s.attempts), earned))
            return s, events
        case GiveUp():
            s.phase, s.outcome = Phase.FINISHED, "gave_up"
            return s, [GaveUp(s.secret, len(s.attempts))]
        case Timeout():
            s.phase, s.outcome = Phase.FINISHED, "abandoned"
            return s, [TimedOut(s.secret)]
    raise GameError("not_now")


def text_action(state: State, user_id: str, text: str) -> Guess:
    return Guess(text)


def quit_action(state: State, user_id: str, command: str) -> object | None:
    return GiveUp() if command in ("giveup", "resign") else None


def follow_up(old: State, verb: str, user_id: str, ctx: Ctx) -> tuple[State, list[Event]] | None:
    """Play again: a fresh code with the same options."""
    if verb != "again" or user_id != old.player.user_id:
        return None
    return new(old.rules, old.player, ctx)


def players(state: State) -> list[Player]:
    return [state.player]


def seated(state: State) -> list[Player]:
    return [state.player]


def results(state: State) -> list[ResultRow]:
    p = state.player
    n = len(state.attempts)
    if state.outcome == "cracked":
        r = None if state.assisted else rating(state.rules, n)
        return [ResultRow(p.user_id, p.name, Outcome.WIN, n, r)]
    return [ResultRow(p.user_id, p.name, Outcome.GAVE_UP if state.outcome == "gave_up" else Outcome.ABANDONED, n)]


def present(game_id: int, state: State, events: Sequence[Event], chat: Chat) -> list[Message]:
    """Practice talks in the chat it was started in (a group or the private chat)."""
    name = state.player.name
    out: list[Message] = []
    for ev in events:
        match ev:
            case Started(length=length, repeats=repeats):
                out.append(say(chat, "practice.started", name=name, length=length, space=state.rules.space,
                               repeats=repeats_text(repeats)))
            case Guessed(code=code, a=a, b=b, n=n) if a < state.rules.length:
                out.append(say(chat, "practice.guess", name=name, n=n, code=code, a=a, b=b))
            case Cracked(n=n, rating=rating):
                again = ((button(game_id, "again", "button.again", settles=True),),)
                out.append(say(chat, "practice.cracked", again, name=name, n=n, code=state.secret,
                               rating=Text(f"rating.{rating}" if rating else "rating.assisted")))
            case GaveUp(secret=secret, n=n):
                out.append(say(chat, "practice.gave_up", name=name, code=secret, n=n))
            case TimedOut(secret=secret):
                out.append(say(chat, "practice.timed_out", name=name, code=secret))
    return out


def board(game_id: int, state: State, chat: Chat) -> Message:
    """The current state for /board: every attempt so far."""
    rows = "\n".join(f"#{i}: {a.code} → {a.a}A{a.b}B" for i, a in enumerate(state.attempts, 1))
    return say(chat, "practice.board", name=state.player.name, length=state.rules.length,
               repeats=repeats_text(state.rules.repeats), rows=rows or "—", n=len(state.attempts))
