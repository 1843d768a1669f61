"""The word game's answer to its setter's word typed in the open and left there (`Exposed`, see
bot/app/exposed.py): everyone has seen it, so it can no longer be that setter's word in this game. The
rest of the game's rules and messages are rules.py's and presenter.py's; this wraps them."""

from __future__ import annotations

from collections.abc import Sequence

from core.errors import GameError
from core.games.actions import Exposed
from core.games.base import Ctx, Event, moving, say
from core.games.words import presenter, rules
from core.games.words.actions import SetWord
from core.games.words.state import State, awaiting_word
from core.messages import Chat, Message


class WordSeen(Event, frozen=True):
    """The word `by` typed in the group stayed there for all to see: it can no longer be their word."""

    type = "word_seen"
    by: str


def apply(state: State, action: object, actor: str | None, ctx: Ctx) -> tuple[State, list[Event]]:
    """rules.apply, with the word a setter showed the group ruled out as their word."""
    match action:
        case Exposed(code=text):
            s = moving(state, ctx)
            if actor is None or not awaiting_word(s, actor):
                raise GameError("words.wrong_phase")
            try:
                word: str | None = rules.validate(s, text, ctx)
            except GameError:  # no word of this game: nothing to rule out, the setter is told all the same
                word = None
            if word is not None and word not in s.seen.get(actor, []):
                s.seen.setdefault(actor, []).append(word)
            return s, [WordSeen(actor)]
        case SetWord(word=str()) if actor is not None:
            new, events = rules.apply(state, action, actor, ctx)
            if new.secret in state.seen.get(actor, ()):
                raise GameError("exposed.word_seen")
            return new, events
    return rules.apply(state, action, actor, ctx)


def present(game_id: int, state: State, events: Sequence[Event], chat: Chat) -> list[Message]:
    """presenter.present, and the plain word to the group that a setter's word was seen (never the word)."""
    name = {p.user_id: p.name for p in state.players}
    seen = [say(chat, "exposed.word", name=name.get(ev.by, "")).notify(ev.by) for ev in events
            if isinstance(ev, WordSeen)]
    return [*seen, *presenter.present(game_id, state, [ev for ev in events if not isinstance(ev, WordSeen)], chat)]
