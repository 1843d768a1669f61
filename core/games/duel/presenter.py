"""The 1A2B duel's presenter: the texts and buttons of each event, the board, the private prompt for
a secret (docs/zahlenraten.md)."""

from __future__ import annotations

from collections.abc import Sequence

from core.games.base import Event, button, repeats_text, say, to_actor
from core.games.challenge import Phase, awaiting_secret, other, player, players
from core.games.challenge_events import UNPLAYED, ChallengeOutcome, Finished, SecretSet, SecretsWanted
from core.games.challenge_presenter import flow_message, secret_prompts
from core.games.challenge_presenter import score_line as score_line_of
from core.games.duel.events import Guessed, LastChance, Started
from core.games.duel.rules import MAX_GUESSES, State
from core.messages import Chat, Message, Text
from core.scoring import Mark, marks

SQUARES = {Mark.HIT: "🟩", Mark.NEAR: "🟨", Mark.MISS: "⬜"}


def score_line(state: State) -> Text:
    """The running match score "Alice 2 – 1 – 0 Bob" (wins–draws–wins)."""
    return score_line_of(state, "duel.match_score")


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
        flow = flow_message(game_id, state, ev, chat, "duel", challenged)
        if flow is not None:
            out.append(flow)
            continue
        match ev:
            case SecretsWanted():
                out.extend(secret_prompts(
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
            case Finished(outcome=outcome) if outcome not in UNPLAYED:
                out.append(_reveal(game_id, state, chat))
    return out


def _reveal(game_id: int, state: State, chat: Chat) -> Message:
    secrets = ", ".join(f"{p.name}: {state.secrets[p.user_id]}" for p in players(state)
                        if p.user_id in state.secrets)
    if state.outcome in (ChallengeOutcome.WIN, ChallengeOutcome.RESIGNED) or (
            state.outcome == ChallengeOutcome.TIMEOUT and state.winner):
        result = Text("duel.result_win", {"name": player(state, state.winner or "").name})
    elif state.outcome == ChallengeOutcome.DRAW:
        result = Text("duel.result_draw")
    else:
        result = Text("duel.result_timeout")
    buttons = ((button(game_id, "rematch", "button.rematch", settles=True),),) if state.opponent else ()
    return say(chat, "duel.reveal", buttons, result=result, secrets=secrets or "—",
               lines=reveal_lines(state) or "—", score=score_line(state))


def secret_prompt(game_id: int, state: State, user_id: str) -> Text | None:
    """The private prompt when this game waits for the user's secret, else None."""
    if not awaiting_secret(state, user_id):
        return None
    return Text("duel.secret_prompt_again", {"game": game_id, "length": state.rules.length,
                                             "repeats": repeats_text(state.rules.repeats),
                                             "opponent": other(state, user_id).name})
