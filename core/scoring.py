"""Feedback functions shared by the games and the solver.

Every position of code and guess is matched at most once: first the exact
matches (A, bulls, black pegs), then the remaining symbols as a multiset
(B, cows, white pegs). Code 6622, guess 2666 → 1A2B, not 1A3B.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from enum import StrEnum


def bulls_cows(secret: Sequence[str], guess: Sequence[str]) -> tuple[int, int]:
    """(A, B) for two equally long sequences of symbols."""
    if len(secret) != len(guess):
        raise ValueError("secret and guess differ in length")
    bulls = sum(s == g for s, g in zip(secret, guess, strict=True))
    rest_secret = Counter(s for s, g in zip(secret, guess, strict=True) if s != g)
    rest_guess = Counter(g for s, g in zip(secret, guess, strict=True) if s != g)
    cows = sum((rest_secret & rest_guess).values())
    return bulls, cows


class Mark(StrEnum):
    """One position of a guess, as shown at the reveal."""

    HIT = "hit"  # right place (🟩)
    NEAR = "near"  # in the code, elsewhere (🟨)
    MISS = "miss"  # not in the code, or all its copies used up (⬜)


def marks(secret: Sequence[str], guess: Sequence[str]) -> list[Mark]:
    """Per-position marks consistent with `bulls_cows`: the number of HIT and
    NEAR marks equals A and B. Left-to-right, surplus copies are MISS."""
    result = [Mark.MISS] * len(guess)
    left: Counter[str] = Counter()
    for i, (s, g) in enumerate(zip(secret, guess, strict=True)):
        if s == g:
            result[i] = Mark.HIT
        else:
            left[s] += 1
    for i, (s, g) in enumerate(zip(secret, guess, strict=True)):
        if s != g and left[g] > 0:
            result[i] = Mark.NEAR
            left[g] -= 1
    return result
