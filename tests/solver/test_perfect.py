"""Perfect play: the shipped optimal trees replayed against every secret (totals and worst cases as
published or as the exhaustive search proved), the `perfect` level and its fallback to `strong`."""

from __future__ import annotations

import random

import pytest

from bot.solver.book import load_tree
from core.scoring import bulls_cows
from core.solver import PERFECT, Solver, Tree, analyse, digits, play
from core.solver.engine import engine
from core.solver.perfect import Exact
from core.solver.spaces import Spec

# space → (total guesses over every secret, secrets, worst case)
OPTIMA = {
    digits(3, False): (3575, 720, 7),   # exhaustive search (tools/perfect): 4.9653
    digits(3, True): (5242, 1000, 7),   # exhaustive search (tools/perfect): 5.2420
    digits(4, False): (26274, 5040, 7),  # Tanaka 1996, "An optimal MOO strategy"; the search agrees: 5.2131
}


@pytest.mark.parametrize("spec", list(OPTIMA), ids=lambda s: s.name)
def test_the_shipped_tree_finds_every_secret_in_the_optimal_total(spec: Spec) -> None:
    tree = load_tree(spec)
    assert tree is not None
    total, size, worst = OPTIMA[spec]
    lengths = [tree.replay(s) for s in range(size)]
    assert (sum(lengths), len(lengths), max(lengths)) == (total, size, worst)
    assert (tree.total, tree.worst) == (total, worst)


@pytest.mark.parametrize("spec, total", [(digits(3, False), 3575), (digits(4, False), 26274)], ids=["3", "4"])
def test_the_perfect_level_plays_the_tree(spec: Spec, total: int) -> None:
    solver = Solver(spec, tree=load_tree(spec))
    eng = engine(spec)
    assert sum(len(play(solver, eng.code(s), PERFECT)) for s in range(eng.size)) == total  # strong: 3592, 26368


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


@pytest.mark.parametrize("spec", [digits(3, False), digits(4, False)], ids=lambda s: s.name)
def test_exact_values_match_the_tree_on_its_positions(spec: Spec) -> None:
    """Two searches written apart (the C++ tool that made the tree, numpy's Exact) agree."""
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


def _answered(guesses: list[str], secret: str) -> list[tuple[str, int, int]]:
    return [(g, *bulls_cows(secret, g)) for g in guesses]


def test_analyse_prices_4_digit_guesses_against_perfect_play() -> None:
    spec = digits(4, False)
    tree = load_tree(spec)
    assert tree is not None
    solver = Solver(spec, tree=tree)
    # the tree's own game, renamed (0↔5, 1↔6, 2↔7, 3↔8, 4↔9): every guess perfect, nothing lost
    secret, swap = "9071", str.maketrans("0123456789", "5678901234")
    back = str.maketrans("5678901234", "0123456789")
    line = ["".join(g).translate(swap) for g in play(solver, secret.translate(back), PERFECT)]
    result = analyse(solver, _answered(line, secret), secret)
    assert len(result.steps) == len(line) and all(st.perfect is not None for st in result.steps)
    assert result.cost == 0 and result.perfect_mean == 26274 / 5040
    first = result.steps[0].perfect
    assert first is not None and first.best == "5678" == line[0]
    assert (first.before, first.after) == (26274 / 5040, (26274 - 5040) / 5040)
    # a player's own second guess leaves the tree: its price is exact all the same (the set 0A1B
    # is a tree position), and a guess that learns nothing costs one whole guess
    mine = analyse(solver, _answered(["5678", "5678", line[1]], secret), secret)
    again = mine.steps[1].perfect
    assert again is not None and again.before == again.after and again.cost == 1


@pytest.mark.parametrize("spec", [digits(3, False), digits(4, False)], ids=lambda s: s.name)
def test_the_openings_value_every_second_guess_as_the_search_does(spec: Spec) -> None:
    """Any second guess, renamed onto the table's line: every set it leaves has a line, the value is
    what `Exact` finds for the set itself, and the best guess reaches it."""
    tree = load_tree(spec)
    assert tree is not None and tree.openings is not None
    eng, first, openings = tree.eng, tree.openings.first, tree.openings
    rng = random.Random(11)
    small = []
    for second in rng.sample(range(eng.size), 40):
        if second == first:
            continue
        for f1, s1 in eng.partition(first, eng.all).items():
            for f2, s2 in eng.partition(second, s1).items():
                if len(s2) >= 3 and f1 != spec.win:
                    assert openings.lookup(second, f1, f2) is not None, (eng.text(second), f1, f2)
                    if len(s2) <= 20:
                        small.append((second, f1, f2, s2))
    exact = Exact(spec)
    for second, f1, f2, s2 in rng.sample(small, 40):
        hit = openings.lookup(second, f1, f2)
        assert hit is not None
        value, best = hit
        assert value == exact.value(s2, [first, second]), (eng.text(second), f1, f2)
        parts = eng.partition(best, s2)
        reached = len(s2) + sum(exact.value(p, [first, second, best]) or 0 for f, p in parts.items() if f != spec.win)
        assert reached == value, (eng.text(second), f1, f2, eng.text(best))
