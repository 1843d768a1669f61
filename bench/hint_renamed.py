"""/hint after a player's own opening (issue 40): the guesses to crack every 4-digit secret when the player
opens with 1234 and then plays every hint — the hints as they were (the tree only while the game follows
it literally, then the strong solver) against the hints under /analyse's renaming of the digits.
Run: python -m bench.hint_renamed (about a minute)."""

from __future__ import annotations

import time
from itertools import permutations

from bot.solver.book import load_tree
from bot.solver.book import solver as book_solver
from core.scoring import bulls_cows
from core.solver import Solver, digits
from core.solver.games import perfect_hint


def total(solver: Solver, opening: str, renamed: bool) -> int:
    guesses = 0
    for secret in ("".join(p) for p in permutations("0123456789", 4)):
        history = [(opening, *bulls_cows(secret, opening))]
        while history[-1][1] != 4:
            move = perfect_hint(solver, history) if renamed else solver.perfect(history)
            guess = "".join(move)
            history.append((guess, *bulls_cows(secret, guess)))
        guesses += len(history)
    return guesses


def main() -> None:
    spec = digits(4, False)
    assert load_tree(spec) is not None
    solver = book_solver(spec)
    for renamed in (False, True):
        t = time.perf_counter()
        print(f"opening 1234, {'renamed' if renamed else 'as before'}: {total(solver, '1234', renamed)} guesses"
              f" over 5040 secrets ({time.perf_counter() - t:.0f} s)")
    print(f"the tree's own game (opening 0123): {total(solver, '0123', False)}")


if __name__ == "__main__":
    main()
