"""Zahlenraten 1A2B, practice alone ("Allein üben"): the bot hides a code, one player cracks it. The
rules and the state machine; the presenter is core/games/practice/presenter.py, the game object
core/games/practice/game.py."""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import StrEnum

from core.codes import Attempt, CodeRules
from core.errors import GameError
from core.games.actions import GiveUp, Guess, Timeout
from core.games.base import Ctx, Event, Outcome, Player, ResultRow, moving
from core.games.practice.events import Cracked, GaveUp, Guessed, Started, TimedOut
from core.scoring import bulls_cows

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


class PracticeOutcome(StrEnum):
    """How a practice game ended (the state's `outcome`, stored as its value)."""

    CRACKED = "cracked"
    GAVE_UP = "gave_up"
    ABANDONED = "abandoned"  # timed out


@dataclass
class State:
    rules: CodeRules
    player: Player
    secret: str
    phase: Phase = Phase.PLAYING
    attempts: list[Attempt] = field(default_factory=list)
    outcome: PracticeOutcome | None = None
    assisted: bool = False
    updated: float = 0.0


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
                s.phase, s.outcome = Phase.FINISHED, PracticeOutcome.CRACKED
                earned = None if s.assisted else rating(s.rules, len(s.attempts))  # hints earn no rating
                events.append(Cracked(len(s.attempts), earned))
            return s, events
        case GiveUp():
            s.phase, s.outcome = Phase.FINISHED, PracticeOutcome.GAVE_UP
            return s, [GaveUp(s.secret, len(s.attempts))]
        case Timeout():
            s.phase, s.outcome = Phase.FINISHED, PracticeOutcome.ABANDONED
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


def code_rules(state: State) -> tuple[int, bool]:
    """The code length and repeats recorded with the results."""
    return state.rules.length, state.rules.repeats


def results(state: State) -> list[ResultRow]:
    p = state.player
    n = len(state.attempts)
    if state.outcome == PracticeOutcome.CRACKED:
        r = None if state.assisted else rating(state.rules, n)
        return [ResultRow(p.user_id, p.name, Outcome.WIN, n, r)]
    gave_up = state.outcome == PracticeOutcome.GAVE_UP
    return [ResultRow(p.user_id, p.name, Outcome.GAVE_UP if gave_up else Outcome.ABANDONED, n)]
