"""Practice through the App's game interface (core/games/base.py)."""

from __future__ import annotations

from core.games.base import RulesGame, Verb
from core.games.practice import rules
from core.games.practice.events import EVENTS
from core.games.practice.rules import State


class Practice(RulesGame[State]):
    kind = "practice"
    state_type = State
    events = EVENTS
    follows_up = True
    rematch_verb = Verb.AGAIN

    def __init__(self) -> None:
        super().__init__(rules, rules, text_action=rules, quit_action=rules, follow_up=rules)

    def code_rules(self, state: State) -> tuple[int, bool] | None:
        return state.rules.length, state.rules.repeats
