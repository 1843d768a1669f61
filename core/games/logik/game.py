"""Logik through the App's game interface (core/games/base.py)."""

from __future__ import annotations

from core.games.challenge import ChallengeGame
from core.games.logik import presenter as view
from core.games.logik import rules
from core.games.logik.events import EVENTS
from core.games.logik.rules import State


class Logik(ChallengeGame[State]):
    kind = "logik"
    state_type = State
    events = EVENTS
    pictured = True  # every move shows the board picture
    secret_in_group = "private.row_in_group"

    def __init__(self) -> None:
        super().__init__(rules, view, secret_prompt=view, accepts_text=rules, cancel_action=rules, follow_up=rules)
