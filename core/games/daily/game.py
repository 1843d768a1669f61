"""The daily puzzle as the App sees it (core/games/base.py): its rules and presenter bound as the class's
members, no method of its own in between."""

from __future__ import annotations

from core.games.base import Game
from core.games.daily import presenter, rules
from core.games.daily.events import EVENTS
from core.games.daily.rules import State


class Daily(Game[State]):
    """One player's attempt at a chat's daily puzzle: played privately though it belongs to the group,
    so every move is that player's private input."""

    kind = "daily"
    state_type = State
    events = EVENTS
    private_play = True  # its player's moves come privately; the group sees only the result
    secret_in_group = "private.play_in_private"

    apply = staticmethod(rules.apply)
    players = staticmethod(rules.players)
    seated = staticmethod(rules.players)
    results = staticmethod(rules.results)
    due_action = staticmethod(rules.due_action)
    secret_action = staticmethod(rules.secret_action)
    accepts_text = staticmethod(rules.accepts_text)
    quit_action = staticmethod(rules.quit_action)
    present = staticmethod(presenter.present)
    board = staticmethod(presenter.board)
    secret_prompt = staticmethod(presenter.secret_prompt)
