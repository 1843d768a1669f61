"""Hausnummern's rules: a new game, a move applied to the state, and who plays (the scorer)."""

from __future__ import annotations

from core.errors import GameError
from core.games.actions import Timeout
from core.games.base import Ctx, Event, Player, ResultRow, moving
from core.games.kegeln.actions import Cancel, Decide, HandOver, KegelnVerb, Pins, Place, Undo
from core.games.kegeln.events import (
    Cancelled,
    Decided,
    Finished,
    PinsWaiting,
    ScorerChanged,
    Started,
    Thrown,
    Tie,
    TimedOut,
    Undone,
)
from core.games.kegeln.options import Setup
from core.games.kegeln.presenter import pins_text
from core.games.kegeln.state import (
    POSITION_KEYS,
    Outcome,
    Phase,
    State,
    Throw,
    current,
    digit_value,
    free_positions,
    ranking,
    slots,
)
from core.messages import Text


def new(setup: Setup, scorer: Player, ctx: Ctx) -> tuple[State, list[Event]]:
    state = State(mode=setup.mode, digits=setup.digits, members=list(setup.members), scorer=scorer,
                  teams=setup.teams, started=ctx.now, updated=ctx.now)
    return state, [Started(scorer.user_id)]


def apply(state: State, action: object, actor: str | None, ctx: Ctx) -> tuple[State, list[Event]]:
    s = moving(state, ctx)
    if not isinstance(action, Timeout):
        _authorise(s, action, actor)
    match action:
        case Pins(text=text, position=position):
            if s.phase is not Phase.PLAYING:
                raise GameError("kegeln.tie_pending")
            if s.pending is not None:
                raise GameError("kegeln.place_first", name=_cur_name(s), pins=pins_text(s.pending))
            pins = _pins(text)
            who = _cur(s)
            if position is None:
                free = free_positions(s, who)
                if len(free) == 1:  # one place left: nothing to choose
                    return _place(s, who, pins, free[0], ctx)
                s.pending = pins
                return s, [PinsWaiting(who, pins)]
            return _place(s, who, pins, position, ctx)
        case Place(position=position):
            if s.phase is not Phase.PLAYING or s.pending is None:
                raise GameError("kegeln.no_pending")
            pins, s.pending = s.pending, None
            return _place(s, _cur(s), pins, position, ctx)
        case Undo():
            return _undo(s)
        case HandOver(to=to):
            if to.user_id == s.scorer.user_id:
                raise GameError("kegeln.already_scorer", name=to.name)
            old, s.scorer = s.scorer, to
            return s, [ScorerChanged(old.name, to.name)]
        case Decide(entry=entry):
            if s.phase is not Phase.TIE:
                raise GameError("kegeln.no_tie")
            if entry not in s.tied:
                raise GameError("kegeln.not_tied")
            s.winner, s.decided = entry, True
            return _finish(s, Outcome.DONE, [Decided(entry)])
        case Cancel():
            return _finish(s, Outcome.CANCELLED, [Cancelled()])
        case Timeout():
            return _finish(s, Outcome.ABANDONED, [TimedOut()])
    raise GameError("not_now")


def _authorise(state: State, action: object, actor: str | None) -> None:
    """Only the scorer (and chat admins) may change the game."""
    if actor is not None and actor == state.scorer.user_id:
        return
    if getattr(action, "admin", False):
        return
    raise GameError("kegeln.not_scorer", scorer=state.scorer.name)


def _cur(s: State) -> int:
    who = current(s)
    if who is None:
        raise GameError("kegeln.all_placed")
    return who


def _cur_name(s: State) -> str:
    who = current(s)
    return s.members[who].name if who is not None else ""


def _pins(text: str) -> int:
    t = text.strip()
    if not (t.isascii() and t.isdecimal()) or int(t) > 9:
        raise GameError("kegeln.bad_pins", given=t[:10])
    return int(t)


def _place(s: State, who: int, pins: int, position: int, ctx: Ctx) -> tuple[State, list[Event]]:
    if not 0 <= position < s.digits:
        raise GameError("kegeln.bad_position", digits=s.digits)
    if slots(s, who)[position] is not None:
        raise GameError("kegeln.position_taken", name=s.members[who].name, position=Text(POSITION_KEYS[position]))
    best = free_positions(s, who)
    s.throws.append(Throw(who, pins, position, ctx.now))
    events: list[Event] = [Thrown(who, pins, position, digit_value(s.mode, pins), best)]
    if current(s) is not None:
        return s, events
    return _complete(s, events)


def _complete(s: State, events: list[Event]) -> tuple[State, list[Event]]:
    """Every place is filled: a clear winner finishes the game; a tie waits for the scorer."""
    ranked = ranking(s)
    first = [e for place, e in ranked if place == 1]
    if len(first) > 1:
        s.phase, s.tied = Phase.TIE, first
        return s, [*events, Tie(first)]
    s.winner = first[0]
    return _finish(s, Outcome.DONE, events)


def _undo(s: State) -> tuple[State, list[Event]]:
    if s.pending is not None:
        pins, s.pending = s.pending, None
        return s, [Undone(_cur(s), pins, None)]
    if not s.throws:
        raise GameError("kegeln.nothing_to_undo")
    last = s.throws.pop()
    s.phase, s.tied, s.winner, s.decided = Phase.PLAYING, [], None, False
    return s, [Undone(last.member, last.pins, last.position)]


def _finish(s: State, outcome: Outcome, events: list[Event]) -> tuple[State, list[Event]]:
    s.phase, s.outcome, s.pending = Phase.FINISHED, outcome, None
    return s, [*events, Finished(outcome, s.winner)]


def players(state: State) -> list[Player]:
    """The chat user behind the game: the scorer (members are names, not accounts)."""
    return [state.scorer]


def button_action(state: State, verb: str, user_id: str, name: str, text: str | None) -> object | None:
    """A button's verb as the action it stands for (None: no verb of this game, a stale button); the
    rules judge who pressed it."""
    if verb == KegelnVerb.UNDO:
        return Undo()
    head, number = verb[:1], verb[1:]
    if not number.isdecimal():
        return None
    if head == KegelnVerb.PLACE:
        return Place(int(number))
    if head == KegelnVerb.PINS:
        return Pins(number)  # the rules judge it as typed pins: 0–9 only, only the scorer
    if head == KegelnVerb.WINNER:
        return Decide(int(number))
    return None


def cancel_action(state: State, user_id: str) -> Cancel:
    """/cancel: the rules judge who may (the scorer, an admin)."""
    return Cancel()


def results(state: State) -> list[ResultRow]:
    """Members are not chat accounts: their statistics live in the kegeln tables (see member_records)."""
    return []
