"""Words through the App's game interface (core/games/base.py)."""

from __future__ import annotations

from collections.abc import Sequence

from core.games.base import Ctx, Event, Game, Player, ResultRow
from core.games.words import rules
from core.games.words.rules import State
from core.messages import Chat, Message, Text


class Words(Game[State]):
    kind = "words"
    state_type = State

    def apply(self, state: State, action: object, actor: str | None, ctx: Ctx) -> tuple[State, list[Event]]:
        return rules.apply(state, action, actor, ctx)

    def present(self, game_id: int, state: State, events: Sequence[Event], chat: Chat) -> list[Message]:
        return rules.present(game_id, state, events, chat)

    def board(self, game_id: int, state: State, chat: Chat) -> Message:
        return rules.board(game_id, state, chat)

    def players(self, state: State) -> list[Player]:
        return rules.players(state)

    def seated(self, state: State) -> list[Player]:
        return rules.seated(state)

    def is_over(self, state: State) -> bool:
        return rules.is_over(state)

    def results(self, state: State) -> list[ResultRow]:
        return rules.results(state)

    def last_activity(self, state: State) -> float:
        return rules.last_activity(state)

    follows_up = True

    def due_action(self, state: State, now: float) -> object | None:
        return rules.due_action(state, now)

    def secret_prompt(self, game_id: int, state: State, user_id: str) -> Text | None:
        return rules.secret_prompt(game_id, state, user_id)

    def secret_action(self, text: str | None) -> object | None:
        return rules.secret_action(text)

    def accepts_text(self, state: State, text: str) -> bool:
        return rules.accepts_text(state, text)

    def text_action(self, state: State, user_id: str, text: str) -> object | None:
        return rules.text_action(state, user_id, text)

    def button_action(self, state: State, verb: str, user_id: str, name: str, text: str | None) -> object | None:
        return rules.button_action(state, verb, user_id, name, text)

    def quit_action(self, state: State, user_id: str, command: str) -> object | None:
        return rules.quit_action(state, user_id, command)

    def cancel_action(self, state: State, user_id: str) -> object | None:
        return rules.cancel_action(state, user_id)

    def join_action(self, state: State, user_id: str, name: str) -> object | None:
        return rules.join_action(state, user_id, name)

    def leave_action(self, state: State, user_id: str) -> object | None:
        return rules.leave_action(state, user_id)

    def follow_up(self, old: State, verb: str, user_id: str, ctx: Ctx) -> tuple[State, list[Event]] | None:
        return rules.follow_up(old, verb, user_id, ctx)
