"""Duel through the App's game interface (core/games/base.py)."""

from __future__ import annotations

from core.games.challenge import ChallengeGame
from core.games.duel import rules
from core.games.duel.events import EVENTS
from core.games.duel.rules import State


class Duel(ChallengeGame[State]):
    kind = "duel"
    state_type = State
    events = EVENTS

    def __init__(self) -> None:
        super().__init__(rules, rules, secret_prompt=rules, cancel_action=rules, follow_up=rules)

    def code_rules(self, state: State) -> tuple[int, bool] | None:
        return state.rules.length, state.rules.repeats
