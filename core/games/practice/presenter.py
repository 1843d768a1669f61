"""Practice's presenter: the texts and buttons of each event, and the board (docs/zahlenraten.md)."""

from __future__ import annotations

from collections.abc import Sequence

from core.games.base import Event, button, repeats_text, say
from core.games.practice.events import Cracked, GaveUp, Guessed, Started, TimedOut
from core.games.practice.rules import State
from core.messages import Chat, Message, Text


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
