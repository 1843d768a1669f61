"""Daily streaks with freezes (docs/daily.md "Streaks and freezes"): pure, from the days a player solved.

A streak is the number of days solved in a row. A freeze protects it against a missed day:
- one is earned for every 7 days solved in a row (7, 14, 21 … solved days with no day between them);
  at most `MAX_HELD` are held — one earned while holding that many is not kept;
- missed days (passed unsolved) while a streak runs use one freeze each, automatically, when the
  freezes held cover all of them up to now: the streak goes on, but those days are not added to its
  count (they are frozen days, shown as such); the count of days in a row towards the next freeze
  starts again after them;
- more missed days in a row than freezes held end the streak, and then no freeze is used (a freeze is
  used only when it saves the streak; the ones held stay held);
- today is still open: not solving it yet uses nothing and ends nothing.
So each freeze covers one missed day; holding two covers two missed days in a row.

Nothing here reads a clock: the caller says which day is today (bot/games/daily/day.py, the chat's zone).
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from datetime import date, timedelta

EARN_EVERY = 7  # solved days in a row that earn one freeze
MAX_HELD = 2  # freezes held at most


@dataclass(frozen=True)
class Streak:
    """A player's daily streak as of a day: the current count (0: none running), the best count ever,
    the freezes held now, and the frozen days (ISO dates, oldest first) — all of them, and those of
    the current streak."""

    current: int
    best: int
    held: int
    frozen: tuple[str, ...] = ()
    frozen_now: tuple[str, ...] = ()


def streak(solved_days: Iterable[str], today: str) -> Streak:
    """The streak of a player who solved on `solved_days` (ISO dates; any order, repeats and days after
    `today` ignored), as of `today` (ISO date)."""
    end = date.fromisoformat(today)
    solved = {d for d in (date.fromisoformat(x) for x in solved_days) if d <= end}
    if not solved:
        return Streak(0, 0, 0)
    run = best = in_row = held = 0
    frozen: list[str] = []
    frozen_now: list[str] = []
    day = min(solved)
    while day < end or (day == end and day in solved):
        if day in solved:
            run += 1
            in_row += 1
            best = max(best, run)
            if in_row % EARN_EVERY == 0 and held < MAX_HELD:
                held += 1
            day += timedelta(days=1)
            continue
        gap = []  # the missed days from here up to the next solved day or today (still open)
        while day < end and day not in solved:
            gap.append(day.isoformat())
            day += timedelta(days=1)
        if run > 0 and len(gap) <= held:  # the freezes save the streak: each covers one day
            held -= len(gap)
            frozen.extend(gap)
            frozen_now.extend(gap)
        else:  # no streak, or more missed days than freezes: it ends, and the freezes stay held
            run = 0
            frozen_now = []
        in_row = 0
    return Streak(run, best, held, tuple(frozen), tuple(frozen_now))


@dataclass(frozen=True)
class DayChange:
    """What a day that has passed did to a player's streak (the morning post tells it): `kept` the count
    after it (solved that day, or frozen), `frozen` whether a freeze covered it, `lost` the count it
    ended (0: none ended)."""

    kept: int
    frozen: bool
    lost: int


def day_change(solved_days: Iterable[str], day: str) -> DayChange:
    """What `day` (a day that has passed) did to the streak of a player who solved on `solved_days`."""
    days = [d for d in solved_days if d <= day]  # a solve of the next morning is not yet that day's
    after = streak(days, (date.fromisoformat(day) + timedelta(days=1)).isoformat())
    if day in after.frozen:
        return DayChange(after.current, True, 0)
    if day in days:
        return DayChange(after.current, False, 0)
    before = streak(days, day)  # `day` still open: the streak that ran into it
    return DayChange(0, False, before.current if after.current == 0 else 0)
