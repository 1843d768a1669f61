"""The 1A2B duel as the App sees it (core/games/base.py): the challenge flow's class (core/games/challenge.py)
with this game's rules and presenter bound as its members, no method of its own in between."""

from __future__ import annotations

from core.games.challenge import ChallengeGame
from core.games.duel import presenter, rules
from core.games.duel.events import EVENTS
from core.games.duel.rules import State


class Duel(ChallengeGame[State]):
    kind = "duel"
    state_type = State
    events = EVENTS

    apply = staticmethod(rules.apply)
    results = staticmethod(rules.results)
    cancel_action = staticmethod(rules.cancel_action)
    follow_up = staticmethod(rules.follow_up)
    code_rules = staticmethod(rules.code_rules)
    present = staticmethod(presenter.present)
    board = staticmethod(presenter.board)
    secret_prompt = staticmethod(presenter.secret_prompt)
