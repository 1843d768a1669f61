"""The feedback engine for code games: every code of a space as an int array, feedback of one or
many guesses against all candidates at once, partitions by feedback.

A space is an alphabet of K symbols, a length L and whether symbols may repeat. Codes are
indexed in lexicographic order of the alphabet (index 0 is the smallest code).

Feedback (A, B) is packed into one small int `A*(L+1) + B`. It is computed by ONE matrix product
of one-hot encodings (the "one-hot matrix-product trick"):

- `P[c, j*K + s] = 1` when code c has symbol s at position j, so `P_g · P_c = A` (exact matches);
- `U[c, s*L + t-1] = 1` when code c holds symbol s at least t times, so
  `U_g · U_c = Σ_s min(count_g(s), count_c(s)) = A + B` (the per-symbol count minima);

hence `[L·P_g, U_g] · [P_c, U_c]ᵀ = L·A + (A + B) = A*(L+1) + B`. All values are small
integers, exact in float32, and the product runs in BLAS.
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Callable, Sequence
from functools import lru_cache

import numpy as np

from core.solver.spaces import DIGITS as DIGITS
from core.solver.spaces import LOGIK as LOGIK
from core.solver.spaces import MASTERMIND as MASTERMIND
from core.solver.spaces import Spec as Spec
from core.solver.spaces import digits as digits

# a hard cap on the elements of one (guesses × candidates) block, to bound memory
# (≈ 12 MB float32, ≈ 60 MB with the histogram temporaries)
BLOCK = 3_000_000


class Engine:
    """Every code of a space and the feedback between them."""

    def __init__(self, spec: Spec) -> None:
        self.spec = spec
        k, n = len(spec.alphabet), spec.length
        self.k, self.n = k, n
        rng = range(k)
        it = itertools.product(rng, repeat=n) if spec.repeats else itertools.permutations(rng, n)
        self.codes = np.array(list(it), dtype=np.int8).reshape(-1, n)  # (N, L) symbol indices
        self.size = len(self.codes)
        self.counts = np.zeros((self.size, k), dtype=np.int8)
        for j in range(n):
            np.add.at(self.counts, (np.arange(self.size), self.codes[:, j]), 1)
        # index of a code by its radix-K value
        radix = k ** np.arange(n - 1, -1, -1, dtype=np.int64)
        self._key = self.codes.astype(np.int64) @ radix
        self._lookup = np.full(k**n, -1, dtype=np.int64)
        self._lookup[self._key] = np.arange(self.size)
        self._radix = radix
        # one-hot features; only threshold columns that can be non-zero
        tmax = n if spec.repeats else 1
        pos = np.zeros((self.size, n * k), dtype=np.float32)
        for j in range(n):
            pos[np.arange(self.size), j * k + self.codes[:, j]] = 1
        thr = np.concatenate([(self.counts >= t) for t in range(1, tmax + 1)], axis=1).astype(np.float32)
        self._left = np.ascontiguousarray(np.concatenate([pos * n, thr], axis=1))  # guesses
        self._right = np.ascontiguousarray(np.concatenate([pos, thr], axis=1))  # candidates
        self.all = np.arange(self.size)
        self.n_fb = (n + 1) * (n + 1)
        self._canonical: dict[bytes, np.ndarray] = {}  # at most 2^K entries

    def member(self, subset: np.ndarray, of: np.ndarray) -> np.ndarray:
        """For each code of `subset`, whether it is in `of` (a bool mask; faster than np.isin)."""
        mask = np.zeros(self.size, dtype=bool)
        mask[of] = True
        picked: np.ndarray = mask[subset]
        return picked

    # ---------------------------------------------------------------- codes
    def index(self, code: Sequence[str]) -> int:
        """The index of a code given as a sequence of symbols ("0123" or ("1", "2", …))."""
        sym = self.spec.alphabet
        if len(code) != self.n:
            raise ValueError("wrong length")
        try:
            key = sum(sym.index(c) * int(r) for c, r in zip(code, self._radix, strict=True))
        except ValueError:
            raise ValueError(f"symbol not in alphabet: {code!r}") from None
        i = int(self._lookup[key])
        if i < 0:
            raise ValueError(f"not a code of this space: {code!r}")
        return i

    def code(self, i: int) -> tuple[str, ...]:
        return tuple(self.spec.alphabet[s] for s in self.codes[int(i)])

    def text(self, i: int) -> str:
        return "".join(self.code(i))

    # ---------------------------------------------------------------- feedback
    def feedback(self, guess: int, cands: np.ndarray | None = None) -> np.ndarray:
        """Packed feedback of one guess against the candidates (all codes when None)."""
        right = self._right if cands is None else self._right[cands]
        packed: np.ndarray = np.rint(right @ self._left[guess]).astype(np.int8)
        return packed

    def feedback_block(self, guesses: np.ndarray, cands: np.ndarray) -> np.ndarray:
        """(G, n) packed feedback of each guess against each candidate (one block, no chunking)."""
        if len(guesses) * 4 > self.size and len(cands) * self.size <= BLOCK:  # most codes: all, then pick
            full = self._right[cands] @ self._left.T
            block: np.ndarray = np.rint(full[:, guesses].T).astype(np.int8)
        else:
            block = np.rint(self._left[guesses] @ self._right[cands].T).astype(np.int8)
        return block

    def feedback_reference(self, guess: int, cands: np.ndarray) -> np.ndarray:
        """The same by explicit per-symbol count minima (slower; a cross-check for tests)."""
        a = (self.codes[cands] == self.codes[guess]).sum(axis=1)
        t = np.minimum(self.counts[cands], self.counts[guess]).sum(axis=1)
        packed: np.ndarray = (a * (self.n + 1) + (t - a)).astype(np.int8)
        return packed

    def filter(self, cands: np.ndarray, guess: int, fb: int) -> np.ndarray:
        """The candidates consistent with feedback `fb` to `guess`."""
        kept: np.ndarray = cands[self.feedback(guess, cands) == fb]
        return kept

    def consistent(self, history: Sequence[tuple[int, int]]) -> np.ndarray:
        """The codes consistent with every (guess index, packed feedback) so far."""
        cands = self.all
        for g, fb in history:
            cands = self.filter(cands, g, fb)
        return cands

    def partition(self, guess: int, cands: np.ndarray) -> dict[int, np.ndarray]:
        """The candidates split by the feedback they would give to `guess`."""
        fb = self.feedback(guess, cands)
        return {int(v): cands[fb == v] for v in np.unique(fb)}

    # ---------------------------------------------------------------- scoring
    def scores(self, pool: np.ndarray, cands: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """For each guess of `pool`: entropy (bits) of the feedback over `cands`, the largest part,
        and the number of parts."""
        return partition_scores(self.feedback_block, self.n_fb, pool, cands)

    def canonical(self, used: np.ndarray) -> np.ndarray:
        """Codes that are canonical under permutations of the symbols not in `used` (a bool mask over
        the alphabet): unused symbols appear in the order of the unused list. Every code is equivalent
        (same feedback structure against any set closed under those permutations) to one of them."""
        key = used.tobytes()
        hit = self._canonical.get(key)
        if hit is None:
            hit = self._canonical[key] = self._canonical_codes(used)
        return hit

    def _canonical_codes(self, used: np.ndarray) -> np.ndarray:
        unused = np.flatnonzero(~used)
        if len(unused) <= 1:
            return self.all
        codes = self.codes
        ok = np.ones(self.size, dtype=bool)
        seen = np.zeros((self.size, self.k), dtype=bool)
        count = np.zeros(self.size, dtype=np.int64)  # distinct unused symbols met so far
        rows = np.arange(self.size)
        for j in range(self.n):
            s = codes[:, j]
            new = ~used[s] & ~seen[rows, s]
            want = unused[np.minimum(count, len(unused) - 1)]
            ok &= ~new | (s == want)
            count += new
            seen[rows, s] = True
        return self.all[ok]


@lru_cache(maxsize=16)
def engine(spec: Spec) -> Engine:
    """One engine per space, built once per process."""
    return Engine(spec)


def partition_scores(feedback_block: Callable[[np.ndarray, np.ndarray], np.ndarray], n_fb: int,
                     pool: np.ndarray, cands: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """For each guess of `pool`: entropy (bits) of its feedback over `cands`, the largest part, and
    the number of parts — in blocks of guesses so that one feedback matrix stays about BLOCK
    elements (shared by the code and the word solvers; `feedback_block` is theirs)."""
    n = len(cands)
    clog = np.zeros(n + 1)
    clog[1:] = np.arange(1, n + 1) * np.log2(np.arange(1, n + 1))
    ent = np.empty(len(pool))
    worst = np.empty(len(pool), dtype=np.int64)
    parts = np.empty(len(pool), dtype=np.int64)
    step = max(1, BLOCK // max(n, 1))
    for lo in range(0, len(pool), step):
        g = pool[lo:lo + step]
        fb = feedback_block(g, cands).astype(np.int64)
        fb += (np.arange(len(g)) * n_fb)[:, None]
        hist = np.bincount(fb.ravel(), minlength=len(g) * n_fb).reshape(len(g), n_fb)
        ent[lo:lo + step] = math.log2(n) - clog[hist].sum(axis=1) / n
        worst[lo:lo + step] = hist.max(axis=1)
        parts[lo:lo + step] = (hist > 0).sum(axis=1)
    return ent, worst, parts
