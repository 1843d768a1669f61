"""Periods of the chat's tables (core/periods.py): weeks from any first day, months, seasons from a day of the year."""

from __future__ import annotations

from datetime import date

import pytest

from core.periods import previous, span


@pytest.mark.parametrize(("week_start", "first"), [(0, date(2026, 11, 30)), (6, date(2026, 11, 29)),
                                                   (2, date(2026, 12, 2)), (3, date(2026, 11, 26))])
def test_a_week_starts_on_the_chats_first_day(week_start: int, first: date) -> None:
    today = date(2026, 12, 2)  # a Wednesday
    assert span("week", today, week_start) == (first, date.fromordinal(first.toordinal() + 7))
    assert first <= today < span("week", today, week_start)[1]


def test_months_and_seasons() -> None:
    assert span("month", date(2026, 12, 31)) == (date(2026, 12, 1), date(2027, 1, 1))
    assert span("month", date(2027, 2, 1)) == (date(2027, 2, 1), date(2027, 3, 1))
    assert span("season", date(2026, 12, 2)) == (date(2026, 1, 1), date(2027, 1, 1))
    assert span("season", date(2026, 8, 31), season=(9, 1)) == (date(2025, 9, 1), date(2026, 9, 1))
    assert span("season", date(2026, 9, 1), season=(9, 1)) == (date(2026, 9, 1), date(2027, 9, 1))
    assert span("season", date(2027, 3, 5), season=(2, 29)) == (date(2027, 3, 1), date(2028, 2, 29))


def test_the_period_before() -> None:
    assert previous("week", date(2026, 12, 7)) == (date(2026, 11, 30), date(2026, 12, 7))
    assert previous("month", date(2026, 1, 15)) == (date(2025, 12, 1), date(2026, 1, 1))
