"""/hint stays on the perfect tree after a player's own opening, by the renaming of the digits /analyse uses
(core/solver/coach.py `renamed`): a game that opens with 1234 is the tree's 0123 game, so the hints that
follow play perfectly — not the strong solver's guesses, as they did once the opening was not the tree's."""

from __future__ import annotations

import random
from itertools import permutations

from bot.solver.book import load_tree
from core.scoring import bulls_cows
from core.solver import Solver, digits
from core.solver.games import perfect_hint


def hinted_game(solver: Solver, opening: str, secret: str) -> int:
    """Guesses to crack `secret` when the player opens with `opening` and then plays every /hint."""
    history = [(opening, *bulls_cows(secret, opening))]
    while history[-1][1] != len(secret):
        guess = "".join(perfect_hint(solver, history))
        history.append((guess, *bulls_cows(secret, guess)))
    return len(history)


def test_after_an_own_opening_the_hints_play_the_trees_game() -> None:
    spec = digits(4, False)
    tree = load_tree(spec)
    assert tree is not None
    solver = Solver(spec, tree=tree)
    to_tree = str.maketrans("1234056789", "0123456789")  # 1234 → 0123, the others keep their order
    secrets = random.Random(40).sample(["".join(p) for p in permutations("0123456789", 4)], 150)
    for secret in secrets:
        played = hinted_game(solver, "1234", secret)
        renamed = hinted_game(solver, "0123", secret.translate(to_tree))  # the tree's own game
        assert played == renamed, (secret, played, renamed)
