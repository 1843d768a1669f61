"""Practice as the App sees it (core/games/base.py): its rules and presenter bound as the class's
members, no method of its own in between."""

from __future__ import annotations

from core.games.base import Game, Verb
from core.games.practice import presenter, rules
from core.games.practice.events import EVENTS
from core.games.practice.rules import State


class Practice(Game[State]):
    kind = "practice"
    state_type = State
    events = EVENTS
    rematch_verb = Verb.AGAIN

    apply = staticmethod(rules.apply)
    players = staticmethod(rules.players)
    seated = staticmethod(rules.players)  # its one player sits in the chat
    results = staticmethod(rules.results)
    text_action = staticmethod(rules.text_action)
    quit_action = staticmethod(rules.quit_action)
    follow_up = staticmethod(rules.follow_up)
    code_rules = staticmethod(rules.code_rules)
    present = staticmethod(presenter.present)
    board = staticmethod(presenter.board)
