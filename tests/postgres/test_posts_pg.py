"""The chat's own posts on PostgreSQL (`db` is a postgresql:// URL here): the morning post's, the tables by
period's and the noise's tests again, and two bot processes — two Apps on one database — ticking at the
same moments: one morning post, one next run."""

from __future__ import annotations

import asyncio

from bot.app.app import App
from bot.schedule.scheduler import pending
from tests.app.conftest import Clock
from tests.app.harness import GROUP, PLATFORM
from tests.app.test_noise import test_results_only_drops_the_chatter_and_nothing_else  # noqa: F401  (again, on PostgreSQL)
from tests.app.test_period_tables import (  # noqa: F401  (again, on PostgreSQL)
    test_the_weekly_post_tells_the_week_that_ended_once,
    test_the_zone_decides_the_week,
    test_wins_and_rating_changes_of_the_week_from_the_chats_first_day,
)
from tests.games.daily.test_morning_post import (  # noqa: F401  (collected here again, on PostgreSQL)
    MORNING,
    NOON,
    play_day_zero,
    posts,
    test_a_bot_down_all_day_posts_no_stale_morning_but_keeps_the_next,
    test_a_process_that_died_while_posting_leaves_one_post_and_one_next_run,
    test_off_timezone_and_who_may_change_it,
    test_the_morning_post_is_posted_once_across_a_restart_with_exactly_the_opted_in_mentioned,
)


async def test_two_processes_post_the_morning_once(db: str, clock: Clock) -> None:
    clock.now = NOON
    first = await App.open(db, seed=7, clock=clock)
    second = await App.open(db, seed=8, clock=clock)
    try:
        await posts(first, "morning", "08:00")
        await play_day_zero(first)
        clock.now = MORNING + 5
        outs = await asyncio.gather(first.scheduler.tick(), second.scheduler.tick(),
                                    second.scheduler.tick(), first.scheduler.tick())
        posted = [o for out in outs for o in out]
        assert len(posted) == 1 and "Alice 1/10" in posted[0].text
        for app in (first, second):
            assert [j.key for j in await pending(app.store, "daily", PLATFORM, GROUP.chat_id)] == ["morning:2026-12-02"]
        clock.now = MORNING + 86400 + 5  # and the next day's: once again
        again = await asyncio.gather(second.scheduler.tick(), first.scheduler.tick())
        assert sum(len(o) for o in again) == 1
    finally:
        await first.close()
        await second.close()
