"""The shipped strong trees (bot/data/solver-trees/strong-<space>.txt.gz, tools/perfect/strong.py): every
secret of the space replayed through the tree — its total and worst case, and a total strictly below
what today's strong level (computed per decision) needs — and the strong level following the tree,
computing its guess off it, and never lending it to the exact prices of /analyse."""

from __future__ import annotations

import random

import numpy as np
import pytest

from bot.solver.book import load_strong_tree, load_tree
from core.solver import LOGIK, PERFECT, STRONG, Solver, analyse, digits, play
from core.solver.perfect import Tree, replay_all
from core.solver.spaces import Spec

# space → (total guesses over every secret, secrets, worst case) of the shipped strong tree
SHIPPED = {
    LOGIK: (178864, 32768, 7),
    digits(4, True): (55802, 10000, 8),
    digits(5, False): (172053, 30240, 8),
}
# the same for today's strong level, computed per decision (`Solver.decide`, no tree): measured once by
# walking it over every secret (`python -m tools.perfect.strong logik 4r 5`, step 1, 2026-12-02)
TODAY = {
    LOGIK: (179546, 32768, 7),           # 5.4793
    digits(4, True): (55978, 10000, 8),  # 5.5978
    digits(5, False): (172838, 30240, 8),  # 5.7155
}


@pytest.fixture(scope="module", params=list(SHIPPED), ids=lambda s: s.name)
def shipped(request: pytest.FixtureRequest) -> tuple[Spec, Tree]:
    spec: Spec = request.param
    tree = load_strong_tree(spec)
    assert tree is not None, f"no strong tree shipped for {spec.name}"
    return spec, tree


def test_every_secret_through_the_shipped_tree(shipped: tuple[Spec, Tree]) -> None:
    spec, tree = shipped
    total, size, worst = SHIPPED[spec]
    lengths = replay_all(tree)
    assert (int(lengths.sum()), len(lengths), int(lengths.max())) == (total, size, worst)
    assert (tree.total, tree.worst) == (total, worst)
    assert total < TODAY[spec][0] and worst <= TODAY[spec][2]  # measurably better than today's strong
    for s in random.Random(1).sample(range(size), 200):  # the vectorised replay is the plain one
        assert tree.replay(s) == lengths[s]


def test_the_strong_level_plays_the_tree(shipped: tuple[Spec, Tree]) -> None:
    spec, tree = shipped
    solver = Solver(spec, strong_tree=tree)
    lengths = replay_all(tree)
    for s in random.Random(2).sample(range(tree.eng.size), 40):
        line = play(solver, solver.eng.code(s), STRONG)
        assert len(line) == lengths[s]
        hist: list[tuple[int, int]] = []
        for g in line:  # each guess is the tree's at that point
            assert solver.eng.index(g) == tree.move(tuple(hist))
            hist.append((solver.eng.index(g), int(solver.eng.feedback(solver.eng.index(g), np.array([s]))[0])))
    assert not solver._memo  # nothing was computed: every move came from the tree
    if load_tree(spec) is None:  # no perfect tree: the perfect level (and so /hint) plays the strong tree
        assert solver.perfect([]) == solver.strong([]) == solver.eng.code(tree.nodes[()].guess)


def test_off_the_tree_the_strong_level_computes_its_guess() -> None:
    spec = LOGIK
    tree = load_strong_tree(spec)
    assert tree is not None
    solver, bare = Solver(spec, strong_tree=tree), Solver(spec)
    first = tree.nodes[()].guess
    other = next(g for g in (solver.eng.index("12345"), solver.eng.index("11111")) if g != first)
    history = [(solver.eng.code(other), 1, 1)]  # a player's own first guess: the tree never plays it
    assert tree.move(solver.encode(history)) is None
    assert solver.strong(history) == bare.strong(history)
    assert solver.perfect(history) == bare.strong(history)
    assert solver._memo  # computed now


def test_a_strong_tree_never_prices_a_guess() -> None:
    """Only the perfect tree's values are exact: the strong tree seeds neither `Exact` nor /analyse."""
    spec = digits(3, False)
    tree = load_tree(spec)
    assert tree is not None
    not_optimal = Tree(spec, _strong_text(spec))
    assert not_optimal.total > tree.total  # today's strong on 3 digits: 3592 > 3575
    solver = Solver(spec, strong_tree=not_optimal)
    assert solver.exact.known == {}
    assert analyse(solver, [("345", 0, 0)], None).steps[0].perfect is None
    both = Solver(spec, tree=tree, strong_tree=not_optimal)
    assert both.exact.known == tree.values
    assert both.guess([], PERFECT) == both.eng.code(tree.nodes[()].guess)  # the perfect tree first
    assert both.guess([], STRONG) == both.eng.code(not_optimal.nodes[()].guess)


def _strong_text(spec: Spec) -> str:
    from tools.perfect.strong import strong_text

    return strong_text(spec)


def test_the_walk_is_the_strong_level_played_against_every_secret() -> None:
    """Step 1 of the tool (how TODAY was measured): the walked tree plays exactly as `Solver.strong`,
    secret by secret (3 digits: every one of the 720)."""
    spec = digits(3, False)
    walked = Tree(spec, _strong_text(spec))
    lengths = replay_all(walked)
    solver = Solver(spec)
    for s in range(solver.eng.size):
        line = play(solver, solver.eng.code(s), STRONG)
        assert len(line) == lengths[s]
        assert solver.eng.index(line[0]) == walked.nodes[()].guess
    assert int(lengths.sum()) == 3592  # docs/solver.md, bench: strong on 3 digits
