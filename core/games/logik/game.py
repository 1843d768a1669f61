"""Logik as the App sees it (core/games/base.py): one class that calls its rules and its presenter."""

from __future__ import annotations

from collections.abc import Sequence

from core.games.base import Ctx, Event, ResultRow
from core.games.challenge import ChallengeGame
from core.games.logik import presenter, rules
from core.games.logik.events import EVENTS
from core.games.logik.rules import State
from core.messages import Chat, Message, Text


class Logik(ChallengeGame[State]):
    kind = "logik"
    state_type = State
    events = EVENTS
    pictured = True  # every move shows the board picture
    secret_in_group = "private.row_in_group"

    def apply(self, state: State, action: object, actor: str | None, ctx: Ctx) -> tuple[State, list[Event]]:
        return rules.apply(state, action, actor, ctx)

    def results(self, state: State) -> list[ResultRow]:
        return rules.results(state)

    def accepts_text(self, state: State, text: str) -> bool:
        return rules.accepts_text(state, text)

    def cancel_action(self, state: State, user_id: str) -> object | None:
        return rules.cancel_action(state, user_id)

    def follow_up(self, old: State, verb: str, user_id: str, ctx: Ctx) -> tuple[State, list[Event]] | None:
        return rules.follow_up(old, verb, user_id, ctx)

    def present(self, game_id: int, state: State, events: Sequence[Event], chat: Chat) -> list[Message]:
        return presenter.present(game_id, state, events, chat)

    def board(self, game_id: int, state: State, chat: Chat) -> Message:
        return presenter.board(game_id, state, chat)

    def secret_prompt(self, game_id: int, state: State, user_id: str) -> Text | None:
        return presenter.secret_prompt(game_id, state, user_id)
