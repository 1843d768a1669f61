"""The solver for the word game (Бык-корова, core/games/words/): candidates are dictionary words of
the game's length (passed in — the core loads no dictionary), feedback for both answer modes is
computed for many guess × candidate pairs at once, guess choice is the code games' heuristic.

Words are int arrays over the language's alphabet. Feedback uses the one-hot matrix-product trick of
engine.py: with `P` (letter s at position j) and `U` (letter s at least t times),
`[L·P_g, U_g] · [P_c, U_c]ᵀ = L·bulls + (bulls + cows) = bulls*(L+1) + cows` (the counts mode,
bulls and cows as in core.scoring.bulls_cows, letters as a multiset). The classic answers are a
4-valued function of it: got it (bulls = L, i.e. equal words), bull (bulls > 0), cow (a common
letter: bulls + cows > 0), miss.

Guess choice (`strong`): maximum entropy of the feedback partition over the candidates; ties → the
smaller worst-case part → a word that can still be the secret → the first word in the list. Work
bound per decision: at most EVAL_MAX candidates are scored (a sample beyond that) and at most
PAIRS_MAX guess × candidate pairs (the guess pool is sampled beyond that, candidates kept first).
Samples come from a generator seeded by the situation only (candidate count and history length), so
decisions are deterministic. `easy`: a uniformly random consistent candidate from an injected rng.

History: a sequence of (word, feedback) with feedback packed by `pack_counts(bulls, cows)` or
`pack_classic(answer)` (answer = "miss" | "cow" | "bull" | "got", the values of core.games.words.events.ClassicAnswer).
"""

from __future__ import annotations

import random
from collections.abc import Iterable, Sequence

import numpy as np

from core.solver.engine import partition_scores
from core.solver.strategy import EASY, STRONG, bounded_pool

CLASSIC = ("miss", "cow", "bull", "got")  # the classic answers, packed as their index here
EVAL_MAX = 3000  # candidates scored per decision (a seeded sample beyond this)
PAIRS_MAX = 3_000_000  # guess × candidate pairs scored per decision (guesses sampled beyond this)
MEMO_MAX = 100_000

WordHistory = Sequence[tuple[str, int]]


class WordSolver:
    """Plays the word game over one word list of one length, in one answer mode.

    `words`: the possible secrets; `guesses`: the words it may guess (default: `words`; the game's
    strict mode needs dictionary words). All of one length, over `alphabet`."""

    def __init__(self, words: Iterable[str], alphabet: str, counts: bool,
                 guesses: Iterable[str] | None = None) -> None:
        cands = list(dict.fromkeys(words))
        pool = cands if guesses is None else list(dict.fromkeys(guesses))
        if not cands:
            raise ValueError("no words")
        self.length = n = len(cands[0])
        self.alphabet = alphabet
        self.counts_mode = counts
        self._letter = {c: i for i, c in enumerate(alphabet)}
        self.words = list(dict.fromkeys([*cands, *pool]))  # the universe: candidates first
        self._index = {w: i for i, w in enumerate(self.words)}
        self.codes = self.encode(self.words)
        self.all = np.arange(len(cands))  # the candidates are universe indices 0..len-1
        self.pool = np.array(sorted(self._index[w] for w in pool), dtype=np.int64)
        k = len(alphabet)
        left, right = self._features(self.codes)
        # drop feature columns no word uses (long alphabets × length: most threshold columns are empty)
        self._cols = np.flatnonzero(right.any(axis=0))
        self._left, self._right = left[:, self._cols], right[:, self._cols]
        self._k = k
        self.win = n * (n + 1) if counts else CLASSIC.index("got")
        self.n_fb = (n + 1) * (n + 1) if counts else len(CLASSIC)
        # packed counts → classic answer index
        a, b = np.divmod(np.arange((n + 1) * (n + 1)), n + 1)
        self._to_classic = np.where(a == n, 3, np.where(a > 0, 2, np.where(a + b > 0, 1, 0))).astype(np.int8)
        self._memo: dict[tuple[tuple[str, int], ...], int] = {}
        self._last: tuple[tuple[tuple[str, int], ...], np.ndarray] = ((), self.all)  # the last filtered history

    # ---------------------------------------------------------------- encoding
    def encode(self, words: Sequence[str]) -> np.ndarray:
        """(N, L) letter indices; ValueError for a wrong length or a letter outside the alphabet."""
        out = np.empty((len(words), self.length), dtype=np.int16)
        for i, w in enumerate(words):
            if len(w) != self.length:
                raise ValueError(f"wrong length: {w!r}")
            try:
                out[i] = [self._letter[c] for c in w]
            except KeyError:
                raise ValueError(f"letter not in the alphabet: {w!r}") from None
        return out

    def _features(self, codes: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        n, k, rows = self.length, len(self.alphabet), np.arange(len(codes))
        pos = np.zeros((len(codes), n * k), dtype=np.float32)
        cnt = np.zeros((len(codes), k), dtype=np.int16)
        for j in range(n):
            pos[rows, j * k + codes[:, j]] = 1
            np.add.at(cnt, (rows, codes[:, j]), 1)
        thr = np.concatenate([cnt >= t for t in range(1, n + 1)], axis=1).astype(np.float32)
        return np.concatenate([pos * n, thr], axis=1), np.concatenate([pos, thr], axis=1)

    def _guess_rows(self, guess: int | str) -> np.ndarray:
        """The left feature row of a guess: a universe index, or any word of the alphabet."""
        if isinstance(guess, str):
            i = self._index.get(guess)
            if i is None:
                row: np.ndarray = self._features(self.encode([guess]))[0][0, self._cols]
                return row
            guess = i
        known: np.ndarray = self._left[guess]
        return known

    # ---------------------------------------------------------------- feedback
    def _mode(self, packed: np.ndarray) -> np.ndarray:
        return packed if self.counts_mode else self._to_classic[packed]

    def feedback(self, guess: int | str, cands: np.ndarray | None = None) -> np.ndarray:
        """Feedback (of this solver's mode) of one guess against candidates (universe indices;
        default every candidate)."""
        right = self._right[self.all if cands is None else cands]
        return self._mode(np.rint(right @ self._guess_rows(guess)).astype(np.int8))

    def feedback_counts(self, guesses: np.ndarray, cands: np.ndarray) -> np.ndarray:
        """(G, N) packed bulls*(L+1) + cows of each guess against each candidate (both universe indices)."""
        packed: np.ndarray = np.rint(self._left[guesses] @ self._right[cands].T).astype(np.int8)
        return packed

    def feedback_block(self, guesses: np.ndarray, cands: np.ndarray) -> np.ndarray:
        """(G, N) feedback of this solver's mode."""
        return self._mode(self.feedback_counts(guesses, cands))

    def pack_counts(self, bulls: int, cows: int) -> int:
        return bulls * (self.length + 1) + cows

    @staticmethod
    def pack_classic(answer: str) -> int:
        return CLASSIC.index(str(answer))

    def unpack(self, fb: int) -> tuple[int, int] | str:
        return divmod(int(fb), self.length + 1) if self.counts_mode else CLASSIC[int(fb)]

    def answer(self, secret: str, guess: str) -> int:
        """The packed feedback the game gives when `guess` meets `secret` (any two words of the alphabet)."""
        left, right = self._features(self.encode([guess, secret]))
        packed = np.array([round(float(left[0] @ right[1]))], dtype=np.int8)
        return int(self._mode(packed)[0])

    # ---------------------------------------------------------------- candidates
    def filter(self, cands: np.ndarray, guess: int | str, fb: int) -> np.ndarray:
        kept: np.ndarray = cands[self.feedback(guess, cands) == fb]
        return kept

    def candidates(self, history: WordHistory) -> np.ndarray:
        """Universe indices of every candidate consistent with the history."""
        key = tuple((w, int(fb)) for w, fb in history)
        last_key, last = self._last
        if key[:len(last_key)] == last_key:  # a game in progress: filter by the new answers only
            cands, done = last, len(last_key)
        else:
            cands, done = self.all, 0
        for word, fb in key[done:]:
            cands = self.filter(cands, word, fb)
        self._last = (key, cands)  # one atomic assignment: safe enough for worker threads
        return cands

    def count(self, history: WordHistory) -> int:
        return len(self.candidates(history))

    def remaining(self, history: WordHistory) -> list[str]:
        return [self.words[i] for i in self.candidates(history)]

    # ---------------------------------------------------------------- scoring
    def scores(self, pool: np.ndarray, cands: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """For each guess of `pool`: entropy (bits) of its feedback over `cands`, and the largest part."""
        ent, worst, _parts = partition_scores(self.feedback_block, self.n_fb, pool, cands)
        return ent, worst

    def choose(self, cands: np.ndarray, guessed: Sequence[str] = (), depth: int = 0) -> int:
        """The strong guess (a universe index) for this candidate set."""
        n = len(cands)
        if n == 0:
            raise ValueError("no word is consistent with the feedback")
        if n <= 2:
            return int(cands[0])
        fixed = np.random.default_rng([n, depth])  # depends only on the situation, never on the caller
        evals = cands if n <= EVAL_MAX else np.sort(fixed.choice(cands, EVAL_MAX, replace=False))
        pool = self.pool
        said = [self._index[w] for w in guessed if w in self._index]
        if said:
            pool = pool[~np.isin(pool, said)]
        pool = bounded_pool(pool, np.isin(pool, cands), max(1, PAIRS_MAX // len(evals)), fixed)
        ent, worst = self.scores(pool, evals)
        is_c = np.isin(pool, cands)
        best = np.lexsort((pool, ~is_c, worst, -np.round(ent, 9)))[0]  # the last key is the primary one
        return int(pool[best])

    # ---------------------------------------------------------------- levels
    def guess(self, history: WordHistory, level: str, rng: random.Random | None = None) -> str:
        if level == EASY:
            if rng is None:
                raise ValueError("the easy level needs an injected rng")
            return self.easy(history, rng)
        if level == STRONG:
            return self.strong(history)
        raise ValueError(f"unknown level {level!r}")

    def easy(self, history: WordHistory, rng: random.Random) -> str:
        """A uniformly random word consistent with all feedback so far."""
        cands = self.candidates(history)
        if len(cands) == 0:
            raise ValueError("no word is consistent with the feedback")
        return self.words[int(cands[rng.randrange(len(cands))])]

    def strong(self, history: WordHistory) -> str:
        """The strong next guess (memoised per history: the strategy is a fixed tree)."""
        key = tuple((w, int(fb)) for w, fb in history)
        hit = self._memo.get(key)
        if hit is None:
            hit = self.choose(self.candidates(history), [w for w, _ in history], len(history))
            if len(self._memo) < MEMO_MAX:
                self._memo[key] = hit
        return self.words[hit]


def play_word(solver: WordSolver, secret: str, level: str = STRONG, rng: random.Random | None = None,
              limit: int = 50) -> list[str]:
    """Let the solver find `secret` (one of its candidates); returns its guesses, the last one the secret
    unless `limit` was hit."""
    s = solver._index.get(secret)
    if s is None or s >= len(solver.all):
        raise ValueError(f"not a candidate: {secret!r}")
    history: list[tuple[str, int]] = []
    while len(history) < limit:
        g = solver.guess(history, level, rng)
        fb = int(solver.feedback(g, np.array([s]))[0])
        history.append((g, fb))
        if g == secret:
            break
    return [w for w, _ in history]
