"""The messages of the two-player challenge flow the 1A2B duel and Logik share, in each game's own
texts: the challenge with its answer buttons, the answers, the rematch offer, /resign, the timeout
(`flow_message`), the private requests for the secrets (`secret_prompts`) and the match score
(`score_line`)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from core.games.base import Event, Player, Verb, button, say, to_actor
from core.games.challenge import other, players
from core.games.challenge_events import (
    Accepted,
    Cancelled,
    Challenged,
    Declined,
    Rematch,
    Resigned,
    SecretSeen,
    TimedOut,
)
from core.messages import Chat, Message, Text


def score_line(state: Any, key: str) -> Text:
    """The running match score "Alice 2 – 1 – 0 Bob" (wins–draws–wins), in the game's own text `key`."""
    a, b = state.challenger, state.opponent or state.challenger
    return Text(key, {"a": a.name, "b": b.name, "wa": state.match.wins.get(a.user_id, 0),
                      "d": state.match.draws, "wb": state.match.wins.get(b.user_id, 0)})



# The texts of the shared flow, in each challenge game's own catalog section (`<game>.<name>`).
FLOW_TEXTS = ("challenged", "challenged_open", "declined", "cancelled", "accepted", "accepted_rematch", "rematch",
              "resigned", "timed_out", "timed_out_lost", "secret_prompt", "secret_fallback", "match_score")


def flow_message(game_id: int, state: Any, ev: Event, chat: Chat, game: str,
                 challenged: dict[str, Any]) -> Message | None:
    """The message of an event of the challenge flow, in the game's own texts (`<game>.<event>`):
    the challenge with its answer buttons (`challenged`: what the game's challenge text adds), the
    answers, the rematch offer (naming the players its event names), /resign and the timeout. None
    for any other event: the game presents it."""
    name = {p.user_id: p.name for p in players(state)}
    answer = ((button(game_id, Verb.ACCEPT, "button.accept", settles=True),
               button(game_id, Verb.DECLINE, "button.decline", settles=True)),)
    match ev:
        case Challenged():
            key = f"{game}.challenged_open" if state.opponent is None else f"{game}.challenged"
            return say(chat, key, answer, challenger=state.challenger.name,
                       opponent=state.opponent.name if state.opponent else "", **challenged
                       ).notify(*([state.opponent.user_id] if state.opponent else []))  # the challenged must answer
        case Declined(by=by) | Cancelled(by=by):
            return say(chat, f"{game}.{ev.type}", name=name[by])
        case Accepted(by=by) if state.offered_by is not None:  # a rematch: the other one accepts the offerer's
            return say(chat, f"{game}.accepted_rematch", name=name[by], offerer=name[state.offered_by])
        case Accepted(by=by):
            return say(chat, f"{game}.accepted", name=name[by], challenger=state.challenger.name)
        case Rematch(by=by):
            named = {k: name[v] for k, v in ev.roles().items()}  # who starts, or who plays white
            return say(chat, f"{game}.rematch", answer, name=name[by], other=other(state, by).name,
                       score=score_line(state, f"{game}.match_score"), **named).notify(other(state, by).user_id)
        case Resigned(by=by):
            return say(chat, f"{game}.resigned", name=name[by], winner=other(state, by).name)
        case SecretSeen(by=by):  # never the code: the group has it, the bot does not repeat it
            return say(chat, "exposed.secret", name=name[by]).notify(by)
        case TimedOut() if state.winner is not None:  # the other one let the time run out
            return say(chat, f"{game}.timed_out_lost", name=other(state, state.winner).name,
                       winner=name[state.winner])
        case TimedOut():
            return say(chat, f"{game}.timed_out")
    return None


def secret_prompts(game_id: int, state: Any, chat: Chat, game: str, secret_input: Text,
                   params: Callable[[Player], dict[str, Any]]) -> list[Message]:
    """Ask each player privately for their secret (`<game>.secret_prompt` with `params`, a button for a
    random one); if the platform cannot reach them, the group gets a button that leads to private
    entry (`secret_input`: what that asks for), never the secret itself."""
    out = []
    for p in players(state):
        if p.user_id in state.secrets:
            continue
        set_secret = button(game_id, Verb.SECRET, "button.set_secret", prompt=secret_input)
        fallback = say(chat, f"{game}.secret_fallback", ((set_secret,),), name=p.name).notify(p.user_id)
        prompt = say(to_actor(chat, p), f"{game}.secret_prompt",
                     ((button(game_id, Verb.RANDOM, "button.random_secret", settles=True),),),
                     opponent=other(state, p.user_id).name, game=game_id, **params(p))
        out.append(Message(prompt.to, prompt.text, prompt.buttons, fallback=fallback))
    return out
