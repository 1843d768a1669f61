"""Duel through the App's game interface (core/games/base.py)."""

from __future__ import annotations

from collections.abc import Sequence

from core.games.base import Ctx, Event, ResultRow
from core.games.challenge import ChallengeGame
from core.games.duel import rules
from core.games.duel.rules import State
from core.messages import Chat, Message, Text


class Duel(ChallengeGame[State]):
    kind = "duel"
    state_type = State

    def apply(self, state: State, action: object, actor: str | None, ctx: Ctx) -> tuple[State, list[Event]]:
        return rules.apply(state, action, actor, ctx)

    def present(self, game_id: int, state: State, events: Sequence[Event], chat: Chat) -> list[Message]:
        return rules.present(game_id, state, events, chat)

    def board(self, game_id: int, state: State, chat: Chat) -> Message:
        return rules.board(game_id, state, chat)

    def is_over(self, state: State) -> bool:
        return rules.is_over(state)

    def results(self, state: State) -> list[ResultRow]:
        return rules.results(state)

    def last_activity(self, state: State) -> float:
        return rules.last_activity(state)

    def secret_prompt(self, game_id: int, state: State, user_id: str) -> Text | None:
        return rules.secret_prompt(game_id, state, user_id)

    def cancel_action(self, state: State, user_id: str) -> object | None:
        return rules.cancel_action(state, user_id)

    def follow_up(self, old: State, verb: str, user_id: str, ctx: Ctx) -> tuple[State, list[Event]] | None:
        return rules.follow_up(old, verb, user_id, ctx)

    def code_rules(self, state: State) -> tuple[int, bool] | None:
        return state.rules.length, state.rules.repeats
