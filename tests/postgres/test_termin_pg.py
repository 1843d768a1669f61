"""The club evenings on PostgreSQL (`db` is a postgresql:// URL here, see conftest): the /termin tests
through the App again, and two bot processes — each its own App, pool and scheduler on one database —
ticking at the same moments: each reminder is posted by exactly one of them."""

from __future__ import annotations

import asyncio

from bot.app.app import App
from tests.app.conftest import Clock
from tests.club.test_termin_app import (  # noqa: F401  (collected here again, on PostgreSQL)
    START,
    Club,
    plan,
    test_a_begun_evening_takes_no_answers,
    test_an_admin_sets_the_evening_and_the_list_is_one_message,
    test_another_chats_evening_cannot_be_seen_or_answered,
    test_flooding_a_button_posts_nothing_new,
    test_moving_asks_again_and_cancelling_takes_the_buttons_away,
    test_only_an_admin_or_the_clubs_scorer_sets_or_cancels,
    test_reminders_move_with_the_evening_and_go_when_it_is_cancelled,
    test_the_evening_moves_with_a_group_that_becomes_a_supergroup,
    test_the_reminder_goes_to_the_topic_and_language_it_was_set_in,
    test_the_time_is_read_in_the_chats_time_zone,
)


async def test_two_processes_post_each_reminder_exactly_once(db: str) -> None:
    clock = Clock()
    apps = [await App.open(db, seed=n, clock=clock) for n in range(2)]
    try:
        for n, app in enumerate(apps):
            app.scheduler.holder = f"process-{n}"  # two bot processes: each its own lease holder
        await plan(Club(apps[0]), clock)
        await plan(Club(apps[1]), clock)  # set again in the other process: the same evening, moved
        posted: list[str] = []
        for now in (START - 86_400 - 1, START - 86_400, START - 86_400 + 5, START - 3_600, START - 3_599, START + 1):
            clock.now = now
            outs = await asyncio.gather(*(a.scheduler.tick() for a in apps), *(a.scheduler.tick() for a in apps))
            posted += [o.text.split(":")[0] for out in outs for o in out]
        assert posted == ["⏰ Tomorrow is club evening", "⏰ Club evening in an hour"]
    finally:
        for app in apps:
            await app.close()
