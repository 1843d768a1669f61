"""The solver for code games: candidate filtering and guess choice for hints, coaching and the
computer opponent. Pure (the opening-book cache on disk is bot/solver/book.py); works on symbol
tuples, so it depends on no game module.

Its names load on first use (PEP 562): the bot's own process names spaces and levels
(`core.solver.spaces`, `core.solver.levels`) and hands work to worker processes, which are the only
ones that load numpy and the engine. The engine of a space is `core.solver.engine.engine(spec)`: the
package's attribute `engine` is that submodule once it is loaded."""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from core.solver.coach import Analysis, Step, analyse
    from core.solver.engine import Engine
    from core.solver.levels import EASY, LEVELS, PERFECT, STRONG
    from core.solver.perfect import Tree
    from core.solver.spaces import LOGIK, MASTERMIND, Spec, digits
    from core.solver.strategy import Choice, Solver, build_book, choose, play

_WHERE = {
    "Analysis": "coach", "Step": "coach", "analyse": "coach",
    "Engine": "engine",
    "EASY": "levels", "LEVELS": "levels", "PERFECT": "levels", "STRONG": "levels", "Tree": "perfect",
    "LOGIK": "spaces", "MASTERMIND": "spaces", "Spec": "spaces", "digits": "spaces",
    "Choice": "strategy", "Solver": "strategy", "build_book": "strategy", "choose": "strategy", "play": "strategy",
}


def __getattr__(name: str) -> Any:
    if name not in _WHERE:
        raise AttributeError(f"module 'core.solver' has no attribute {name!r}")
    return getattr(importlib.import_module(f"core.solver.{_WHERE[name]}"), name)


__all__ = [
           "EASY",
           "LEVELS",
           "LOGIK",
           "MASTERMIND",
           "PERFECT",
           "STRONG",
           "Analysis",
           "Choice",
           "Engine",
           "Solver",
           "Spec",
           "Step",
           "Tree",
           "analyse",
           "build_book",
           "choose",
           "digits",
           "play",
]
