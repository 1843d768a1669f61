"""The morning post through the real App on a real SQLite file, with an injected clock (docs/retention.md
"The morning post"): an admin turns it on at a time of the chat's zone; at that time the scheduler posts
yesterday's dailies once — spoiler-free, the best, streaks kept, frozen and ended, a nudge with the play
button — mentioning exactly the players who opted in here; a restart between the time and the post, a
process that died while posting, and a bot down all day neither lose nor double a post; each run arms
the next day's; /posts off and /timezone move or stop it; a non-admin changes nothing."""

from __future__ import annotations

import asyncio
from collections.abc import Sequence
from datetime import datetime
from typing import Any
from zoneinfo import ZoneInfo

from bot.app.app import App
from bot.games.daily.morning import MAX_PINGS
from bot.retention.settings import set_ping
from bot.schedule.scheduler import Job, Scheduler, pending
from bot.storage.sql import Query
from core.messages import Actor, Chat, Inbound, Outbound
from tests.app.conftest import Clock
from tests.app.harness import GROUP, PLATFORM, Table, texts

UTC = ZoneInfo("UTC")
NOON = datetime(2026, 11, 30, 12, 0, tzinfo=UTC).timestamp()
MORNING = datetime(2026, 12, 1, 8, 0, tzinfo=UTC).timestamp()  # Dec 1, 08:00 UTC


def admin(name: str = "alice") -> Actor:
    return Actor(PLATFORM, name, name.capitalize(), "en", is_admin=True)


async def posts(app: App, *args: str, who: Actor | None = None) -> str:
    r = await app.handle(Inbound(who or admin(), GROUP, command="posts", args=args))
    return texts(r)


async def secret(app: App, day: str) -> str:
    rows = await app.store.fetch(Query("SELECT secret FROM daily_puzzles WHERE day = :day AND puzzle = '1a2b'"),
                                 day=day)
    return str(rows[0][0])


async def play_day_zero(app: App) -> Table:
    """Nov 30: Alice solves on her first attempt, Bob gives up; Bob opts in to mentions, Carol does not."""
    table = Table(app)
    await table.say("alice", "/daily")
    code = await secret(app, "2026-11-30")
    await table.dm("alice", code)
    await table.say("bob", "/daily")
    await table.dm("bob", "/giveup")
    assert "do not mention you" in texts(await table.say("carol", "/pings"))
    r = await table.say("bob", "/pings on")
    assert "Bob, this chat's own posts mention you from now on" in texts(r)
    return table


def the_post(out: Sequence[Outbound]) -> Outbound:
    (post,) = out
    assert post.to == GROUP
    return post


async def test_the_morning_post_is_posted_once_across_a_restart_with_exactly_the_opted_in_mentioned(
        db: str, clock: Clock) -> None:
    clock.now = NOON
    app = await App.open(db, seed=7, clock=clock)
    try:
        said = await posts(app, "morning", "08:00")
        assert "Morning post: at 08:00" in said and "UTC" in said
        await play_day_zero(app)
        code = await secret(app, "2026-11-30")
        assert [j.key for j in await pending(app.store, "daily", PLATFORM, GROUP.chat_id)] == ["morning:2026-12-01"]
        clock.now = MORNING - 1
        assert await app.scheduler.tick() == []  # not yet
    finally:
        await app.close()  # a restart between the time and the post
    clock.now = MORNING + 30
    app = await App.open(db, seed=7, clock=clock)
    try:
        post = the_post(await app.scheduler.tick())
        assert "Good morning! Yesterday's dailies (Nov 30, 2026)" in post.text
        assert "1A2B: 1 of 2 solved. 🥇 Best: Alice in 1 attempt." in post.text
        assert "Alice 1/10 · Bob X/10" in post.text
        assert code not in post.text  # spoiler-free: no code, no guess
        assert post.mention == ("bob",) and post.mention_names == ("Bob",)  # only who opted in
        assert any(b.action.startswith("daily:") for row in post.buttons for b in row)  # the nudge's button
        assert await app.scheduler.tick() == []
        clock.now += 3600
        assert await app.scheduler.tick() == []
        jobs = await pending(app.store, "daily", PLATFORM, GROUP.chat_id)
        assert [(j.key, j.due) for j in jobs] == [("morning:2026-12-02", MORNING + 86400)]  # the next one, once
    finally:
        await app.close()
    app = await App.open(db, seed=7, clock=clock)  # and after the post: nothing again
    try:
        assert await app.scheduler.tick() == []
    finally:
        await app.close()


async def test_a_process_that_died_while_posting_leaves_one_post_and_one_next_run(db: str, clock: Clock) -> None:
    clock.now = NOON
    app = await App.open(db, seed=7, clock=clock)
    try:
        await posts(app, "morning", "08:00")
        await play_day_zero(app)
        clock.now = MORNING
        started = asyncio.Event()
        real = app.scheduler.handlers["daily"]

        async def dies(job: Job) -> Sequence[Any]:
            await real(job)  # it built the post and armed tomorrow's run …
            started.set()
            await asyncio.Event().wait()  # … and is killed before the job is marked done
            return []
        dying = asyncio.create_task(Scheduler(app.store, clock, "dead", {"daily": dies}).tick())
        await started.wait()
        dying.cancel()
        assert await app.scheduler.tick() == []  # the dead process's lease still holds
        clock.now = MORNING + 130  # the lease has run out: this process posts it, once
        assert "Alice 1/10" in the_post(await app.scheduler.tick()).text
        assert await app.scheduler.tick() == []
        assert [j.key for j in await pending(app.store, "daily", PLATFORM, GROUP.chat_id)] == ["morning:2026-12-02"]
    finally:
        await app.close()


async def test_streaks_kept_frozen_and_ended_and_a_quiet_day(db: str, clock: Clock) -> None:
    clock.now = NOON
    app = await App.open(db, seed=7, clock=clock)
    try:
        table = Table(app)
        for day in range(7):  # Alice solves Nov 30 … Dec 6 (a freeze earned), Bob Nov 30 … Dec 3 and Dec 6
            clock.now = NOON + day * 86400
            iso = datetime.fromtimestamp(clock.now, UTC).date().isoformat()
            for who in ("alice", "bob"):
                if who == "bob" and day in (4, 5):
                    continue
                await table.say(who, "/daily")
                await table.dm(who, await secret(app, iso))
        await posts(app, "morning", "07:30")
        clock.now = NOON + 6 * 86400 + 20 * 3600 + 1800  # Dec 7 07:30 UTC
        post = the_post(await app.scheduler.tick())
        assert "🔥 Streaks kept: Alice 🔥7, Bob 🔥1" not in post.text
        assert "🔥 Streaks kept: Alice 🔥7" in post.text
        # Dec 7 missed by both: Alice's freeze covers it, Bob's short streak ends
        clock.now += 86400
        post = the_post(await app.scheduler.tick())
        assert "Nobody finished yesterday's daily (Dec 7, 2026)" not in post.text
        assert "❄️ Saved by a freeze: Alice 🔥7" in post.text
        clock.now += 86400  # Dec 8 missed too: Alice has no second freeze, her streak ends
        post = the_post(await app.scheduler.tick())
        assert "💔 Streaks ended: Alice (7)" in post.text
        clock.now += 86400  # Dec 9: nothing played, no streak left to tell
        post = the_post(await app.scheduler.tick())
        assert "Nobody finished yesterday's daily (Dec 9, 2026)" in post.text
    finally:
        await app.close()


async def test_off_timezone_and_who_may_change_it(db: str, clock: Clock) -> None:
    clock.now = NOON
    app = await App.open(db, seed=7, clock=clock)
    try:
        refused = await posts(app, "morning", "06:00", who=Actor(PLATFORM, "mallory", "Mallory", "en"))
        assert "Only a chat admin can change" in refused
        assert await pending(app.store, "daily", PLATFORM, GROUP.chat_id) == []
        assert "no time of day" in await posts(app, "morning", "25:00")
        assert "no time of day" in await posts(app, "morning", "soon")
        await posts(app, "morgens", "08:00")  # a German option word
        await app.handle(Inbound(admin(), GROUP, command="timezone", args=("Europe/Berlin",)))
        berlin = datetime(2026, 12, 1, 8, 0, tzinfo=ZoneInfo("Europe/Berlin")).timestamp()
        assert [j.due for j in await pending(app.store, "daily", PLATFORM, GROUP.chat_id)] == [berlin]
        assert "Morning post: off" in await posts(app, "off")
        assert await pending(app.store, "daily", PLATFORM, GROUP.chat_id) == []
        clock.now = berlin + 60
        assert await app.scheduler.tick() == []
        # another chat's admin cannot touch this chat: settings are per chat
        other = Chat(PLATFORM, "group-2", False)
        await app.handle(Inbound(admin("zed"), other, command="posts", args=("morning", "09:00")))
        assert await pending(app.store, "daily", PLATFORM, GROUP.chat_id) == []
    finally:
        await app.close()


async def test_a_bot_down_all_day_posts_no_stale_morning_but_keeps_the_next(db: str, clock: Clock) -> None:
    clock.now = NOON
    app = await App.open(db, seed=7, clock=clock)
    try:
        await posts(app, "morning", "08:00")
    finally:
        await app.close()
    clock.now = MORNING + 2 * 86400 + 3600  # Dec 3, 09:00: Dec 1's run is two days late
    app = await App.open(db, seed=7, clock=clock)
    try:
        assert await app.scheduler.tick() == []
        assert [j.key for j in await pending(app.store, "daily", PLATFORM, GROUP.chat_id)] == ["morning:2026-12-04"]
    finally:
        await app.close()


async def test_an_opt_in_counts_in_its_own_chat_only_and_private_chats_have_none(db: str, clock: Clock) -> None:
    clock.now = NOON
    app = await App.open(db, seed=7, clock=clock)
    try:
        table = Table(app)
        other = Table(app, Chat(PLATFORM, "group-2", False))
        await posts(app, "morning", "08:00")
        await other.say("mallory", "/pings on")  # in another chat: no mention here
        r = await table.dm("mallory", "/pings on")
        assert "/pings works in a group chat." in texts(r)
        r = await app.handle(Inbound(admin(), Chat(PLATFORM, "dm-alice", True), command="posts",
                                     args=("morning", "07:00")))
        assert "/posts works in a group chat." in texts(r)
        clock.now = MORNING + 1
        post = the_post(await app.scheduler.tick())
        assert post.mention == () and post.mention_names == ()
    finally:
        await app.close()


async def test_at_most_a_hundred_are_mentioned_as_discord_allows(db: str, clock: Clock) -> None:
    clock.now = NOON
    app = await App.open(db, seed=7, clock=clock)
    try:
        await posts(app, "morning", "08:00")
        for i in range(MAX_PINGS + 5):
            await app.store.run(set_ping(PLATFORM, GROUP.chat_id, f"u{i:03d}", True, NOON))
        clock.now = MORNING + 1
        post = the_post(await app.scheduler.tick())
        assert len(post.mention) == len(post.mention_names) == MAX_PINGS == 100
    finally:
        await app.close()


async def test_a_time_moved_later_on_a_posted_day_posts_no_second_time(db: str, clock: Clock) -> None:
    clock.now = NOON
    app = await App.open(db, seed=7, clock=clock)
    try:
        await posts(app, "morning", "08:00")
        clock.now = MORNING + 60
        the_post(await app.scheduler.tick())
        await posts(app, "morning", "20:00")  # later the same day: that day has had its post
        assert [j.key for j in await pending(app.store, "daily", PLATFORM, GROUP.chat_id)] == ["morning:2026-12-02"]
        await posts(app, "morning", "07:00")  # earlier: tomorrow's, at the new time
        assert [j.due for j in await pending(app.store, "daily", PLATFORM, GROUP.chat_id)] == [MORNING + 86400 - 3600]
    finally:
        await app.close()


async def test_a_timezone_change_moves_the_posts_of_every_topic_of_the_group(db: str, clock: Clock) -> None:
    clock.now = NOON
    app = await App.open(db, seed=7, clock=clock)
    try:
        topic = Chat(PLATFORM, f"{GROUP.chat_id}/7", False)
        await app.handle(Inbound(admin(), topic, command="posts", args=("morning", "08:00")))
        await posts(app, "morning", "09:00")
        other = Chat(PLATFORM, "group-10/7", False)  # another group's topic: its own zone
        await app.handle(Inbound(admin(), other, command="posts", args=("morning", "08:00")))
        await app.handle(Inbound(admin(), topic, command="timezone", args=("Europe/Berlin",)))
        berlin = ZoneInfo("Europe/Berlin")
        assert [j.due for j in await pending(app.store, "daily", PLATFORM, topic.chat_id)] == [
            datetime(2026, 12, 1, 8, 0, tzinfo=berlin).timestamp()]
        assert [j.due for j in await pending(app.store, "daily", PLATFORM, GROUP.chat_id)] == [
            datetime(2026, 12, 1, 9, 0, tzinfo=berlin).timestamp()]
        assert [j.due for j in await pending(app.store, "daily", PLATFORM, other.chat_id)] == [MORNING]
    finally:
        await app.close()


async def test_a_morning_post_that_runs_late_does_not_greet_the_evening(db: str, clock: Clock) -> None:
    """Down from 07:00 until 19:31 of the same day: the post still comes (its day is not over), but it does
    not say "Good morning!" at 19:31 (review 4, X15)."""
    clock.now = NOON
    app = await App.open(db, seed=7, clock=clock)
    try:
        await posts(app, "morning", "08:00")
        await play_day_zero(app)
    finally:
        await app.close()
    clock.now = MORNING + 11 * 3600 + 31 * 60  # Dec 1, 19:31 UTC
    app = await App.open(db, seed=7, clock=clock)
    try:
        post = the_post(await app.scheduler.tick())
        assert "Good morning" not in post.text, post.text
        assert "Yesterday's dailies (Nov 30, 2026)" in post.text and "Alice 1/10 · Bob X/10" in post.text
    finally:
        await app.close()
