"""Kegeln through the App's game interface (core/games/base.py)."""

from __future__ import annotations

from collections.abc import Sequence

from core.games.base import Ctx, Event, Game, Player, ResultRow
from core.games.kegeln import rules
from core.games.kegeln.rules import State
from core.messages import Chat, Message


class Kegeln(Game[State]):
    kind = "kegeln"
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

    def button_action(self, state: State, verb: str, user_id: str, name: str, text: str | None) -> object | None:
        return rules.button_action(state, verb, user_id, name, text)

    def cancel_action(self, state: State, user_id: str) -> object | None:
        return rules.cancel_action(state, user_id)
