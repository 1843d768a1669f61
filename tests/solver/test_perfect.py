"""Perfect play: the shipped optimal trees replayed against every secret (totals and worst cases as
published or as the exhaustive search proved), the `perfect` level and its fallback to `strong`."""

from __future__ import annotations

import random

import pytest

from bot.solver_book import load_tree
from core.solver import PERFECT, Solver, Tree, digits, engine, play
from core.solver.perfect import Exact

# space → (total guesses over every secret, secrets, worst case)
OPTIMA = {
    digits(3, False): (3575, 720, 7),   # exhaustive search (tools/perfect): 4.9653
    digits(3, True): (5242, 1000, 7),   # exhaustive search (tools/perfect): 5.2420
}


@pytest.mark.parametrize("spec", list(OPTIMA), ids=lambda s: s.name)
def test_the_shipped_tree_finds_every_secret_in_the_optimal_total(spec):
    tree = load_tree(spec)
    assert tree is not None
    total, size, worst = OPTIMA[spec]
    lengths = [tree.replay(s) for s in range(size)]
    assert (sum(lengths), len(lengths), max(lengths)) == (total, size, worst)
    assert (tree.total, tree.worst) == (total, worst)


def test_the_perfect_level_plays_the_tree():
    spec = digits(3, False)
    solver = Solver(spec, tree=load_tree(spec))
    eng = engine(spec)
    assert sum(len(play(solver, eng.code(s), PERFECT)) for s in range(eng.size)) == 3575  # strong: 3592


def test_off_the_tree_the_perfect_level_plays_strong():
    spec = digits(3, False)
    solver = Solver(spec, tree=load_tree(spec))
    history = [("987", 0, 1)]  # the tree opens with 012: a player's own guess left it
    assert solver.tree is not None and solver.tree.move(solver.encode(history)) is None
    assert solver.perfect(history) == solver.strong(history)
    bare = Solver(spec)  # a space without a tree plays strong
    assert bare.perfect(history) == bare.strong(history) and bare.perfect([]) == bare.strong([])


def test_a_text_that_is_no_strategy_is_refused():
    spec = digits(3, False)
    with pytest.raises(ValueError):
        Tree(spec, "012\n")  # ends early
    with pytest.raises(ValueError):
        Tree(spec, "012\n" * 400)  # too long / a guess that learns nothing


def test_exact_values_match_the_tree_on_its_positions():
    spec = digits(3, False)
    tree = load_tree(spec)
    assert tree is not None
    exact = Exact(spec)
    rng = random.Random(3)
    eng = engine(spec)
    picked = rng.sample(sorted(h for h, n in tree.nodes.items() if 3 <= n.size <= 60), 12)
    for hist in picked:
        cands = eng.consistent(hist)
        assert exact.value(cands, [g for g, _ in hist]) == tree.nodes[hist].total
