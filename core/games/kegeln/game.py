"""Hausnummern through the App's game interface: one class that overrides what the game has and calls its modules."""

from __future__ import annotations

from collections.abc import Sequence

from core.games import base
from core.games.base import Ctx, Event, Game, Player, ResultRow
from core.games.kegeln import actions, presenter, rules
from core.games.kegeln.events import EVENTS
from core.games.kegeln.state import State
from core.messages import Chat, Message


class Kegeln(Game[State]):
    """The Kegel club's Hausnummern: the scorer's moves, typed (/wurf, /undo, /scorer, /winner) or by
    button (a place, a tie's winner, undo), and /cancel."""

    kind = "kegeln"
    state_type = State
    events = EVENTS

    def apply(self, state: State, action: object, actor: str | None, ctx: Ctx) -> tuple[State, list[Event]]:
        return rules.apply(state, action, actor, ctx)

    def present(self, game_id: int, state: State, events: Sequence[Event], chat: Chat) -> list[Message]:
        return presenter.present(game_id, state, events, chat)

    def board(self, game_id: int, state: State, chat: Chat) -> Message:
        return presenter.board(game_id, state, chat)

    def players(self, state: State) -> list[Player]:
        return rules.players(state)

    def seated(self, state: State) -> list[Player]:
        return rules.seated(state)

    def is_over(self, state: State) -> bool:
        return base.is_over(state)

    def results(self, state: State) -> list[ResultRow]:
        return rules.results(state)

    def last_activity(self, state: State) -> float:
        return base.last_activity(state)

    def button_action(self, state: State, verb: str, user_id: str, name: str, text: str | None) -> object | None:
        return actions.pressed(verb)

    def cancel_action(self, state: State, user_id: str) -> object | None:
        return actions.Cancel()
