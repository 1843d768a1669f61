"""The daily puzzle as one game class: the App's game interface over its rules and presenter."""

from __future__ import annotations

from collections.abc import Sequence

from core.games.actions import GiveUp, Guess, Timeout
from core.games.base import Ctx, Event, Game, Player, ResultRow, is_over, last_activity
from core.games.daily import presenter, rules
from core.games.daily.events import EVENTS
from core.games.daily.rules import State
from core.messages import Chat, Message, Text


class Daily(Game[State]):
    """One player's attempt at a chat's daily puzzle: played privately though it belongs to the group,
    so every move is that player's private input."""

    kind = "daily"
    state_type = State
    events = EVENTS
    private_play = True  # its player's moves come privately; the group sees only the result
    secret_in_group = "private.play_in_private"

    def apply(self, state: State, action: object, actor: str | None, ctx: Ctx) -> tuple[State, list[Event]]:
        return rules.apply(state, action, actor, ctx)

    def present(self, game_id: int, state: State, events: Sequence[Event], chat: Chat) -> list[Message]:
        return presenter.present(game_id, state, events, chat)

    def board(self, game_id: int, state: State, chat: Chat) -> Message:
        return presenter.board(game_id, state, chat)

    def players(self, state: State) -> list[Player]:
        return [state.player]

    def seated(self, state: State) -> list[Player]:
        return [state.player]

    def is_over(self, state: State) -> bool:
        return is_over(state)

    def results(self, state: State) -> list[ResultRow]:
        """None in the general statistics (the daily keeps its own table: streaks, attempts)."""
        return []

    def last_activity(self, state: State) -> float:
        return last_activity(state)

    def due_action(self, state: State, now: float) -> Timeout | None:
        """An attempt past its closing time times out before any move reaches it."""
        return Timeout() if rules.closed(state, now) else None

    def secret_prompt(self, game_id: int, state: State, user_id: str) -> Text | None:
        """While the attempt runs, its player's private input is a guess (so it is routed from the
        private chat, and a guess typed in the group is deleted unseen)."""
        return presenter.prompt(state) if rules.awaits(state, user_id) else None

    def secret_action(self, text: str | None) -> Guess | None:
        return None if text is None else Guess(text)

    def accepts_text(self, state: State, text: str) -> bool:
        return rules.looks_like_guess(state, text)

    def quit_action(self, state: State, user_id: str, command: str) -> GiveUp | None:
        return GiveUp() if command in rules.QUIT_COMMANDS else None
