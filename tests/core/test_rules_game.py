"""`RulesGame` (core/games/base.py): the delegation to a game's rules module, written once; its
capabilities are named when the game is made, each with the module that has it (mypy checks the
module's function against the capability's protocol)."""

from __future__ import annotations

import random
from types import SimpleNamespace
from typing import Any

from bot.games.registry import GAMES
from core.codes import CodeRules
from core.games.actions import GiveUp, Guess
from core.games.base import Ctx, Game, Player, RulesGame
from core.games.practice import rules as practice_rules

CAPABILITIES = ("due_action", "secret_prompt", "secret_action", "accepts_text", "text_action", "button_action",
                "quit_action", "cancel_action", "join_action", "leave_action", "follow_up")


class Plain(RulesGame[Any]):
    kind = "plain"
    state_type = object


def _module(**functions: Any) -> Any:
    mandatory = {name: (lambda *a: None) for name in ("apply", "players", "seated", "is_over", "results",
                                                     "last_activity", "present", "board")}
    return SimpleNamespace(**{**mandatory, **functions})


def test_a_capability_named_is_taken_and_the_others_keep_their_defaults() -> None:
    def cancel_action(state: object, user_id: str) -> str:
        return f"cancel by {user_id}"

    module = _module(cancel_action=cancel_action, join_action=lambda state, user_id, name: "joined")
    game = Plain(module, module, cancel_action=module)
    assert game.cancel_action(None, "u1") == "cancel by u1"
    assert game.join_action(None, "u1", "Ann") is None  # defined but not named: Game's "not in this game"
    assert game.accepts_text(None, "x") is False and game.follow_up(None, "again", "u1", None) is None  # type: ignore[arg-type]


def test_what_the_class_defines_wins_over_the_module() -> None:
    class Own(Plain):
        def cancel_action(self, state: object, user_id: str) -> object | None:
            return "own"

    module = _module(cancel_action=lambda state, user_id: "module")
    game = Own(module, module, cancel_action=module)
    assert game.cancel_action(None, "u1") == "own"


def test_the_registered_games_take_every_capability_their_modules_define() -> None:
    """A capability function in a game's rules or presenter module that its game.py forgot to name would
    be dead code: every one is named (unless the class defines the method itself)."""
    for kind, game in GAMES.items():
        if not isinstance(game, RulesGame):  # a game that is one class (issue 24: Kegeln, the daily) has no modules
            continue
        for name in CAPABILITIES:
            own = any(name in vars(c) for c in type(game).__mro__ if c not in (RulesGame, Game, object)
                      and issubclass(c, RulesGame))
            if own:
                continue
            defined = [m for m in (game.rules, game.view) if callable(getattr(m, name, None))]
            taken = getattr(game, f"_{name}")
            assert (taken is not None) == bool(defined), (kind, name)
            assert taken is None or taken in defined, (kind, name)


def test_a_registered_game_answers_through_its_module() -> None:
    game = GAMES["practice"]
    state, _ = practice_rules.new(CodeRules(4, False), Player("a", "Ann"), Ctx(1.0, random.Random(1)))
    assert game.text_action(state, "a", "1234") == Guess("1234")
    assert game.quit_action(state, "a", "giveup") == GiveUp()
