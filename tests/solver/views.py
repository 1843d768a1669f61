"""The solver's views of the games for the solver's tests, found by the state's type (the bot finds them through
each game's plugin, `GamePlugin.solver`): the computer opponent's and /analyse's calls on a state."""

from __future__ import annotations

import random
from typing import Any

from core.games.actions import Guess
from core.games.duel import rules as duel
from core.games.duel.solver import VIEW as DUEL
from core.games.duel.solver import new_bot_duel
from core.games.logik import rules as logik
from core.games.logik.solver import VIEW as LOGIK
from core.games.logik.solver import new_bot_logik
from core.games.practice import rules as practice
from core.games.practice.solver import VIEW as PRACTICE
from core.games.practice.solver import hint, take_hint
from core.solver.games import BOT, THINK, ComputerView, History, SolverView, Think, has_bot, parse_level, spec_for
from core.solver.spaces import Spec

__all__ = ["BOT", "THINK", "Think", "has_bot", "hint", "new_bot_duel", "new_bot_logik", "parse_level", "spec_for",
           "take_hint"]


def view(state: Any) -> SolverView[Any]:
    views: dict[type, SolverView[Any]] = {duel.State: DUEL, logik.State: LOGIK, practice.State: PRACTICE}
    return views[type(state)]


def computer(state: Any) -> ComputerView[Any]:
    found = view(state)
    assert isinstance(found, ComputerView)
    return found


def spec_of(state: Any) -> Spec:
    return view(state).spec(state)


def analysis_input(state: Any, user_id: str) -> tuple[Spec, History, str | None]:
    return view(state).analysis(state, user_id)


def bot_action(state: Any) -> object | None:
    return computer(state).action(state)


def bot_history(state: Any) -> History:
    return computer(state).history(state)


def last_guess(state: Any) -> bool:
    return computer(state).last_guess(state)


def bot_guess(solver: Any, state: Any, level: str, rng: random.Random) -> Guess:
    return computer(state).guess(solver, state, level, rng)


def bot_apply(state: Any, action: object, ctx: Any) -> Any:
    return computer(state).apply(state, action, ctx)
