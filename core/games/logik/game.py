"""Logik as the App sees it (core/games/base.py): the challenge flow's class (core/games/challenge.py)
with this game's rules and presenter bound as its members, no method of its own in between."""

from __future__ import annotations

from core.games.challenge import ChallengeGame
from core.games.logik import presenter, rules
from core.games.logik.events import EVENTS
from core.games.logik.rules import State


class Logik(ChallengeGame[State]):
    kind = "logik"
    state_type = State
    events = EVENTS
    pictured = True  # every move shows the board picture
    secret_in_group = "private.row_in_group"

    apply = staticmethod(rules.apply)
    results = staticmethod(rules.results)
    accepts_text = staticmethod(rules.accepts_text)
    cancel_action = staticmethod(rules.cancel_action)
    follow_up = staticmethod(rules.follow_up)
    present = staticmethod(presenter.present)
    board = staticmethod(presenter.board)
    secret_prompt = staticmethod(presenter.secret_prompt)
