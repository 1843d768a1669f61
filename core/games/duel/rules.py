"""Zahlenraten 1A2B duel ("Zu zweit"): two secrets set privately, guesses in the group.

Phases: CHALLENGE → SECRETS → PLAYING → FINISHED (docs/rules.md §1, "Duel").
"""

from __future__ import annotations

import copy
from collections.abc import Sequence
from dataclasses import dataclass, field

from core.codes import Attempt, CodeRules
from core.errors import GameError
from core.games import challenge
from core.games.actions import Accept, Cancel, Decline, Guess, Resign, SetSecret, Timeout  # noqa: F401 - its actions
from core.games.base import Ctx, Event, Player, ResultRow, button, repeats_text, say, to_actor
from core.games.base import is_over as is_over  # is_over, last_activity: the Rules protocol
from core.games.base import last_activity as last_activity
from core.games.challenge import (
    Challenged,
    ChallengeState,
    Finished,
    SecretSet,
    SecretsWanted,
    other,
    player,
    seat,
    unplayed_offer,
)
from core.games.challenge import Phase as Phase
from core.games.challenge import awaiting_secret as awaiting_secret
from core.games.challenge import players as players  # players, seated: the Rules protocol (core/games/base.py)
from core.games.challenge import seated as seated
from core.games.duel.events import EVENTS as EVENTS
from core.games.duel.events import Draw, DuelRematch, Guessed, LastChance, Started, Won
from core.messages import Chat, Message, Text
from core.scoring import Mark, bulls_cows, marks

kind = "duel"
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


state_type = State


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
            return _finish(s, "draw", None, [*events, Draw(both_cracked=True)])
        starter = other(s, seat).user_id  # this was the second player's guess
        return _finish(s, "win", starter, [*events, Won(starter)])
    if cracked:
        return _finish(s, "win", seat, [*events, Won(seat)])
    if all(len(v) >= MAX_GUESSES for v in s.attempts.values()):
        return _finish(s, "draw", None, [*events, Draw(both_cracked=False)])
    s.turn = s.starter
    return s, events


def _finish(s: State, outcome: str, winner: str | None, events: list[Event]) -> tuple[State, list[Event]]:
    s.turn = None
    return challenge.finish(s, outcome, winner, events)


def results(state: State) -> list[ResultRow]:
    """Stats lines: only games that got past the challenge count."""
    return challenge.results(state, lambda uid: len(state.attempts.get(uid, [])))


# ---------------------------------------------------------------- capabilities (core/games/<kind>/game.py)

def secret_prompt(game_id: int, state: State, user_id: str) -> Text | None:
    """The private prompt when this game waits for the user's secret, else None."""
    if not awaiting_secret(state, user_id):
        return None
    return Text("duel.secret_prompt_again", {"game": game_id, "length": state.rules.length,
                                             "repeats": repeats_text(state.rules.repeats),
                                             "opponent": other(state, user_id).name})


def cancel_action(state: State, user_id: str) -> object:
    return challenge.cancel_action(state, GameError("cancel_running"))


def follow_up(old: State, verb: str, user_id: str, ctx: Ctx) -> tuple[State, list[Event]] | None:
    return challenge.follow_up(old, verb, user_id, ctx, rematch)


# ---------------------------------------------------------------- presenter

SQUARES = {Mark.HIT: "🟩", Mark.NEAR: "🟨", Mark.MISS: "⬜"}


def score_line(state: State) -> Text:
    """The running match score "Alice 2 – 1 – 0 Bob" (wins–draws–wins)."""
    return challenge.score_line(state, "duel.match_score")


def reveal_lines(state: State) -> str:
    """Every attempt, digit by digit, against the secret it aimed at (🟩🟨⬜)."""
    lines = []
    for p in players(state):
        target = state.secrets.get(other(state, p.user_id).user_id)
        for i, att in enumerate(state.attempts.get(p.user_id, []), 1):
            squares = "".join(SQUARES[m] for m in marks(target, att.code)) if target else ""
            lines.append(f"{p.name} #{i}: {att.code} {squares} {att.a}A{att.b}B")
    return "\n".join(lines)


def board(game_id: int, state: State, chat: Chat) -> Message:
    """The current state for /board: phase, whose turn, every attempt so far (never a secret)."""
    rows = []
    for p in players(state):
        for i, att in enumerate(state.attempts.get(p.user_id, []), 1):
            rows.append(f"{p.name} #{i}: {att.code} → {att.a}A{att.b}B")
    if state.phase is Phase.PLAYING:
        status = Text("duel.board_turn", {"name": player(state, state.turn or "").name})
    elif state.phase is Phase.SECRETS:
        waiting = ", ".join(p.name for p in players(state) if p.user_id not in state.secrets)
        status = Text("duel.board_secrets", {"names": waiting})
    else:
        status = Text("duel.board_challenge", {"name": state.challenger.name})
    return say(chat, "duel.board", game=game_id, length=state.rules.length,
               repeats=repeats_text(state.rules.repeats), status=status,
               rows="\n".join(rows) or "—", score=score_line(state))


def present(game_id: int, state: State, events: Sequence[Event], chat: Chat) -> list[Message]:
    out: list[Message] = []
    name = {p.user_id: p.name for p in players(state)}
    challenged = {"length": state.rules.length, "repeats": repeats_text(state.rules.repeats)}
    for ev in events:
        flow = challenge.flow_message(game_id, state, ev, chat, "duel", challenged)
        if flow is not None:
            out.append(flow)
            continue
        match ev:
            case SecretsWanted():
                out.extend(challenge.secret_prompts(
                    game_id, state, chat, "duel", Text("duel.secret_input", {"length": state.rules.length}),
                    lambda p: challenged))
            case SecretSet(by=by):
                p = player(state, by)
                out.append(say(to_actor(chat, p), "duel.secret_locked", code=state.secrets[p.user_id],
                               game=game_id))
                out.append(say(chat, "duel.secret_ready", name=p.name))
            case Started(starter=starter, lot=lot):
                key = "duel.started" if lot else "duel.started_rematch"
                out.append(say(chat, key, starter=name[starter],
                               second=other(state, starter).name, max=MAX_GUESSES).notify(starter))
            case Guessed(by=by, code=code, a=a, b=b, n=n):
                nxt = state.turn if state.phase is Phase.PLAYING else None
                key = "duel.guess_next" if nxt and not state.last_chance else "duel.guess"
                out.append(say(chat, key, name=name[by], n=n, code=code, a=a, b=b,
                               next=name.get(nxt or "", "")).notify(*([nxt] if nxt and not state.last_chance else [])))
            case LastChance(for_=second):
                out.append(say(chat, "duel.last_chance", cracker=other(state, second).name,
                               name=name[second]).notify(second))
            case Finished(outcome=outcome) if outcome not in challenge.UNPLAYED:
                out.append(_reveal(game_id, state, chat))
    return out


def _reveal(game_id: int, state: State, chat: Chat) -> Message:
    secrets = ", ".join(f"{p.name}: {state.secrets[p.user_id]}" for p in players(state)
                        if p.user_id in state.secrets)
    if state.outcome in ("win", "resigned") or (state.outcome == "timeout" and state.winner):
        result = Text("duel.result_win", {"name": player(state, state.winner or "").name})
    elif state.outcome == "draw":
        result = Text("duel.result_draw")
    else:
        result = Text("duel.result_timeout")
    buttons = ((button(game_id, "rematch", "button.rematch", settles=True),),) if state.opponent else ()
    return say(chat, "duel.reveal", buttons, result=result, secrets=secrets or "—",
               lines=reveal_lines(state) or "—", score=score_line(state))
