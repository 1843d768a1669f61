"""Daily streaks with freezes (core/games/daily/streaks.py), against a reference written independently
from the rules' text (maximal runs of solved days and gaps between them, not a day-by-day walk),
over random play histories; and the rules' cases by hand."""

from __future__ import annotations

import random
from datetime import date, timedelta
from itertools import groupby

from core.games.daily.streaks import EARN_EVERY, MAX_HELD, DayChange, Streak, day_change, streak

D0 = date(2026, 1, 1)


def iso(n: int) -> str:
    return (D0 + timedelta(days=n)).isoformat()


def reference(played: list[bool]) -> tuple[int, int, int, int]:
    """(current, best, held, frozen days) for a timeline of days 0..len-1, the last one today. Segments:
    a run of L solved days earns L // 7 freezes (capped at two held; no freeze is earned while two are
    held, and they are earned in one run without gaps, so the cap applies to the sum); a gap of g passed
    days is covered when a streak runs and g <= held (g freezes used), else it ends the streak."""
    if played and not played[-1]:
        played = played[:-1]  # today unsolved: still open, as if it were not there yet
    while played and not played[0]:
        played = played[1:]  # before the first solved day nothing counts
    current = best = held = frozen = 0
    for solved, group in groupby(played):
        n = len(list(group))
        if solved:
            current += n
            best = max(best, current)
            held = min(MAX_HELD, held + n // EARN_EVERY)
        elif current > 0 and n <= held:
            held -= n
            frozen += n
        else:
            current = 0
    return current, best, held, frozen


def test_random_histories_match_the_reference() -> None:
    rng = random.Random(27)
    for _ in range(3000):
        days = rng.randint(1, 80)
        density = rng.choice((0.5, 0.8, 0.95, 1.0))
        played = [rng.random() < density for _ in range(days)]
        got = streak([iso(i) for i, p in enumerate(played) if p], iso(days - 1))
        current, best, held, frozen = reference(played)
        assert (got.current, got.best, got.held, len(got.frozen)) == (current, best, held, frozen), played
        assert got.current <= sum(played)  # a frozen day never adds to the count
        assert set(got.frozen).isdisjoint(iso(i) for i, p in enumerate(played) if p)


def test_seven_in_a_row_earn_a_freeze_that_covers_one_missed_day() -> None:
    week = [iso(i) for i in range(7)]
    assert streak(week, iso(7)) == Streak(7, 7, 1)
    # day 7 missed: the freeze covers it, the streak goes on at 7, and day 8 makes 8 (not 9)
    assert streak([*week, iso(8)], iso(8)) == Streak(8, 8, 0, (iso(7),), (iso(7),))
    # today (day 8) still open: the freeze already covers yesterday
    assert streak(week, iso(8)) == Streak(7, 7, 0, (iso(7),), (iso(7),))


def test_six_in_a_row_earn_nothing_and_a_missed_day_ends_the_streak() -> None:
    assert streak([iso(i) for i in range(6)], iso(7)) == Streak(0, 6, 0)


def test_at_most_two_are_held() -> None:
    assert streak([iso(i) for i in range(28)], iso(28)).held == MAX_HELD


def test_two_freezes_cover_two_missed_days_but_not_three_and_are_then_kept() -> None:
    days = [iso(i) for i in range(14)]
    assert streak(days, iso(16)) == Streak(14, 14, 0, (iso(14), iso(15)), (iso(14), iso(15)))
    assert streak(days, iso(17)) == Streak(0, 14, 2)  # three missed: ended, no freeze used
    assert streak([*days, iso(17)], iso(17)) == Streak(1, 14, 2)


def test_the_count_of_days_in_a_row_starts_again_after_a_frozen_day() -> None:
    days = [*(iso(i) for i in range(7)), *(iso(i) for i in range(8, 14))]  # 7, a frozen day, 6 more
    assert streak(days, iso(14)) == Streak(13, 13, 0, (iso(7),), (iso(7),))


def test_the_days_after_today_and_repeats_are_ignored() -> None:
    assert streak([iso(0), iso(0), iso(1), iso(5)], iso(1)) == Streak(2, 2, 0)
    assert streak([], iso(3)) == Streak(0, 0, 0)


def test_what_a_day_did_to_a_streak() -> None:
    week = [iso(i) for i in range(7)]
    assert day_change(week, iso(6)) == DayChange(7, False, 0)
    assert day_change(week, iso(7)) == DayChange(7, True, 0)  # frozen
    assert day_change([iso(i) for i in range(5)], iso(5)) == DayChange(0, False, 5)  # lost
    assert day_change([iso(0)], iso(3)) == DayChange(0, False, 0)  # ended days ago: nothing new
    # a solve on the morning after counts for that morning, not for the day told
    assert day_change([*(iso(i) for i in range(5)), iso(6)], iso(5)) == DayChange(0, False, 5)
