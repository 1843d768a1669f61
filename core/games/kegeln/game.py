"""Hausnummern through the App's game interface (core/games/base.py): its rules and presenter bound as
the class's members, no method of its own in between."""

from __future__ import annotations

from core.games.base import Game
from core.games.kegeln import presenter, rules
from core.games.kegeln.events import EVENTS
from core.games.kegeln.state import State


class Kegeln(Game[State]):
    """The Kegel club's Hausnummern: the scorer's moves, typed (/wurf, /undo, /scorer, /winner) or by
    button (a place, a tie's winner, undo), and /cancel."""

    kind = "kegeln"
    state_type = State
    events = EVENTS

    apply = staticmethod(rules.apply)
    players = staticmethod(rules.players)
    seated = staticmethod(rules.players)  # the scorer, the one chat user behind the game
    results = staticmethod(rules.results)
    button_action = staticmethod(rules.button_action)
    cancel_action = staticmethod(rules.cancel_action)
    present = staticmethod(presenter.present)
    board = staticmethod(presenter.board)
