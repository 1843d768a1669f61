"""Feedback xAyB and the per-digit reveal marks (docs/rules.md §1)."""

from collections import Counter

import pytest
from hypothesis import given
from hypothesis import strategies as st

from core.scoring import Mark, bulls_cows, marks


@pytest.mark.parametrize(("secret", "guess", "expected"), [
    ("4271", "1234", (1, 2)),  # seed example
    ("6622", "2666", (1, 2)),  # seed example: not 1A3B
    ("1234", "1234", (4, 0)),
    ("1234", "4321", (0, 4)),
    ("1234", "5678", (0, 0)),
    ("012", "210", (1, 2)),
    ("01234", "01243", (3, 2)),
    ("1111", "1112", (3, 0)),
    ("1122", "2211", (0, 4)),
    ("1000", "0001", (2, 2)),
    ("123", "321", (1, 2)),
])
def test_bulls_cows_table(secret: str, guess: str, expected: tuple[int, int]) -> None:
    assert bulls_cows(secret, guess) == expected


def test_marks_seed_example_with_repeats() -> None:
    # code 6622, guess 2666: the 6 in place 2 is A; one 2 and one 6 find a partner; one 6 is left over
    assert marks("6622", "2666") == [Mark.NEAR, Mark.HIT, Mark.NEAR, Mark.MISS]


def test_different_lengths_are_refused() -> None:
    with pytest.raises(ValueError):
        bulls_cows("123", "1234")


codes = st.integers(3, 5).flatmap(
    lambda n: st.tuples(st.text("0123456789", min_size=n, max_size=n), st.text("0123456789", min_size=n, max_size=n)))


@given(codes)
def test_bounds_and_exact_match(pair: tuple[str, str]) -> None:
    secret, guess = pair
    a, b = bulls_cows(secret, guess)
    assert a >= 0 and b >= 0 and a + b <= len(secret)
    assert (a == len(secret)) == (secret == guess)


@given(codes)
def test_symmetry(pair: tuple[str, str]) -> None:
    secret, guess = pair
    assert bulls_cows(secret, guess) == bulls_cows(guess, secret)


@given(codes)
def test_a_plus_b_is_the_digit_multiset_overlap(pair: tuple[str, str]) -> None:
    secret, guess = pair
    a, b = bulls_cows(secret, guess)
    assert a + b == sum((Counter(secret) & Counter(guess)).values())


@given(codes)
def test_marks_agree_with_counts(pair: tuple[str, str]) -> None:
    secret, guess = pair
    m = marks(secret, guess)
    assert (m.count(Mark.HIT), m.count(Mark.NEAR)) == bulls_cows(secret, guess)
    assert all((mk is Mark.HIT) == (s == g) for mk, s, g in zip(m, secret, guess, strict=True))
