"""Words through the App's game interface (core/games/base.py)."""

from __future__ import annotations

from collections.abc import Sequence

from core.games.actions import Exposed
from core.games.base import Ctx, Event, RulesGame
from core.games.words import exposed, rules
from core.games.words.events import EVENTS
from core.games.words.rules import State
from core.messages import Chat, Message


class Words(RulesGame[State]):
    kind = "words"
    state_type = State
    events = (*EVENTS, exposed.WordSeen)
    follows_up = True
    secret_in_group = "private.word_in_group"

    def exposed_action(self, text: str) -> object | None:
        return Exposed(text)

    def apply(self, state: State, action: object, actor: str | None, ctx: Ctx) -> tuple[State, list[Event]]:
        return exposed.apply(state, action, actor, ctx)

    def present(self, game_id: int, state: State, events: Sequence[Event], chat: Chat) -> list[Message]:
        return exposed.present(game_id, state, events, chat)

    def __init__(self) -> None:
        super().__init__(rules, rules, due_action=rules, secret_prompt=rules, secret_action=rules, accepts_text=rules,
                         text_action=rules, button_action=rules, quit_action=rules, cancel_action=rules,
                         join_action=rules, leave_action=rules, follow_up=rules)
