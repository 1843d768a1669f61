"""`RulesGame` (core/games/base.py): the delegation to a game's rules module, written once."""

from __future__ import annotations

from types import SimpleNamespace
from typing import Any

import pytest

from core.games import practice
from core.games.base import Game, RulesGame
from core.games.registry import GAMES


class Plain(RulesGame[Any]):
    kind = "plain"
    state_type = object


def _module(**functions: Any) -> Any:
    mandatory = {name: (lambda *a: None) for name in ("apply", "players", "seated", "is_over", "results",
                                                     "last_activity", "present", "board")}
    return SimpleNamespace(**{**mandatory, **functions})


def test_a_capability_the_module_defines_is_taken_and_the_others_keep_their_defaults() -> None:
    def cancel_action(state: object, user_id: str) -> str:
        return f"cancel by {user_id}"

    game = Plain(_module(cancel_action=cancel_action), _module())
    assert game.cancel_action(None, "u1") == "cancel by u1"
    assert game.join_action(None, "u1", "Ann") is None  # not offered: Game's "not in this game"


def test_a_capability_with_other_parameters_than_the_interface_is_refused() -> None:
    def cancel_action(state: object) -> None:  # the interface's takes (state, user_id)
        return None

    with pytest.raises(TypeError, match="cancel_action"):
        Plain(_module(cancel_action=cancel_action), _module())


def test_what_the_class_defines_wins_over_the_module() -> None:
    class Own(Plain):
        def cancel_action(self, state: object, user_id: str) -> object | None:
            return "own"

    game = Own(_module(cancel_action=lambda state, user_id: "module"), _module())
    assert game.cancel_action(None, "u1") == "own"


def test_the_registered_games_offer_what_their_modules_define() -> None:
    game = GAMES["practice"]
    assert game.text_action is practice.rules.text_action
    assert type(game).follow_up is Game.follow_up  # the class declares none: it comes from the module
    assert game.follow_up is practice.rules.follow_up
