"""Words through the App's game interface (core/games/base.py)."""

from __future__ import annotations

from core.games.base import RulesGame
from core.games.words import rules
from core.games.words.events import EVENTS
from core.games.words.rules import State


class Words(RulesGame[State]):
    kind = "words"
    state_type = State
    events = EVENTS
    follows_up = True
    secret_in_group = "private.word_in_group"

    def __init__(self) -> None:
        super().__init__(rules, rules, due_action=rules, secret_prompt=rules, secret_action=rules, accepts_text=rules,
                         text_action=rules, button_action=rules, quit_action=rules, cancel_action=rules,
                         join_action=rules, leave_action=rules, follow_up=rules)
