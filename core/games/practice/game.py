"""Practice as the App sees it (core/games/base.py): one class that calls its rules and its presenter."""

from __future__ import annotations

from collections.abc import Sequence

from core.games.base import Ctx, Event, Game, Player, ResultRow, Verb, is_over, last_activity
from core.games.practice import presenter, rules
from core.games.practice.events import EVENTS
from core.games.practice.rules import State
from core.messages import Chat, Message


class Practice(Game[State]):
    kind = "practice"
    state_type = State
    events = EVENTS
    follows_up = True
    rematch_verb = Verb.AGAIN

    def apply(self, state: State, action: object, actor: str | None, ctx: Ctx) -> tuple[State, list[Event]]:
        return rules.apply(state, action, actor, ctx)

    def players(self, state: State) -> list[Player]:
        return rules.players(state)

    def seated(self, state: State) -> list[Player]:
        return rules.seated(state)

    def is_over(self, state: State) -> bool:
        return is_over(state)

    def last_activity(self, state: State) -> float:
        return last_activity(state)

    def results(self, state: State) -> list[ResultRow]:
        return rules.results(state)

    def text_action(self, state: State, user_id: str, text: str) -> object | None:
        return rules.text_action(state, user_id, text)

    def quit_action(self, state: State, user_id: str, command: str) -> object | None:
        return rules.quit_action(state, user_id, command)

    def follow_up(self, old: State, verb: str, user_id: str, ctx: Ctx) -> tuple[State, list[Event]] | None:
        return rules.follow_up(old, verb, user_id, ctx)

    def code_rules(self, state: State) -> tuple[int, bool] | None:
        return state.rules.length, state.rules.repeats

    def present(self, game_id: int, state: State, events: Sequence[Event], chat: Chat) -> list[Message]:
        return presenter.present(game_id, state, events, chat)

    def board(self, game_id: int, state: State, chat: Chat) -> Message:
        return presenter.board(game_id, state, chat)
