"""The daily puzzle through the App's game interface (core/games/base.py)."""

from __future__ import annotations

from core.games.base import RulesGame
from core.games.daily import rules
from core.games.daily.events import EVENTS
from core.games.daily.rules import State


class Daily(RulesGame[State]):
    kind = "daily"
    state_type = State
    events = EVENTS
    private_play = True  # its player's moves come privately; the group sees only the result
    secret_in_group = "private.play_in_private"

    def __init__(self) -> None:
        super().__init__(rules, rules, secret_prompt=rules, secret_action=rules, accepts_text=rules, quit_action=rules)
