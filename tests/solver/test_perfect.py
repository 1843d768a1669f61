"""Perfect play: the shipped optimal trees replayed against every secret (totals and worst cases as
published or as the exhaustive search proved), the `perfect` level and its fallback to `strong`."""

from __future__ import annotations

import random

import pytest

from bot.solver_book import load_tree
from core.solver import PERFECT, Solver, Tree, analyse, digits, play
from core.solver.engine import engine
from core.solver.perfect import Exact
from core.solver.spaces import Spec

# space → (total guesses over every secret, secrets, worst case)
OPTIMA = {
    digits(3, False): (3575, 720, 7),   # exhaustive search (tools/perfect): 4.9653
    digits(3, True): (5242, 1000, 7),   # exhaustive search (tools/perfect): 5.2420
}


@pytest.mark.parametrize("spec", list(OPTIMA), ids=lambda s: s.name)
def test_the_shipped_tree_finds_every_secret_in_the_optimal_total(spec: Spec) -> None:
    tree = load_tree(spec)
    assert tree is not None
    total, size, worst = OPTIMA[spec]
    lengths = [tree.replay(s) for s in range(size)]
    assert (sum(lengths), len(lengths), max(lengths)) == (total, size, worst)
    assert (tree.total, tree.worst) == (total, worst)


def test_the_perfect_level_plays_the_tree() -> None:
    spec = digits(3, False)
    solver = Solver(spec, tree=load_tree(spec))
    eng = engine(spec)
    assert sum(len(play(solver, eng.code(s), PERFECT)) for s in range(eng.size)) == 3575  # strong: 3592


def test_off_the_tree_the_perfect_level_plays_strong() -> None:
    spec = digits(3, False)
    solver = Solver(spec, tree=load_tree(spec))
    history = [("987", 0, 1)]  # the tree opens with 012: a player's own guess left it
    assert solver.tree is not None and solver.tree.move(solver.encode(history)) is None
    assert solver.perfect(history) == solver.strong(history)
    bare = Solver(spec)  # a space without a tree plays strong
    assert bare.perfect(history) == bare.strong(history) and bare.perfect([]) == bare.strong([])


def test_a_text_that_is_no_strategy_is_refused() -> None:
    spec = digits(3, False)
    with pytest.raises(ValueError):
        Tree(spec, "012\n")  # ends early
    with pytest.raises(ValueError):
        Tree(spec, "012\n" * 400)  # too long / a guess that learns nothing


def test_exact_values_match_the_tree_on_its_positions() -> None:
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


def test_analyse_prices_each_guess_against_perfect_play() -> None:
    spec = digits(3, False)
    solver = Solver(spec, tree=load_tree(spec))
    # 345 opens like the tree's 012 (renamed); 435 after 0A0B learns nothing: it costs one whole guess
    result = analyse(solver, [("345", 0, 0), ("435", 0, 0), ("678", 0, 1)], None)
    first, second, _third = result.steps
    assert first.perfect is not None and second.perfect is not None
    assert (first.perfect.before, first.perfect.after, first.perfect.cost) == (3575 / 720, (3575 - 720) / 720, 0)
    assert first.perfect.best == "345"
    assert second.perfect.before == second.perfect.after == 836 / 210 and second.perfect.cost == 1
    assert result.perfect_mean == 3575 / 720
    assert analyse(Solver(spec), [("345", 0, 0)], None).steps[0].perfect is None  # no tree: no prices
