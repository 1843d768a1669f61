"""Builds the shipped perfect-play trees: compiles tools/perfect/search.cpp with g++, runs the
exhaustive search per space and writes its tree gzipped to bot/data/solver-trees/ (a developer tool run
once; CI only replays the shipped files, tests/solver/test_perfect.py).

    python -m tools.perfect.build 3 3r 4   # 1A2B 3 digits (0.1 s), with repeats (1 s), 4 digits (6.5 min)
    python -m tools.perfect.build 3 4 --openings   # and their openings (0.1 s; 4 digits: see docs/solver.md)

Prints each tree's total, worst case and sizes; the tree is checked by replaying every secret.
The search alone for one part of 4 digits (the subtree under the first guess's feedback f, packed
A*5+B): `search 10 4 0 <f>`.
"""

from __future__ import annotations

import argparse
import gzip
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from bot.solver.book import load_tree, openings_path, tree_path
from core.solver.perfect import Openings, Tree, replay_all
from core.solver.spaces import Spec, digits

HERE = Path(__file__).resolve().parent
# the shipped trees, in the checkout (bot/process/shipped.py)
SOURCE_TREES = HERE.parents[1] / "bot" / "data" / "solver-trees"
SPACES: dict[str, Spec] = {"3": digits(3, False), "3r": digits(3, True), "4": digits(4, False)}


def compile_search(out: Path) -> Path:
    exe = out / "search"
    subprocess.run(["g++", "-O2", "-std=c++17", "-o", str(exe), str(HERE / "search.cpp")], check=True)
    return exe


def write(spec: Spec, text: str, seconds: float) -> None:
    tree = Tree(spec, text)  # raises when the text is no strategy
    replayed = replay_all(tree)
    assert replayed.sum() == tree.total and replayed.max() == tree.worst
    data = gzip.compress(text.encode("ascii"), 9, mtime=0)
    SOURCE_TREES.mkdir(parents=True, exist_ok=True)
    (SOURCE_TREES / tree_path(spec).name).write_bytes(data)
    print(f"{spec.name}: total {tree.total} / {tree.eng.size} = {tree.total / tree.eng.size:.4f}, worst {tree.worst}, "
          f"{len(text.split())} nodes, {len(text)} bytes, {len(data)} bytes gzipped, search {seconds:.1f} s")


def write_openings(spec: Spec, text: str, seconds: float) -> None:
    tree = load_tree(spec)
    assert tree is not None, "the tree first"
    openings = Openings(spec, tree.nodes[()].guess, text)  # raises when the text does not fit the space
    data = gzip.compress(text.encode("ascii"), 9, mtime=0)
    (SOURCE_TREES / openings_path(spec).name).write_bytes(data)
    print(f"{spec.name} openings: {len(openings.table)} sets, {len(text)} bytes, {len(data)} bytes gzipped, "
          f"search {seconds:.1f} s")


def main(argv: list[str] | None = None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("spaces", nargs="+", choices=sorted(SPACES))
    ap.add_argument("--openings", action="store_true",
                    help="the values of every set two guesses leave, beside the shipped tree (no repeats)")
    args = ap.parse_args(argv)
    with tempfile.TemporaryDirectory() as tmp:
        exe: Path | None = None
        for name in args.spaces:
            spec = SPACES[name]
            exe = exe or compile_search(Path(tmp))
            t = time.perf_counter()
            mode = ["openings"] if args.openings else []
            run = subprocess.run([str(exe), str(len(spec.alphabet)), str(spec.length), str(int(spec.repeats)), *mode],
                                 check=True, capture_output=True, text=True)
            sys.stderr.write(run.stderr)
            (write_openings if args.openings else write)(spec, run.stdout, time.perf_counter() - t)


if __name__ == "__main__":
    main()
