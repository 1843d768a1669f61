"""Practice as the solver sees it (`VIEW`, carried by its plugin): its code space, /analyse of a finished game,
and /hint — how many codes are still possible and a strong next guess, after which the game is assisted."""

from __future__ import annotations

import copy
from typing import TYPE_CHECKING

from core.errors import GameError
from core.games.base import Ctx, Event
from core.games.practice import rules as practice
from core.games.practice.events import Hinted
from core.solver.games import History, SolverView, perfect_hint, spec_for
from core.solver.spaces import Spec

if TYPE_CHECKING:  # the solver itself is loaded in the worker processes that run it
    from core.solver.strategy import Solver


class PracticeView(SolverView[practice.State]):
    analysable = True

    def spec(self, state: practice.State) -> Spec:
        return spec_for(state.rules)

    def analysis(self, state: practice.State, user_id: str) -> tuple[Spec, History, str | None]:
        if state.phase is not practice.Phase.FINISHED:
            raise GameError("solver.analyse_none")
        return self.spec(state), [(a.code, a.a, a.b) for a in state.attempts], state.secret


VIEW = PracticeView()


def hint(solver: Solver, state: practice.State) -> tuple[int, str]:
    """How many codes are still possible, and a strong next guess — the perfect one where the space
    has a tree and the game follows it (runs in a worker thread)."""
    history = [(a.code, a.a, a.b) for a in state.attempts]
    count = solver.count(history)
    return count, "".join(perfect_hint(solver, history))


def take_hint(state: practice.State, count: int, guess: str, ctx: Ctx) -> tuple[practice.State, list[Event]]:
    """A hint was given: the game is assisted from now on (no rating, no personal best)."""
    if state.phase is not practice.Phase.PLAYING:
        raise GameError("solver.hint_no_game")
    s = copy.deepcopy(state)
    first = not s.assisted
    s.assisted, s.updated = True, ctx.now
    return s, [Hinted(count, guess, first, len(s.attempts))]
