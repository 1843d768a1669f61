"""The 1A2B duel as the App sees it (core/games/base.py): one class that calls its rules and its presenter."""

from __future__ import annotations

from collections.abc import Sequence

from core.games.base import Ctx, Event, ResultRow
from core.games.challenge import ChallengeGame
from core.games.duel import presenter, rules
from core.games.duel.events import EVENTS
from core.games.duel.rules import State
from core.messages import Chat, Message, Text


class Duel(ChallengeGame[State]):
    kind = "duel"
    state_type = State
    events = EVENTS

    def apply(self, state: State, action: object, actor: str | None, ctx: Ctx) -> tuple[State, list[Event]]:
        return rules.apply(state, action, actor, ctx)

    def results(self, state: State) -> list[ResultRow]:
        return rules.results(state)

    def cancel_action(self, state: State, user_id: str) -> object | None:
        return rules.cancel_action(state, user_id)

    def follow_up(self, old: State, verb: str, user_id: str, ctx: Ctx) -> tuple[State, list[Event]] | None:
        return rules.follow_up(old, verb, user_id, ctx)

    def code_rules(self, state: State) -> tuple[int, bool] | None:
        return state.rules.length, state.rules.repeats

    def present(self, game_id: int, state: State, events: Sequence[Event], chat: Chat) -> list[Message]:
        return presenter.present(game_id, state, events, chat)

    def board(self, game_id: int, state: State, chat: Chat) -> Message:
        return presenter.board(game_id, state, chat)

    def secret_prompt(self, game_id: int, state: State, user_id: str) -> Text | None:
        return presenter.secret_prompt(game_id, state, user_id)
