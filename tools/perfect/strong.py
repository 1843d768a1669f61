"""Builds the shipped strong trees: the strong level's whole decision tree, made better, written
gzipped to bot/data/solver-trees/strong-<space>.txt.gz (a developer tool run once; CI only replays the
shipped files, tests/solver/test_strong_trees.py).

    python -m tools.perfect.strong logik --walks 300 1000 5000 5000:16 1000:12 5000:24 300:16 --limit 60
    python -m tools.perfect.strong 4r --walks 400 2000 --limit 100
    python -m tools.perfect.strong 5 --walks 500 2000:16 --limit 100

1. **Today's strong tree**: `Solver.decide` is a fixed strategy (memoised per history), so its tree is
   read off by walking it from the empty history: at each position the strong guess, then each part
   of the candidates by feedback. That is the strong level played against every secret of the space
   at once. Kept in <work>/raw-<space>.txt (walks are reused when present).
2. **Wider roll-outs** (`--walks R[:K]`): the same walk with the strong level's roll-outs (at run time
   only for sets of up to 61 codes in Logik: 2 M pairs) widened to sets of up to R codes, comparing
   K guesses (8). Then **merged**: at every position one of the walks reaches, the guess of one of
   them there, chosen bottom up for the fewest guesses in all while no code needs more guesses than
   today's worst case. Today's tree is one of them, so the total can only go down.
3. **Exact below T** (`--limit`): every position with at most T codes (whose parent has more) is
   handed to tools/perfect/search.cpp (`search K L R sets`, the sets on stdin, each with its subtree's
   total as a bound) and gets an optimal subtree where one needs fewer guesses. One that would need
   more guesses for some code than the tree's worst case is not taken, and the positions below it
   are tried instead (so the worst case never grows).
4. The result is checked by `core.solver.perfect.Tree` (which refuses a text that is no strategy) and
   by replaying every secret, and shipped.

The text format is the perfect trees' (core/solver/perfect.py): preorder, one guess per node whose set
has 2+ codes, children in ascending packed feedback, a part of one code has no line.
"""

from __future__ import annotations

import argparse
import gzip
import subprocess
import sys
import time
from pathlib import Path

import numpy as np

from bot.solver.book import strong_tree_path
from core.solver.engine import engine
from core.solver.perfect import Hist, Tree, replay_all
from core.solver.spaces import LOGIK, Spec, digits
from core.solver.strategy import Solver
from tools.perfect.build import SOURCE_TREES, compile_search

SPACES: dict[str, Spec] = {"logik": LOGIK, "4r": digits(4, True), "5": digits(5, False), "5r": digits(5, True)}
LIMIT = 60  # T: positions with at most this many codes get an optimal subtree


def strong_text(spec: Spec, rollout: int = 0, top: int = 0) -> str:
    """Today's strong level as a tree text: walk `Solver.decide` from the empty history; with
    `rollout`, its roll-outs widened to every set of up to that many codes, with `top`, comparing
    that many guesses (not 8)."""
    solver = Solver(spec)
    if rollout:
        solver.rollout_n, solver.rollout_pairs = rollout, rollout * solver.eng.size
    if top:
        solver.rollout_k = top
    eng, win = solver.eng, spec.win
    out: list[str] = []
    t0, done = time.perf_counter(), [0]

    def walk(cands: np.ndarray, hist: Hist) -> None:
        g = solver.decide(hist).guess
        out.append(eng.text(g))
        done[0] += 1
        if done[0] % 500 == 0:
            print(f"  … {done[0]} positions, {time.perf_counter() - t0:.0f} s", file=sys.stderr, flush=True)
        for fb, part in sorted(eng.partition(g, cands).items()):
            if fb != win and len(part) > 1:
                walk(part, (*hist, (g, fb)))

    walk(eng.all, ())
    return "\n".join(out) + "\n"


def merge(trees: list[Tree], cap: int) -> str:
    """The best strategy made of the given trees' moves: at every position one of them reaches, the
    guess of one of them there, chosen (bottom up) for the fewest guesses in all while no code needs
    more than `cap` guesses. Its total is at most each tree's whose worst case is within `cap`: walks
    with different roll-outs each get some positions better than the others."""
    eng, win = trees[0].eng, trees[0].spec.win
    memo: dict[tuple[Hist, int], tuple[int, int] | None] = {}  # (position, cap) → (total, guess)

    def parts(g: int, cands: np.ndarray) -> list[tuple[int, np.ndarray]]:
        return [(fb, p) for fb, p in sorted(eng.partition(g, cands).items()) if fb != win]

    def best(hist: Hist, cands: np.ndarray, cap: int) -> tuple[int, int] | None:
        if len(cands) == 1:
            return (1, int(cands[0])) if cap >= 1 else None
        if cap < 2:
            return None
        key = (hist, cap)
        if key in memo:
            return memo[key]
        found: tuple[int, int] | None = None
        for g in sorted({t.nodes[hist].guess for t in trees if hist in t.nodes}):
            total = len(cands)
            for fb, part in parts(g, cands):
                sub = best((*hist, (g, fb)), part, cap - 1)
                if sub is None:
                    break
                total += sub[0]
            else:
                if found is None or total < found[0]:
                    found = (total, g)
        memo[key] = found
        return found

    out: list[str] = []

    def emit(hist: Hist, cands: np.ndarray, cap: int) -> None:
        chosen = best(hist, cands, cap)
        assert chosen is not None
        if len(cands) == 1:
            return
        g = chosen[1]
        out.append(eng.text(g) + "\n")
        for fb, part in parts(g, cands):
            emit((*hist, (g, fb)), part, cap - 1)

    emit((), eng.all, cap)
    return "".join(out)


def small_positions(tree: Tree, limit: int) -> list[tuple[Hist, np.ndarray]]:
    """The positions of the tree with 3..limit codes whose parent has more than limit (preorder)."""
    eng, win = tree.eng, tree.spec.win
    found: list[tuple[Hist, np.ndarray]] = []

    def walk(cands: np.ndarray, hist: Hist) -> None:
        if len(cands) <= limit:
            if len(cands) >= 3:
                found.append((hist, cands))
            return
        g = tree.nodes[hist].guess
        for fb, part in sorted(eng.partition(g, cands).items()):
            if fb != win and len(part) > 1:
                walk(part, (*hist, (g, fb)))

    walk(eng.all, ())
    return found


def solve_sets(spec: Spec, exe: Path, positions: list[tuple[Hist, np.ndarray]],
               bounds: list[int] | None = None) -> list[tuple[int, int, str]]:
    """The optimal subtree of each position's set by search.cpp's `sets` mode: (value, most guesses
    for one code, subtree text); with `bounds`, only subtrees that need fewer guesses than the bound
    are wanted ((-1, 0, "") when there is none: the search then proves that, much faster)."""
    lines = [" ".join(str(g) for g, _ in hist) + " : " + " ".join(str(int(c)) for c in cands)
             + ("" if bounds is None else f" < {bounds[i]}") for i, (hist, cands) in enumerate(positions)]
    run = subprocess.run(["nice", "-n", "10", str(exe), str(len(spec.alphabet)), str(spec.length),
                          str(int(spec.repeats)), "sets"], input="\n".join(lines) + "\n",
                         check=True, stdout=subprocess.PIPE, text=True)  # its progress on stderr
    eng = engine(spec)
    out: list[tuple[int, int, str]] = []
    body: list[str] = []
    for line in run.stdout.splitlines():
        if line.startswith("= "):
            value, worst = line[2:].split()
            out.append((int(value), int(worst), "".join(eng.text(int(w)) + "\n" for w in body)))
            body = []
        else:
            body.append(line)
    if len(out) != len(positions):
        raise RuntimeError(f"search solved {len(out)} of {len(positions)} sets")
    return out


def children(tree: Tree, hist: Hist, cands: np.ndarray) -> list[tuple[Hist, np.ndarray]]:
    """The positions right below one of the tree (parts of 3+ codes)."""
    g = tree.nodes[hist].guess
    return [((*hist, (g, fb)), part) for fb, part in sorted(tree.eng.partition(g, cands).items())
            if fb != tree.spec.win and len(part) >= 3]


def improve(tree: Tree, exe: Path, limit: int) -> tuple[dict[Hist, str], int, int]:
    """Optimal subtrees for the tree's positions of at most `limit` codes, each kept only when it
    keeps every code within the tree's worst case (an optimal subtree may be deeper than the strong
    one: then the positions below are tried instead, round by round). Returns the subtrees by
    position, the guesses saved and the positions solved."""
    replaced: dict[Hist, str] = {}
    gain = solved_n = 0
    todo = small_positions(tree, limit)
    while todo:
        solved = solve_sets(tree.spec, exe, todo, [tree.nodes[hist].total for hist, _ in todo])
        solved_n += len(todo)
        deeper: list[tuple[Hist, np.ndarray]] = []
        for (hist, cands), (value, worst, sub) in zip(todo, solved, strict=True):
            old = tree.nodes[hist].total
            assert value < old, f"a subtree ({value}) not better than the strong one ({old})?"
            if value < 0:  # the strong subtree is optimal
                continue
            if len(hist) + worst <= tree.worst:
                replaced[hist] = sub
                gain += old - value
            else:
                deeper.extend(children(tree, hist, cands))
        print(f"  {len(todo)} positions solved, {len(deeper)} below the ones too deep to take", flush=True)
        todo = deeper
    return replaced, gain, solved_n


def splice(tree: Tree, replaced: dict[Hist, str]) -> str:
    """The tree's text with the subtree of each position in `replaced` swapped for the given text."""
    eng, win = tree.eng, tree.spec.win
    out: list[str] = []

    def walk(cands: np.ndarray, hist: Hist) -> None:
        if hist in replaced:
            out.append(replaced[hist])
            return
        g = tree.nodes[hist].guess
        out.append(eng.text(g) + "\n")
        for fb, part in sorted(eng.partition(g, cands).items()):
            if fb != win and len(part) > 1:
                walk(part, (*hist, (g, fb)))

    walk(eng.all, ())
    return "".join(out)


def walked(spec: Spec, work: Path, rollout: int = 0, top: int = 0) -> Tree:
    """The strong tree (roll-outs widened to `rollout` codes, `top` guesses compared), walked once
    and kept in `work`."""
    path = work / f"raw-{spec.name}{f'-r{rollout}' if rollout else ''}{f'k{top}' if top else ''}.txt"
    if not path.exists():
        t = time.perf_counter()
        path.write_text(strong_text(spec, rollout, top))
        print(f"{spec.name}: {path.name} walked in {time.perf_counter() - t:.0f} s", flush=True)
    tree = Tree(spec, path.read_text())
    lengths = replay_all(tree)
    assert int(lengths.sum()) == tree.total and int(lengths.max()) == tree.worst
    return tree


def build(name: str, limit: int, walks: list[tuple[int, int]], work: Path) -> Path:
    spec = SPACES[name]
    today = walked(spec, work)
    print(f"{spec.name}: strong today: total {today.total} / {today.eng.size} = "
          f"{today.total / today.eng.size:.4f}, worst {today.worst}", flush=True)
    trees = [today]
    for rollout, top in walks:
        trees.append(walked(spec, work, rollout, top))
        print(f"{spec.name}: roll-outs up to {rollout} codes, {top or 8} guesses compared: total "
              f"{trees[-1].total} ({trees[-1].total - today.total:+d}), worst {trees[-1].worst}", flush=True)
    before = Tree(spec, merge(trees, today.worst)) if walks else today
    if walks:
        print(f"{spec.name}: merged within worst {today.worst}: total {before.total} "
              f"({before.total - today.total:+d}), worst {before.worst}", flush=True)
    text, gain = splice(before, {}), 0
    if limit >= 3:
        exe = compile_search(work)
        t = time.perf_counter()
        replaced, gain, solved_n = improve(before, exe, limit)
        took = time.perf_counter() - t
        text = splice(before, replaced)
        print(f"{spec.name}: T = {limit}: {solved_n} positions searched in {took:.0f} s, {len(replaced)} "
              f"replaced, {gain} guesses saved", flush=True)
    after = Tree(spec, text)
    assert after.worst <= today.worst and after.total == before.total - gain
    lengths = replay_all(after)
    assert int(lengths.sum()) == after.total and int(lengths.max()) == after.worst
    data = gzip.compress(text.encode("ascii"), 9, mtime=0)
    SOURCE_TREES.mkdir(parents=True, exist_ok=True)
    path = SOURCE_TREES / strong_tree_path(spec).name
    path.write_bytes(data)
    print(f"{spec.name}: shipped: total {after.total} / {after.eng.size} = {after.total / after.eng.size:.4f} "
          f"(today {today.total}, {after.total - today.total:+d}), worst {after.worst}, "
          f"{len(text.split())} lines, {len(text)} bytes, {len(data)} bytes gzipped -> {path}", flush=True)
    return path


def walk_spec(word: str) -> tuple[int, int]:
    rollout, _, top = word.partition(":")
    return int(rollout), int(top or 0)


def main(argv: list[str] | None = None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("spaces", nargs="+", choices=sorted(SPACES))
    ap.add_argument("--limit", type=int, default=LIMIT, help="T: sets this small get an optimal subtree (0: none)")
    ap.add_argument("--walks", nargs="*", type=walk_spec, default=[],
                    help="R or R:K: walk the strong level with roll-outs up to R codes comparing K guesses (8)")
    ap.add_argument("--work", type=Path, default=Path("/tmp/strong-trees"), help="walked trees, the search binary")
    args = ap.parse_args(argv)
    args.work.mkdir(parents=True, exist_ok=True)
    for name in args.spaces:
        build(name, args.limit, args.walks, args.work)


if __name__ == "__main__":
    main()
