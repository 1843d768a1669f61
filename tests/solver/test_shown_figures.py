"""/analyse's figures against perfect play as a reader adds them up (issue 40): each row's shown before,
after and cost satisfy 1 + after − before = cost exactly, and the total is the sum of the rows shown."""

from __future__ import annotations

from decimal import Decimal

from hypothesis import given
from hypothesis import strategies as st

from core.solver.coach import Perfect, shown, shown_total


def test_the_reviews_row_adds_up() -> None:
    p = Perfect(before=3.0126, after=2.0527, best="1234")  # shown before as "⌀ 3.0 → 2.1, +0.0"
    before, after, cost = shown(p)
    assert (before, after, cost) == (Decimal("3.013"), Decimal("2.053"), Decimal("0.040"))
    assert 1 + after - before == cost


@given(st.floats(1, 8), st.floats(0, 1.2))
def test_every_row_adds_up(before: float, spent: float) -> None:
    after = max(0.0, before - 1 + spent)
    b, a, c = shown(Perfect(before, after, "x"))
    assert c == max(Decimal(0), 1 + a - b) and c >= 0
    assert abs(float(c) - Perfect(before, after, "x").cost) <= 0.0011


def test_the_total_is_the_sum_of_the_rows_shown() -> None:
    rows = [Perfect(5.2131, 4.2131, "1234"), Perfect(3.0126, 2.0527, "5678"), Perfect(1.8004, 1.0, "9012")]
    assert shown_total(rows) == sum((shown(p)[2] for p in rows), Decimal(0)) == Decimal("0.240")
