"""Coaching after a game: what each guess did to the set of possible codes, and — in a space with a
perfect tree — what it cost against perfect play."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from decimal import ROUND_HALF_UP, Decimal

import numpy as np

from core.solver.strategy import Solver, play

SHOWN_PLACES = 3  # /analyse shows the averages with three decimals (one hid a cost of 0.040 as "+0.0")


def shown(p: Perfect, places: int = SHOWN_PLACES) -> tuple[Decimal, Decimal, Decimal]:
    """A row's before, after and cost as shown: before and after rounded to `places`, the cost computed
    from those two, so that what a reader sees adds up (1 + after − before = cost) — rounding the exact
    cost on its own showed "⌀ 3.0 → 2.1, +0.0" for 3.013 → 2.053, +0.040."""
    step = Decimal(1).scaleb(-places)
    before = Decimal(repr(p.before)).quantize(step, ROUND_HALF_UP)
    after = Decimal(repr(p.after)).quantize(step, ROUND_HALF_UP)
    return before, after, max(Decimal(0).quantize(step), 1 + after - before)


def shown_total(perfect: Sequence[Perfect], places: int = SHOWN_PLACES) -> Decimal:
    """What the guesses cost in all, as the sum of the rows' shown costs (so the total adds up too)."""
    return sum((shown(p, places)[2] for p in perfect), Decimal(0).quantize(Decimal(1).scaleb(-places)))


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
    perfect: Perfect | None = None  # None: no tree in this space, or the position too big to value exactly


@dataclass(frozen=True)
class Perfect:
    """A guess against perfect play, exact: the guesses still needed on average (over the codes still
    possible) under perfect play before it and after it (perfect play after it), what it cost (1 +
    after − before ≥ 0; 0 for a perfect guess) and the perfect guess there."""

    before: float
    after: float
    best: str

    @property
    def cost(self) -> float:
        return max(0.0, 1 + self.after - self.before)


@dataclass(frozen=True)
class Analysis:
    steps: tuple[Step, ...]
    solver_guesses: int  # the strong solver against the same secret, from the empty board
    solver_line: tuple[str, ...]
    perfect_mean: float | None = None  # perfect play's average from the start, in a space with a tree

    @property
    def cost(self) -> float | None:
        """What the guesses cost in all against perfect play (None unless every one was valued)."""
        if not self.steps or any(st.perfect is None for st in self.steps):
            return None
        return sum(st.perfect.cost for st in self.steps if st.perfect is not None)


SEARCH_BUDGET = 300  # sets an exact value may search per position off the tree (well under a second)
SEARCH_LARGEST = 60  # a set off the tree with more codes is not searched at all

def renamed(solver: Solver, history: Sequence[tuple[str, int, int]]) -> tuple[list[str], dict[str, str]]:
    """The player's guesses under a renaming of the symbols that keeps them on the tree as long as it
    can (values do not change under renaming: a game opening with 1234 is the tree's 0123 game), and
    the renaming (player's symbol → tree's symbol, every symbol)."""
    tree, eng, spec = solver.tree, solver.eng, solver.spec
    to_tree: dict[str, str] = {}
    hist: list[tuple[int, int]] = []
    out: list[str] = []
    on = tree is not None
    for code, a, b in history:
        node = tree.nodes.get(tuple(hist)) if tree is not None and on else None
        if node is not None:
            want = eng.code(node.guess)
            trial = dict(to_tree)
            for c, t in zip(code, want, strict=True):
                if trial.setdefault(c, t) != t:
                    break
            else:
                if len(set(trial.values())) == len(trial):
                    to_tree = trial
                else:
                    on = False
            on = on and all(to_tree.get(c) == t for c, t in zip(code, want, strict=True))
        else:
            on = False
        if not on:
            to_tree = _complete(to_tree, spec.alphabet)
        g = "".join(to_tree.get(c, c) for c in code)
        out.append(g)
        hist.append((eng.index(g), spec.pack(a, b)))
    return out, _complete(to_tree, spec.alphabet)


def _complete(partial: dict[str, str], alphabet: Sequence[str]) -> dict[str, str]:
    """A whole renaming from a partial one: the symbols not yet renamed keep their order."""
    free = [t for t in alphabet if t not in partial.values()]
    rest = [c for c in alphabet if c not in partial]
    return {**partial, **dict(zip(rest, free, strict=True))}


def perfect_step(solver: Solver, cands: np.ndarray, guessed: list[int], g: int) -> Perfect | None:
    """Guess `g` against perfect play from the candidate set `cands` (None when some part is too big to
    value exactly: only exact values are shown)."""
    exact, eng, n = solver.exact, solver.eng, len(cands)
    before = exact.value(cands, guessed, SEARCH_BUDGET, SEARCH_LARGEST)
    best = exact.best(cands)
    if before is None or best is None:
        return None
    after = 0
    for fb, part in eng.partition(g, cands).items():
        if fb != solver.spec.win:
            v = exact.value(part, [*guessed, g], SEARCH_BUDGET, SEARCH_LARGEST)
            if v is None:
                return None
            after += v
    return Perfect(before / n, after / n, eng.text(best))


def analyse(solver: Solver, history: Sequence[tuple[str, int, int]], secret: str | None) -> Analysis:
    """`history` is the player's (code, A, B) in order; `secret` the code they aimed at (for the
    solver's own game against it; None when unknown → 0 guesses). In a space with a perfect tree each
    step also says what the guess cost against perfect play (exact: the tree's positions, else an
    exhaustive search within SEARCH_BUDGET sets; beyond it the step has no value)."""
    eng, spec = solver.eng, solver.spec
    cands = eng.all
    steps = []
    done: list[tuple[int, int]] = []
    if solver.tree is not None:
        codes, to_tree = renamed(solver, history)
        back = {t: c for c, t in to_tree.items()}
    else:
        codes, back = ["".join(code) for code, _a, _b in history], {}
    for i, (code, a, b) in enumerate(history, 1):
        g = eng.index(codes[i - 1])
        fb = spec.pack(a, b)
        bad = tuple(j for j, (h, hfb) in enumerate(done, 1)
                    if int(eng.feedback(h, np.array([g]))[0]) != hfb)
        before = len(cands)
        perfect = None
        if solver.tree is not None:
            perfect = perfect_step(solver, cands, [h for h, _ in done], g)
            if perfect is not None:  # the perfect guess in the player's own symbols
                perfect = Perfect(perfect.before, perfect.after, "".join(back[c] for c in perfect.best))
        cands = eng.filter(cands, g, fb)
        steps.append(Step(i, "".join(code), a, b, before, len(cands), bad, perfect))
        done.append((g, fb))
        if len(cands) == 0:  # feedback no code gives (cannot happen in a real game): nothing more to value
            break
    line: list[tuple[str, ...]] = play(solver, secret) if secret is not None else []
    mean = None if solver.tree is None else solver.tree.total / solver.eng.size
    return Analysis(tuple(steps), len(line), tuple("".join(g) for g in line), mean)
