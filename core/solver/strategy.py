"""Guess choice: `easy` (a random code consistent with all feedback so far), `strong`
(maximum entropy of the feedback partition; ties → smaller worst-case part → a code that can
still be the secret → the lowest code), with an opening book for the first two guesses, and
`perfect` (an optimal tree shipped as data, core/solver/perfect.py; `strong` where the history has
left the tree or the space has none). Where no optimum is known, `strong` follows a shipped strong
tree (today's strong play with exact subtrees below a size, tools/perfect/strong.py) while the
history is on it, and computes its guess as above off it.

History is a sequence of (code, A, B), a code being any sequence of symbols of the alphabet
("0123" or ("1", "1", "2", "2", "3")). Guesses come back as tuples of symbols.
"""

from __future__ import annotations

import random
import threading
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from core.solver.engine import Engine, Spec, engine
from core.solver.levels import EASY as EASY
from core.solver.levels import LEVELS as LEVELS
from core.solver.levels import PERFECT as PERFECT
from core.solver.levels import STRONG as STRONG
from core.solver.perfect import Exact, Tree

BOOK_VERSION = 1
ROLLOUT_K = 8  # small candidate sets: the best few guesses are compared by playing them out
ROLLOUT_N = 120
ROLLOUT_PAIRS = 2_000_000
TREE_PAIRS = 30_000  # the greedy play-outs look at a narrower pool

# Work bounds for one decision: candidates scored (a fixed-seed sample beyond this) and
# guess × candidate pairs evaluated (the guess pool is sampled beyond this, candidates kept first).
EVAL_MAX = 4000
PAIRS_MAX = 6_000_000
BOOK_PAIRS_MAX = 60_000_000  # the opening book is computed once: it may look wider

History = Sequence[tuple[Sequence[str], int, int]]


@dataclass(frozen=True)
class Choice:
    """A chosen guess and why: candidates left, entropy (bits), worst part, whether it can win now."""

    guess: int
    candidates: int
    entropy: float
    worst: int
    is_candidate: bool


def rank(eng: Engine, cands: np.ndarray, guessed: Sequence[int] = (),
         pairs_max: int = PAIRS_MAX, eval_max: int = EVAL_MAX, top: int = ROLLOUT_K) -> list[Choice]:
    """The `top` best guesses of the (reduced) pool, best first (deterministic)."""
    n = len(cands)
    if n == 0:
        raise ValueError("no code is consistent with the feedback")
    used = np.zeros(eng.k, dtype=bool)
    for g in guessed:
        used[eng.codes[g]] = True
    pool = eng.canonical(used)
    if guessed:
        pool = pool[~eng.member(pool, np.asarray(guessed))]
    fixed = np.random.default_rng(n)  # a sample that depends only on the situation, never on the caller
    evals = cands if n <= eval_max else np.sort(fixed.choice(cands, eval_max, replace=False))
    pool = bounded_pool(pool, eng.member(pool, cands), max(1, pairs_max // len(evals)), fixed)
    ent, worst, _parts = eng.scores(pool, evals)
    is_c = eng.member(pool, cands)
    order = np.lexsort((pool, ~is_c, worst, -np.round(ent, 9)))  # the last key is the primary one
    return [Choice(int(pool[i]), n, float(ent[i]), int(worst[i]), bool(is_c[i])) for i in order[:top]]


def choose(eng: Engine, cands: np.ndarray, guessed: Sequence[int] = (),
           pairs_max: int = PAIRS_MAX, eval_max: int = EVAL_MAX) -> Choice:
    """The greedy strong guess for this candidate set: entropy, then worst part, then candidates first."""
    n = len(cands)
    if n <= 2:
        if n == 0:
            raise ValueError("no code is consistent with the feedback")
        return Choice(int(cands[0]), n, 1.0 if n == 2 else 0.0, 1, True)
    return rank(eng, cands, guessed, pairs_max, eval_max)[0]


def build_book(spec: Spec, pairs_max: int = BOOK_PAIRS_MAX) -> dict[str, Any]:
    """The opening book: the strong first guess and the strong second guess for every first feedback."""
    eng = engine(spec)
    first = choose(eng, eng.all, (), pairs_max).guess
    second: dict[str, str] = {}
    for fb, part in eng.partition(first, eng.all).items():
        if fb == spec.win:
            continue
        second[str(fb)] = eng.text(choose(eng, part, (first,), pairs_max).guess) if len(part) > 1 \
            else eng.text(int(part[0]))
    return {"version": BOOK_VERSION, "spec": spec.name, "first": eng.text(first), "second": second}


class Solver:
    """Plays one space. Thread-safe enough for worker threads: decisions are pure, the memo is a dict."""

    def __init__(self, spec: Spec, book: dict[str, Any] | None = None, tree: Tree | None = None,
                 strong_tree: Tree | None = None) -> None:
        self.spec = spec
        self.eng = engine(spec)
        self.tree = tree  # perfect play, where the space has one: its values are exact (Exact, /analyse)
        # the strong level's shipped tree, where the space has one: NOT optimal, so it never seeds
        # `exact` nor prices a guess; it only gives the strong guess while the history follows it
        self.strong_tree = strong_tree
        self._exact: Exact | None = None
        self._book = book
        self._book_lock = threading.Lock()
        self._memo: dict[tuple[tuple[int, int], ...], Choice] = {}
        # sets refined by a roll-out: at most this many codes, and codes × the space's size (the
        # strong trees' tool, tools/perfect/strong.py, widens them: it runs once, off line)
        self.rollout_n, self.rollout_pairs, self.rollout_k = ROLLOUT_N, ROLLOUT_PAIRS, ROLLOUT_K
        self._trees: dict[tuple[bytes, bytes], tuple[int, int]] = {}

    # ---------------------------------------------------------------- helpers
    def encode(self, history: History) -> tuple[tuple[int, int], ...]:
        return tuple((self.eng.index(code), self.spec.pack(a, b)) for code, a, b in history)

    def candidates(self, history: History) -> np.ndarray:
        """Indices of every code consistent with the history."""
        return self.eng.consistent(self.encode(history))

    def count(self, history: History) -> int:
        return len(self.candidates(history))

    @property
    def book(self) -> dict[str, Any]:
        with self._book_lock:
            if self._book is None:
                self._book = build_book(self.spec)
            return self._book

    # ---------------------------------------------------------------- levels
    def guess(self, history: History, level: str, rng: random.Random | None = None) -> tuple[str, ...]:
        if level == EASY:
            if rng is None:
                raise ValueError("the easy level needs an injected rng")
            return self.easy(history, rng)
        if level == STRONG:
            return self.strong(history)
        if level == PERFECT:
            return self.perfect(history)
        raise ValueError(f"unknown level {level!r}")

    def easy(self, history: History, rng: random.Random) -> tuple[str, ...]:
        """A uniformly random code consistent with all feedback so far."""
        cands = self.candidates(history)
        if len(cands) == 0:
            raise ValueError("no code is consistent with the feedback")
        return self.eng.code(int(cands[rng.randrange(len(cands))]))

    def strong(self, history: History) -> tuple[str, ...]:
        return self.eng.code(self.strong_move(self.encode(history)))

    def strong_move(self, hist: tuple[tuple[int, int], ...]) -> int:
        """The strong guess after an encoded history: the shipped strong tree's while the history
        follows it, else the strong choice computed now (`decide`)."""
        g = None if self.strong_tree is None else self.strong_tree.move(hist)
        return self.decide(hist).guess if g is None else g

    def perfect(self, history: History) -> tuple[str, ...]:
        """The tree's guess while the history follows it, else the strong guess."""
        hist = self.encode(history)
        g = None if self.tree is None else self.tree.move(hist)
        return self.eng.code(self.strong_move(hist) if g is None else g)

    @property
    def exact(self) -> Exact:
        """Exact values of candidate sets (for /analyse), knowing the tree's positions already."""
        if self._exact is None:
            tree = self.tree
            self._exact = Exact(self.spec) if tree is None else Exact(self.spec, tree.values, tree.openings)
        return self._exact

    def last_chance(self, history: History, level: str, rng: random.Random | None = None) -> tuple[str, ...]:
        """The guess when only one is left: only a hit counts then, so a code that can still be the
        secret — the level's own choice when it is one (all candidates are equally likely), else the
        first candidate."""
        g = self.guess(history, level, rng)
        cands = self.candidates(history)
        if len(cands) == 0:
            raise ValueError("no code is consistent with the feedback")
        return g if bool(self.eng.member(np.array([self.eng.index(g)]), cands)[0]) else self.eng.code(int(cands[0]))

    def decide(self, hist: tuple[tuple[int, int], ...]) -> Choice:
        """The strong choice after an encoded history (memoised: the strategy is a fixed tree)."""
        hit = self._memo.get(hist)
        if hit is not None:
            return hit
        book = self.book
        first = self.eng.index(book["first"])
        choice: Choice | None = None
        if not hist:
            choice = Choice(first, self.eng.size, 0.0, 0, True)
        elif len(hist) == 1 and hist[0][0] == first and str(hist[0][1]) in book["second"]:
            cands = self.eng.consistent(hist)
            g = self.eng.index(book["second"][str(hist[0][1])])
            choice = Choice(g, len(cands), 0.0, 0, bool(np.isin(g, cands)))
        if choice is None:
            choice = self._choose(self.eng.consistent(hist), [g for g, _ in hist])
        if len(self._memo) < 200_000:
            self._memo[hist] = choice
        return choice

    # ---------------------------------------------------------------- rollout for small sets
    def _choose(self, cands: np.ndarray, guessed: list[int]) -> Choice:
        """Greedy choice; for small candidate sets the best few greedy guesses are each played out
        (greedy below) and the one with the fewest total guesses, then the lower worst case, wins."""
        n = len(cands)
        if n <= 2 or n > self.rollout_n or n * self.eng.size > self.rollout_pairs:
            return choose(self.eng, cands, guessed)
        top = rank(self.eng, cands, guessed, top=self.rollout_k)
        scored = [(*self._split(c.guess, cands, guessed), i) for i, c in enumerate(top)]
        return top[min(scored)[2]]

    def _split(self, g: int, cands: np.ndarray, guessed: list[int]) -> tuple[int, int]:
        """(total guesses over every secret of `cands`, most guesses) when `g` is played now, greedy after."""
        total, worst = len(cands), 1
        for fb, part in self.eng.partition(g, cands).items():
            if fb != self.spec.win:
                t, w = self._tree(part, [*guessed, g])
                total, worst = total + t, max(worst, 1 + w)
        return total, worst

    def _tree(self, cands: np.ndarray, guessed: list[int]) -> tuple[int, int]:
        n = len(cands)
        if n <= 2:
            return (1, 1) if n == 1 else (3, 2)
        used = np.zeros(self.eng.k, dtype=bool)
        for g in guessed:
            used[self.eng.codes[g]] = True
        key = (cands.tobytes(), used.tobytes())
        hit = self._trees.get(key)
        if hit is None:
            hit = self._split(choose(self.eng, cands, guessed, TREE_PAIRS).guess, cands, guessed)
            if len(self._trees) < 500_000:
                self._trees[key] = hit
        return hit


def play(solver: Solver, secret: Sequence[str], level: str = STRONG, rng: random.Random | None = None,
         limit: int = 30) -> list[tuple[str, ...]]:
    """Let the solver crack `secret`; returns its guesses (the last one cracks it unless `limit` hit)."""
    spec, eng = solver.spec, solver.eng
    s = eng.index(secret)
    history: list[tuple[tuple[str, ...], int, int]] = []
    while len(history) < limit:
        g = solver.guess(history, level, rng)
        a, b = spec.unpack(int(eng.feedback(eng.index(g), np.array([s]))[0]))
        history.append((g, a, b))
        if a == spec.length:
            break
    return [h[0] for h in history]


def bounded_pool(pool: np.ndarray, is_candidate: np.ndarray, cap: int, rng: np.random.Generator) -> np.ndarray:
    """At most `cap` guesses to score, sorted: the possible answers first (they can win at once),
    the rest sampled from the others with the situation's fixed generator."""
    if len(pool) <= cap:
        return pool
    mine, others = pool[is_candidate], pool[~is_candidate]
    if len(mine) >= cap:
        return np.sort(rng.choice(mine, cap, replace=False))
    return np.sort(np.concatenate([mine, rng.choice(others, cap - len(mine), replace=False)]))
