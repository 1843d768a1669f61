"""Coaching after a game: what each guess did to the set of possible codes."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from core.solver.strategy import Solver, play


@dataclass(frozen=True)
class Step:
    """One guess: possible codes before and after it, and the earlier guesses (1-based) whose
    feedback it ignored (it could not have been the code, given theirs)."""

    n: int
    code: str
    a: int
    b: int
    before: int
    after: int
    contradicts: tuple[int, ...]


@dataclass(frozen=True)
class Analysis:
    steps: tuple[Step, ...]
    solver_guesses: int  # the strong solver against the same secret, from the empty board
    solver_line: tuple[str, ...]


def analyse(solver: Solver, history: Sequence[tuple[str, int, int]], secret: str | None) -> Analysis:
    """`history` is the player's (code, A, B) in order; `secret` the code they aimed at (for the
    solver's own game against it; None when unknown → 0 guesses)."""
    eng, spec = solver.eng, solver.spec
    cands = eng.all
    steps = []
    done: list[tuple[int, int]] = []
    for i, (code, a, b) in enumerate(history, 1):
        g = eng.index(code)
        fb = spec.pack(a, b)
        bad = tuple(j for j, (h, hfb) in enumerate(done, 1)
                    if int(eng.feedback(h, np.array([g]))[0]) != hfb)
        before = len(cands)
        cands = eng.filter(cands, g, fb)
        steps.append(Step(i, "".join(code), a, b, before, len(cands), bad))
        done.append((g, fb))
    line: list[tuple[str, ...]] = play(solver, secret) if secret is not None else []
    return Analysis(tuple(steps), len(line), tuple("".join(g) for g in line))
