"""Kegeln through the App's game interface (core/games/base.py)."""

from __future__ import annotations

from core.games.base import RulesGame
from core.games.kegeln import rules
from core.games.kegeln.events import EVENTS
from core.games.kegeln.rules import State


class Kegeln(RulesGame[State]):
    kind = "kegeln"
    state_type = State
    events = EVENTS

    def __init__(self) -> None:
        super().__init__(rules, rules, button_action=rules, cancel_action=rules)
