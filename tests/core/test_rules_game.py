"""Each game is one class (issue 24, python-chess's variants): it overrides what it has and calls its own
modules from there. No function in a game's package stands for a capability its class does not take:
such a function would be dead code that reads as if the game could do it."""

from __future__ import annotations

import importlib
import inspect
import pkgutil
import random

from bot.games.registry import GAMES
from core.codes import CodeRules
from core.games.actions import GiveUp, Guess
from core.games.base import Ctx, Game, Player
from core.games.practice import rules as practice_rules

CAPABILITIES = ("due_action", "secret_prompt", "secret_action", "accepts_text", "text_action", "button_action",
                "quit_action", "cancel_action", "join_action", "leave_action", "follow_up")


def overridden(game: Game[object], name: str) -> bool:
    """Whether the game's class (or a shared base such as ChallengeGame) defines `name` itself."""
    return any(name in vars(c) for c in type(game).__mro__ if c not in (Game, object))


def test_no_game_package_defines_a_capability_its_class_does_not_take() -> None:
    for kind, game in GAMES.items():
        package = importlib.import_module(type(game).__module__.rsplit(".", 1)[0])
        for info in pkgutil.iter_modules(package.__path__):
            module = importlib.import_module(f"{package.__name__}.{info.name}")
            for name in CAPABILITIES:
                fn = getattr(module, name, None)
                if inspect.isfunction(fn) and fn.__module__ == module.__name__:
                    assert overridden(game, name), f"{kind}: {module.__name__}.{name} is not taken by its class"


def test_every_game_is_one_class_of_the_interface() -> None:
    for kind, game in GAMES.items():
        assert isinstance(game, Game) and game.kind == kind
        assert not [c for c in type(game).__mro__ if c.__name__ == "RulesGame"]


def test_a_registered_game_answers_through_its_class() -> None:
    game = GAMES["practice"]
    state, _ = practice_rules.new(CodeRules(4, False), Player("a", "Ann"), Ctx(1.0, random.Random(1)))
    assert game.text_action(state, "a", "1234") == Guess("1234")
    assert game.quit_action(state, "a", "giveup") == GiveUp()
