"""Perfect play: an optimal decision tree (guess → feedback → next guess) read from its shipped text,
its moves and the value of each of its positions, and the exact value of a small candidate set by
exhaustive search (for positions a player's own guesses reach off the tree).

The **value** of a candidate set S is the fewest guesses, summed over every code of S, that any
strategy needs to find each code (the last guess, which hits, counts): `cost(S) = |S| + min over
guesses g of Σ cost(part)` over the parts of S by feedback to g, the part g itself wins not counted.
`cost(S) / |S|` is the expected number of guesses still needed under perfect play.

The text (tools/perfect/search.cpp writes it, tools/perfect/build.py ships it gzipped under
bot/data/solver-trees/) is the tree in preorder: one guess per node whose set has two or more codes; a
node's children follow in ascending packed feedback; a part of one code has no line (its guess is
that code). Reading it needs the engine only: each node's parts are the partition of its set.

Beside a tree a space may ship its **openings** (`search.cpp … openings`): the value and best guess
of every set that two guesses leave, the first being the tree's, one second guess per orbit of the
renamings that fix the first. They price a player's second guess, which has mostly left the tree
and whose parts are too big to search here.
"""

from __future__ import annotations

import itertools
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from core.solver.engine import Engine, engine
from core.solver.spaces import Spec

Hist = tuple[tuple[int, int], ...]  # (guess index, packed feedback), as Solver.encode gives


@dataclass(frozen=True)
class Node:
    """A position of the tree: its guess, how many codes are still possible, and the guesses the tree
    needs from here summed over those codes (its value), and the most it needs for one of them."""

    guess: int
    size: int
    total: int
    worst: int


class Tree:
    """A strategy of one space, decoded from its text (ValueError when the text does not describe a
    strategy that finds every code): an optimal one for the perfect trees, whose `values` are then
    exact; the shipped strong trees (tools/perfect/strong.py) use the same format but are not optimal,
    so their values are only what that strategy needs."""

    def __init__(self, spec: Spec, text: str, openings: str | None = None) -> None:
        self.spec = spec
        self.eng = engine(spec)
        self.nodes: dict[Hist, Node] = {}
        self.values: dict[bytes, tuple[int, int]] = {}  # a candidate set (sorted indices) → (value, guess)
        lines = text.split()
        end = self._read(self.eng.all, (), lines, 0)
        if end != len(lines):
            raise ValueError(f"{len(lines) - end} lines left over in the tree of {spec.name}")
        root = self.nodes[()]
        self.total, self.worst = root.total, root.worst
        self.openings = None if openings is None else Openings(spec, root.guess, openings)

    def _read(self, cands: np.ndarray, hist: Hist, lines: list[str], pos: int) -> int:
        if pos >= len(lines):
            raise ValueError(f"the tree of {self.spec.name} ends early")
        g = self.eng.index(lines[pos])
        pos += 1
        total, worst = len(cands), 1
        parts = self.eng.partition(g, cands)
        if len(parts) == 1 and self.spec.win not in parts:
            raise ValueError(f"the tree of {self.spec.name} guesses {lines[pos - 1]}, which learns nothing")
        for fb in sorted(parts):
            part = parts[fb]
            if fb == self.spec.win:
                continue
            h = (*hist, (g, fb))
            if len(part) == 1:
                self.nodes[h] = Node(int(part[0]), 1, 1, 1)
            else:
                pos = self._read(part, h, lines, pos)
            child = self.nodes[h]
            total, worst = total + child.total, max(worst, 1 + child.worst)
        self.nodes[hist] = Node(g, len(cands), total, worst)
        self.values[cands.tobytes()] = (total, g)
        return pos

    def move(self, hist: Hist) -> int | None:
        """The tree's guess after this history, or None when the history has left the tree."""
        node = self.nodes.get(hist)
        return None if node is None else node.guess

    def replay(self, secret: int) -> int:
        """How many guesses the tree needs for this code."""
        hist: Hist = ()
        for n in range(1, self.eng.size + 1):
            g = self.nodes[hist].guess
            fb = int(self.eng.feedback(g, np.array([secret]))[0])
            if fb == self.spec.win:
                return n
            hist = (*hist, (g, fb))
        raise AssertionError("unreachable: every guess of the tree splits its set")


def replay_all(tree: Tree) -> np.ndarray:
    """How many guesses the tree needs for each code of the space (by index), every secret played at
    once: at each node the node's guess against the secrets that reach it, in one feedback call (the
    same play as `Tree.replay`, a secret after another; a Logik tree of 32 768 codes in about a second).
    KeyError when a secret reaches a position the tree has no guess for."""
    eng, win = tree.eng, tree.spec.win
    out = np.zeros(eng.size, dtype=np.int64)
    stack: list[tuple[Hist, np.ndarray, int]] = [((), eng.all, 1)]
    while stack:
        hist, secrets, depth = stack.pop()
        g = tree.nodes[hist].guess
        fb = eng.feedback(g, secrets)
        for v in np.unique(fb):
            reach = secrets[fb == v]
            if int(v) == win:
                out[reach] = depth
            else:
                stack.append(((*hist, (g, int(v))), reach, depth + 1))
    return out


class Openings:
    """The exact value and best guess of every set of 3+ codes that the tree's first guess and any
    second guess leave (ValueError when the text does not fit the space). A second guess is looked up
    by the one of its orbit that the table holds: a renaming that fixes the first guess (a permutation
    of the positions with the matching renaming of its digits, any renaming of the other digits) maps
    the player's set onto the table's, so the value is the same and the best guess maps back."""

    def __init__(self, spec: Spec, first: int, text: str) -> None:
        self.eng = eng = engine(spec)
        self.first = first
        self.table: dict[tuple[int, int, int], tuple[int, int]] = {}
        for line in text.splitlines():
            second, f1, f2, value, best = line.split()
            self.table[(eng.index(second), int(f1), int(f2))] = (int(value), eng.index(best))
        f = eng.codes[first]
        if spec.repeats or len(set(f.tolist())) != eng.n:
            raise ValueError("openings are kept for spaces without repeats")
        # (positions, digits) with code[i] → renamed[positions[i]] = digits[code[i]], fixing `first`
        self._fixing: list[tuple[np.ndarray, np.ndarray]] = []
        for perm in itertools.permutations(range(eng.n)):
            digits = np.full(eng.k, -1, dtype=np.int64)
            for i, j in enumerate(perm):
                digits[f[i]] = f[j]
            self._fixing.append((np.array(perm), digits))
        self._free = np.array(sorted(set(range(eng.k)) - set(f.tolist())))

    def lookup(self, second: int, f1: int, f2: int) -> tuple[int, int] | None:
        """(value, best guess) of the set with first feedback f1 and feedback f2 to `second`, or None
        when the table has no such set (fewer than 3 codes, or `second` is the first guess)."""
        eng, code = self.eng, self.eng.codes[second]
        best: tuple[int, np.ndarray, np.ndarray] | None = None
        for positions, fixed in self._fixing:
            digits = fixed.copy()
            free = iter(self._free)
            for x in code[np.argsort(positions)]:  # the other digits as they appear in the renamed code
                if digits[x] < 0:
                    digits[x] = next(free)
            rest = iter(sorted(set(self._free.tolist()) - set(digits[self._free].tolist())))
            for x in self._free:
                if digits[x] < 0:
                    digits[x] = next(rest)
            renamed = np.empty(eng.n, dtype=np.int64)
            renamed[positions] = digits[code]
            index = self._index(renamed)
            if best is None or index < best[0]:
                best = (index, positions, digits)
        assert best is not None
        hit = self.table.get((best[0], f1, f2))
        if hit is None:
            return None
        value, guess = hit
        _, positions, digits = best
        back = np.empty(eng.k, dtype=np.int64)
        back[digits] = np.arange(eng.k)
        return value, self._index(back[eng.codes[guess][positions]])

    def _index(self, digits: np.ndarray) -> int:
        return self.eng.index([self.eng.spec.alphabet[d] for d in digits])


# ---------------------------------------------------------------- exact values of small sets

def ideal_bounds(eng: Engine) -> np.ndarray:
    """A lower bound of the value of any set of n codes, by n: an ideal tree in which every node wins
    one code and splits the others into as many parts as there are non-winning feedbacks."""
    length = eng.spec.length
    b = (length + 1) * (length + 2) // 2 - 2  # A + B ≤ L, but never (L-1, 1) nor the win
    out = np.zeros(eng.size + 1, dtype=np.int64)
    for n in range(1, eng.size + 1):
        left, cap, total, d = n, 1, 0, 1
        while left > 0:
            take = min(left, cap)
            total, left, cap, d = total + take * d, left - take, cap * b, d + 1
        out[n] = total
    return out


class Exact:
    """The exact value of candidate sets by branch and bound over the digit-symmetry-reduced guesses
    (the method of tools/perfect/search.cpp, in numpy), memoised per set. `budget` bounds the sets
    searched per call: beyond it the call gives up (None) rather than take long."""

    MEMO_MAX = 200_000  # sets remembered at most (then the memo starts again from the known ones)

    def __init__(self, spec: Spec, known: dict[bytes, tuple[int, int]] | None = None,
                 openings: Openings | None = None) -> None:
        self.eng = engine(spec)
        self.openings = openings
        self.win = spec.win
        self.lb = ideal_bounds(self.eng)
        self.known = dict(known or {})
        # set → (value, exact, best guess) or (lower bound, False, -1)
        self.memo: dict[bytes, tuple[int, bool, int]] = {}
        self._reset()
        self._left = 0

    def _reset(self) -> None:
        self.memo = {key: (v, True, g) for key, (v, g) in self.known.items()}

    def best(self, cands: np.ndarray) -> int | None:
        """The best guess of a set `value` has solved, else None."""
        s = np.sort(cands)
        if len(s) <= 2:
            return int(s[0]) if len(s) else None
        hit = self.memo.get(s.tobytes())
        return hit[2] if hit is not None and hit[1] else None

    def value(self, cands: np.ndarray, guessed: Sequence[int] = (), budget: int = 20_000,
              largest: int | None = None) -> int | None:
        """The value of this candidate set, or None when the search would search more than `budget` sets
        (or the set is not known and has more than `largest` codes)."""
        if self.openings is not None and len(guessed) == 2 and guessed[0] == self.openings.first and len(cands):
            one = cands[:1]
            f1, f2 = (int(self.eng.feedback(g, one)[0]) for g in guessed)
            opening = self.openings.lookup(guessed[1], f1, f2)
            if opening is not None:
                self.memo[np.sort(cands).tobytes()] = (opening[0], True, opening[1])
                return opening[0]
        if largest is not None and len(cands) > largest:
            hit = self.memo.get(np.sort(cands).tobytes())
            return hit[0] if hit is not None and hit[1] else None
        self._left = budget
        if len(self.memo) > self.MEMO_MAX:
            self._reset()
        try:
            return self._solve(np.sort(cands), list(guessed), 1 << 60)
        except _OutOfBudget:
            return None

    def _solve(self, s: np.ndarray, guessed: list[int], ub: int) -> int:
        n = len(s)
        if n <= 2:
            return 1 if n == 1 else 3
        lo = int(self.lb[n])
        if lo >= ub:
            return lo
        key = s.tobytes()
        hit = self.memo.get(key)
        if hit is not None:
            if hit[1] or hit[0] >= ub:
                return hit[0]
            lo = max(lo, hit[0])
        self._left -= 1
        if self._left < 0:
            raise _OutOfBudget
        eng = self.eng
        used = np.zeros(eng.k, dtype=bool)
        for g in guessed:
            used[eng.codes[g]] = True
        pool = _distinct_on(eng, eng.canonical(used), s)
        fb = eng.feedback_block(pool, s).astype(np.int64)
        nf = eng.n_fb
        hist = np.bincount((fb + (np.arange(len(pool)) * nf)[:, None]).ravel(),
                           minlength=len(pool) * nf).reshape(len(pool), nf)
        hist[:, self.win] = 0
        bounds = n + self.lb[hist].sum(axis=1)
        useful = hist.max(axis=1) < n
        in_s = eng.member(pool, s)
        if not useful.any():
            raise AssertionError("no guess splits a set of 2+ codes")
        lo = max(lo, int(bounds[useful].min()))
        order = np.lexsort((pool, ~in_s, bounds))
        best, best_g = ub, -1
        for i in order:
            if not useful[i]:
                continue
            if bounds[i] >= best:
                break
            g = int(pool[i])
            row = fb[i]
            # smallest parts first: their exact values use up the slack of the bounds before the big
            # part is searched, so a guess that cannot win is refuted with a tight budget
            parts = sorted((s[row == v] for v in np.unique(row) if v != self.win), key=len)
            total, rest = n, sum(int(self.lb[len(p)]) for p in parts)
            over = False
            for p in parts:
                rest -= int(self.lb[len(p)])
                budget = best - total - rest
                v = self._solve(p, [*guessed, g], budget)
                total += v
                if v >= budget:
                    over = True
                    break
            if not over:
                best, best_g = total, g
                if best <= lo:
                    break
        if best_g >= 0:
            self.memo[key] = (best, True, best_g)
            return best
        bound = max(lo, ub)
        self.memo[key] = (bound, False, -1)
        return bound


def _distinct_on(eng: Engine, pool: np.ndarray, s: np.ndarray) -> np.ndarray:
    """The guesses of `pool` that split the set `s` differently (the first of each kind): symbols that
    no code of `s` holds score neither A nor B, so guesses that differ only in which of them they use
    split `s` alike."""
    present = np.zeros(eng.k, dtype=bool)
    present[eng.codes[s].ravel()] = True
    if present.all():
        return pool
    sym = eng.codes[pool].astype(np.int64)
    sym[~present[sym]] = eng.k
    keys = sym @ ((eng.k + 1) ** np.arange(eng.n, dtype=np.int64))
    _, first = np.unique(keys, return_index=True)
    return pool[np.sort(first)]


class _OutOfBudget(Exception):
    pass
