"""Streak freezes through the real App (docs/daily.md "Streaks and freezes"): seven days solved in a
row earn a freeze, a missed day uses it by itself and is shown as frozen, the streak goes on without
counting that day — on the day's board, in the all-time table and in `/stats daily`; without the
freeze the same history ends the streak."""

from __future__ import annotations

from bot.app.app import App
from bot.storage.sql import Query
from tests.app.conftest import Clock
from tests.app.harness import Table, group_texts, texts

from .test_daily import NOON, noon_app  # noqa: F401  (the fixture)

DAY = 86400.0


async def solve_on(app: App, table: Table, clock: Clock, day: int, who: str = "alice") -> str:
    """`who` solves the chat's 1A2B daily of day `day` (0: Nov 30); the group's part of the answer."""
    clock.now = NOON + day * DAY
    await table.say(who, "/daily")
    rows = await app.store.fetch(Query("SELECT secret FROM daily_puzzles WHERE day = :day AND puzzle = '1a2b'"),
                                 day=f"2026-{'11' if day == 0 else '12'}-{30 if day == 0 else day:02d}")
    return group_texts(await table.dm(who, str(rows[0][0])))


async def test_a_week_earns_a_freeze_that_covers_a_missed_day(noon_app: App, clock: Clock) -> None:  # noqa: F811
    table = Table(noon_app)
    for day in range(7):  # Nov 30 … Dec 6
        await solve_on(noon_app, table, clock, day)
    r = await table.say("bob", "/daily board")
    assert "🔥7 🧊1" in texts(r)  # seven in a row, one freeze held
    said = await solve_on(noon_app, table, clock, 8)  # Dec 7 missed, Dec 8 solved
    assert "8 days in a row" in said  # the frozen day is not counted: 7 + 1
    r = await table.say("bob", "/daily board")
    assert "🔥8 ❄️ 1 day frozen" in texts(r)
    r = await table.say("bob", "/daily table")
    assert "now 🔥8 ❄️ 1 day frozen" in texts(r)
    r = await table.say("alice", "/stats daily")
    assert "1A2B: 🔥8 (best 8) · 🧊 0 of 2 · ❄️ 1 day frozen" in texts(r)


async def test_six_days_earn_nothing_and_a_missed_day_ends_the_streak(noon_app: App, clock: Clock) -> None:  # noqa: F811
    table = Table(noon_app)
    for day in range(6):
        await solve_on(noon_app, table, clock, day)
    said = await solve_on(noon_app, table, clock, 7)  # Dec 6 missed, no freeze held
    assert "in a row" not in said
    r = await table.say("alice", "/stats daily")
    assert "1A2B: 🔥1 (best 6) · 🧊 0 of 2\n" in texts(r) and "day frozen" not in texts(r)


async def test_stats_daily_of_someone_unseen_here_is_refused(noon_app: App, clock: Clock) -> None:  # noqa: F811
    table = Table(noon_app)
    r = await table.say("alice", "/stats daily")
    assert "has not finished a daily in this chat yet" in texts(r)
    r = await table.say("alice", "/stats daily <@mallory>")
    assert "mallory" in texts(r).lower() and "🔥" not in texts(r)
