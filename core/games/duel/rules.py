"""Zahlenraten 1A2B duel ("Zu zweit"): two secrets set privately, guesses in the group.

Phases: CHALLENGE → SECRETS → PLAYING → FINISHED (docs/rules.md §1, "Duel"). The rules and the
state machine; the presenter is core/games/duel/presenter.py, the game object core/games/duel/game.py.
"""

from __future__ import annotations

import copy
from dataclasses import dataclass, field

from core.codes import Attempt, CodeRules
from core.errors import GameError
from core.games import challenge
from core.games.base import Ctx, Event, Player, ResultRow
from core.games.challenge import ChallengeState, Phase, other, player, players, seat, unplayed_offer
from core.games.challenge_events import Challenged, ChallengeOutcome, SecretSet
from core.games.duel.events import Draw, DuelRematch, Guessed, LastChance, Started, Won
from core.scoring import bulls_cows

MAX_GUESSES = 30  # each; both at 30 without cracking → draw


@dataclass
class State(ChallengeState):
    rules: CodeRules
    challenger: Player
    opponent: Player | None  # None: an open challenge, anyone may accept
    starter: str | None = None  # fixed for a rematch, else drawn by lot at the start
    turn: str | None = None
    attempts: dict[str, list[Attempt]] = field(default_factory=dict)  # guesser id → attempts
    last_chance: bool = False  # the starter cracked; the second player has one guess left


def new(rules: CodeRules, challenger: Player, opponent: Player | None, ctx: Ctx) -> tuple[State, list[Event]]:
    """An open or targeted challenge."""
    if opponent is not None and opponent.user_id == challenger.user_id:
        raise GameError("self_challenge")
    state = State(rules=rules, challenger=challenger, opponent=opponent, updated=ctx.now)
    return state, [Challenged()]


def rematch(old: State, by: str, ctx: Ctx) -> tuple[State, list[Event]]:
    """Offer "Nochmal": same players and options, the other player starts, the match score
    carries on. The player who did not offer accepts it like a challenge."""
    if old.phase is not Phase.FINISHED or old.opponent is None or old.starter is None:
        raise GameError("no_rematch")
    seat(old, by)
    # an offer nobody played (declined, withdrawn, expired) is offered again as it was
    starter = old.starter if unplayed_offer(old) else other(old, old.starter).user_id
    state = State(rules=old.rules, challenger=old.challenger, opponent=old.opponent, starter=starter,
                  offered_by=by, match=copy.deepcopy(old.match), updated=ctx.now)
    return state, [DuelRematch(by, starter)]


def apply(state: State, action: object, actor: str | None, ctx: Ctx) -> tuple[State, list[Event]]:
    """The one entry for every move (core/games/challenge.py); raises GameError and leaves `state`
    untouched when invalid."""
    return challenge.apply(state, action, actor, ctx, set_secret=_set_secret, guess=_guess, end=_finish,
                           idle=lambda s: s.turn if s.phase is Phase.PLAYING else None)


def _set_secret(s: State, seat: str, text: str | None, ctx: Ctx) -> tuple[State, list[Event]]:
    challenge.need_secret(s, seat)
    code = s.rules.random_code(ctx.rng) if text is None else s.rules.validate(text)
    s.secrets[seat] = code
    events: list[Event] = [SecretSet(seat, text is None)]
    if len(s.secrets) == 2:
        lot = s.starter is None  # a rematch has its starter already: the other one than last time
        starter = ctx.rng.choice([p.user_id for p in players(s)]) if s.starter is None else s.starter
        s.phase, s.starter, s.turn = Phase.PLAYING, starter, starter
        s.attempts = {p.user_id: [] for p in players(s)}
        events.append(Started(starter, lot))
    return s, events


def _guess(s: State, seat: str, text: str) -> tuple[State, list[Event]]:
    challenge.need_playing(s, seat, lambda name: GameError("secret_missing", name=name))
    if s.turn != seat:
        raise GameError("not_your_turn", name=player(s, s.turn or "").name)
    code = s.rules.validate(text)
    mine = s.attempts[seat]
    if any(a.code == code for a in mine):
        raise GameError("already_guessed", code=code)
    target = s.secrets[other(s, seat).user_id]
    a, b = bulls_cows(target, code)
    mine.append(Attempt(code, a, b))
    cracked = a == s.rules.length
    events: list[Event] = [Guessed(seat, code, a, b, len(mine))]
    second = other(s, s.starter or "").user_id
    if seat == s.starter:
        if cracked:
            s.last_chance, s.turn = True, second
            return s, [*events, LastChance(second)]
        s.turn = second
        return s, events
    # the second player's guess closes the round
    if s.last_chance:
        if cracked:
            return _finish(s, ChallengeOutcome.DRAW, None, [*events, Draw(both_cracked=True)])
        starter = other(s, seat).user_id  # this was the second player's guess
        return _finish(s, ChallengeOutcome.WIN, starter, [*events, Won(starter)])
    if cracked:
        return _finish(s, ChallengeOutcome.WIN, seat, [*events, Won(seat)])
    if all(len(v) >= MAX_GUESSES for v in s.attempts.values()):
        return _finish(s, ChallengeOutcome.DRAW, None, [*events, Draw(both_cracked=False)])
    s.turn = s.starter
    return s, events


def _finish(s: State, outcome: ChallengeOutcome, winner: str | None, events: list[Event]) -> tuple[State, list[Event]]:
    s.turn = None
    return challenge.finish(s, outcome, winner, events)


def results(state: State) -> list[ResultRow]:
    """Stats lines: only games that got past the challenge count."""
    return challenge.results(state, lambda uid: len(state.attempts.get(uid, [])))


# ---------------------------------------------------------------- /cancel and the rematch (core/games/duel/game.py)

def cancel_action(state: State, user_id: str) -> object:
    return challenge.cancel_action(state, GameError("cancel_running"))


def follow_up(old: State, verb: str, user_id: str, ctx: Ctx) -> tuple[State, list[Event]] | None:
    return challenge.follow_up(old, verb, user_id, ctx, rematch)


def code_rules(state: State) -> tuple[int, bool]:
    """The code length and repeats recorded with the results."""
    return state.rules.length, state.rules.repeats
