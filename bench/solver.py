"""Solver benchmark: every secret of a space (a seeded sample of 2,000 for the big spaces) played by
the easy, the strong and (where the space ships a tree, bot/data/solver-trees/) the perfect level; where
the space ships a strong tree, the strong level plays it ("strong·tree", a lookup: every secret of
the space, also the big ones) and today's computed strong level ("strong") is shown beside it;
prints guesses (mean, worst, distribution), time per game and per decision, peak memory and the raw
feedback rate, next to the published references.

    python -m bench.solver                 # everything (several minutes on 2 cores)
    python -m bench.solver --only 4 logik  # some spaces: 3 3r 4 4r 5 5r logik mm
    python -m bench.solver --sample 300    # smaller samples for the big spaces
    python -m bench.solver --only w-en w-ru --word-sample 300   # the word game (Бык-корова) only

Nothing here is asserted; it prints what it measured. The strong level memoises its decisions (the
strategy is a fixed tree), so "p50/p99" are over every decision of the run and "cold" only over the
decisions met for the first time (what a single live game pays).
"""

from __future__ import annotations

import argparse
import random
import resource
import sys
import time
from collections import Counter
from pathlib import Path
from typing import Any

import numpy as np

from bot.solver.book import load_book, load_strong_tree, load_tree
from core.solver import EASY, LOGIK, MASTERMIND, PERFECT, STRONG, Solver, Spec, digits
from core.solver.engine import engine
from core.solver.words import WordSolver, play_word

SPACES: dict[str, Spec] = {
    "3": digits(3, False), "3r": digits(3, True), "4": digits(4, False), "4r": digits(4, True),
    "5": digits(5, False), "5r": digits(5, True), "logik": LOGIK, "mm": MASTERMIND,
}
TITLES = {"3": "1A2B 3 digits", "3r": "1A2B 3 digits, repeats", "4": "1A2B 4 digits", "4r": "1A2B 4 digits, repeats",
          "5": "1A2B 5 digits", "5r": "1A2B 5 digits, repeats", "logik": "Logik 8 × 5", "mm": "Mastermind 6 × 4"}
REFERENCES = {
    "3": "optimum 3575/720 = 4.9653, worst 7 (exhaustive search, tools/perfect)",
    "3r": "optimum 5242/1000 = 5.2420, worst 7 (exhaustive search, tools/perfect)",
    "4": "optimum 26274/5040 = 5.2131, worst 7 (Tanaka 1996, \"An optimal MOO strategy\"; "
         "the exhaustive search, tools/perfect, finds the same)",
    "mm": "Knuth 5801/1296 = 4.476, max 5; optimum 5625/1296 = 4.340 (Koyama & Lai 1993)",
    "logik": "best published heuristic ≈ 5.485 (entropy), max 7; optimum unknown",
}
CACHE = Path(__file__).resolve().parent.parent / "data" / "solver-cache"
WORD_GAMES = {"w-en": "en", "w-ru": "ru"}  # the word game: 5 letters, both answer modes
WORD_LENGTH = 5


def secrets_for(spec: Spec, sample: int, seed: int) -> list[int]:
    size = engine(spec).size
    if size <= 5040:
        return list(range(size))
    return sorted(random.Random(seed).sample(range(size), sample))


def run(solver: Solver, secrets: list[int], level: str, seed: int) -> dict[str, Any]:
    spec, eng = solver.spec, solver.eng
    rng = random.Random(seed)
    lens: list[int] = []
    decisions: list[float] = []
    cold: list[float] = []  # decisions the strong memo did not know yet (the cost of a first visit)
    t0 = time.perf_counter()
    for s in secrets:
        history: list[tuple[tuple[str, ...], int, int]] = []
        while True:
            hist = solver.encode(history)
            known = level == STRONG and (hist in solver._memo or (
                solver.strong_tree is not None and solver.strong_tree.move(hist) is not None))
            t = time.perf_counter()
            g = solver.guess(history, level, rng)
            decisions.append(time.perf_counter() - t)
            if not known:
                cold.append(decisions[-1])
            a, b = spec.unpack(int(eng.feedback(eng.index(g), np.array([s]))[0]))
            history.append((g, a, b))
            if a == spec.length:
                break
        lens.append(len(history))
    total = time.perf_counter() - t0
    ms = np.array(decisions) * 1000
    cms = np.array(cold or [0.0]) * 1000
    return {"cp50": float(np.percentile(cms, 50)), "cp99": float(np.percentile(cms, 99)),
            "games": len(lens), "sum": sum(lens), "mean": sum(lens) / len(lens), "max": max(lens),
            "dist": sorted(Counter(lens).items()), "ms_game": total * 1000 / len(lens),
            "p50": float(np.percentile(ms, 50)), "p99": float(np.percentile(ms, 99)), "dmax": float(ms.max())}


def knuth(spec: Spec) -> dict[str, Any]:
    """Knuth's 1976 minimax strategy (first guess 1122, ties: a candidate first, then the lowest code)."""
    eng = engine(spec)
    memo: dict[bytes, int] = {}

    def pick(cands: np.ndarray) -> int:
        if len(cands) == 1:
            return int(cands[0])
        key = cands.tobytes()
        if key not in memo:
            _e, worst, _p = eng.scores(eng.all, cands)
            is_c = np.isin(eng.all, cands)
            memo[key] = int(np.lexsort((eng.all, ~is_c, worst))[0])
        return memo[key]

    lens = []
    t0 = time.perf_counter()
    for s in range(eng.size):
        cands, g, n = eng.all, eng.index("1122"), 1
        while g != s:
            cands = eng.filter(cands, g, int(eng.feedback(g, np.array([s]))[0]))
            g, n = pick(cands), n + 1
        lens.append(n)
    return {"games": len(lens), "sum": sum(lens), "mean": sum(lens) / len(lens), "max": max(lens),
            "dist": sorted(Counter(lens).items()), "ms_game": (time.perf_counter() - t0) * 1000 / len(lens)}


def words_rows(lang: str, levels: list[str], sample: int, seed: int) -> None:
    """The word game: secrets = a seeded sample of the common words (those the bot picks), candidates =
    every dictionary word of the length ("dict") or only the common ones ("common", what /hint in solo
    practice uses); both answer modes."""
    from bot.solver.dictionary import lexicon  # the bench may load dictionaries; core never does
    from core.lexicon import ALPHABETS

    lex = lexicon(lang)
    common = sorted(w for w in lex.common if len(w) == WORD_LENGTH)
    every = sorted(w for w in lex.words if len(w) == WORD_LENGTH)
    secrets = sorted(random.Random(seed).sample(common, min(sample, len(common))))
    for counts in (False, True):
        for cands_name, cands in (("dict", every), ("common", common)):
            for level in levels:
                if cands_name == "common" and level == EASY:
                    continue
                solver = WordSolver(cands, ALPHABETS[lang], counts)
                rng = random.Random(seed)
                t0 = time.perf_counter()
                lens = [len(play_word(solver, w, level, rng, limit=len(cands))) for w in secrets]
                ms = (time.perf_counter() - t0) * 1000 / len(lens)
                title = f"words {lang} {WORD_LENGTH} {'counts' if counts else 'classic'} {cands_name} {len(cands)}"
                dist = " ".join(f"{k}:{v}" for k, v in sorted(Counter(lens).items()))
                if len(Counter(lens)) > 15:  # easy in classic mode: a long tail, shown as percentiles
                    p = np.percentile(lens, [50, 90, 99]).astype(int)
                    dist = f"p50 {p[0]}, p90 {p[1]}, p99 {p[2]}"
                print(f"{title:<24} {level:<7} {len(lens):>6} {sum(lens) / len(lens):>7.4f} {max(lens):>4} "
                      f"{ms:>8.1f} {'':>7} {'':>7} {'':>7} {'':>8} {'':>8}  {dist}  (first {solver.strong([])})",
                      flush=True)


def feedback_rate() -> float:
    """Raw feedback evaluations per second: one guess block against all 5040 4-digit codes."""
    eng = engine(digits(4, False))
    t = time.perf_counter()
    reps = 0
    while time.perf_counter() - t < 1.0:
        eng.feedback_block(eng.all[:1000], eng.all)
        reps += 1
    return reps * 1000 * eng.size / (time.perf_counter() - t)


def main(argv: list[str] | None = None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--only", nargs="*", choices=sorted(SPACES) + sorted(WORD_GAMES),
                    default=list(SPACES) + list(WORD_GAMES))
    ap.add_argument("--word-sample", type=int, default=300, help="secrets per word-game row")
    ap.add_argument("--sample", type=int, default=2000, help="secrets per big space (> 5040 codes)")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--levels", nargs="*", choices=[EASY, STRONG, PERFECT], default=[EASY, STRONG, PERFECT])
    args = ap.parse_args(argv)
    rate = feedback_rate()
    print(f"raw feedback rate: {rate / 1e6:.0f} M pairs/s (BLAS one-hot product, 1000 × 5040 blocks)")
    head = (f"{'space':<24} {'level':<7} {'games':>6} {'mean':>7} {'max':>4} {'ms/game':>8} {'p50 ms':>7} "
            f"{'p99 ms':>7} {'max ms':>7} {'cold p50':>8} {'cold p99':>8}  distribution")
    print(head)
    print("-" * len(head))
    notes = []
    for key in args.only:
        if key in WORD_GAMES:
            words_rows(WORD_GAMES[key], args.levels, args.word_sample, args.seed)
            continue
        spec = SPACES[key]
        t = time.perf_counter()
        book = load_book(CACHE, spec)
        solver = Solver(spec, book, load_tree(spec), load_strong_tree(spec))
        book_s = time.perf_counter() - t
        secrets = secrets_for(spec, args.sample, args.seed)
        rows: list[tuple[str, Solver, str, list[int]]] = []
        for level in args.levels:
            if level == PERFECT and solver.tree is None:
                continue  # no perfect tree shipped: the perfect level plays strong
            if level == STRONG and solver.strong_tree is not None:
                rows.append(("strong·tree", solver, level, list(range(solver.eng.size))))
                rows.append((level, Solver(spec, book, solver.tree), level, secrets))  # computed per decision
            else:
                rows.append((level, solver, level, secrets))
        for label, who, level, some in rows:
            r = run(who, some, level, args.seed)
            dist = " ".join(f"{k}:{v}" for k, v in r["dist"])
            print(f"{TITLES[key]:<24} {label:<7} {r['games']:>6} {r['mean']:>7.4f} {r['max']:>4} "
                  f"{r['ms_game']:>8.1f} {r['p50']:>7.2f} {r['p99']:>7.1f} {r['dmax']:>7.0f} "
                  f"{r['cp50']:>8.1f} {r['cp99']:>8.1f}  {dist}  (total {r['sum']})", flush=True)
        if key == "mm":
            r = knuth(spec)
            dist = " ".join(f"{k}:{v}" for k, v in r["dist"])
            print(f"{TITLES[key]:<24} {'knuth':<7} {r['games']:>6} {r['mean']:>7.4f} {r['max']:>4} "
                  f"{r['ms_game']:>8.1f} {'':>7} {'':>7} {'':>7} {'':>8} {'':>8}  {dist}  (total {r['sum']})",
                  flush=True)
        tree = "" if solver.tree is None else f", perfect tree read with the book, {len(solver.tree.nodes)} positions"
        if solver.strong_tree is not None:
            tree += f", strong tree read with the book, {len(solver.strong_tree.nodes)} positions"
        notes.append(f"{TITLES[key]}: book {book_s:.2f} s (first guess {solver.book['first']}){tree}"
                     + (f"; reference: {REFERENCES[key]}" if key in REFERENCES else ""))
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    print()
    for n in notes:
        print(n)
    print(f"peak memory (max RSS): {peak:.0f} MB")


if __name__ == "__main__":
    main(sys.argv[1:])
