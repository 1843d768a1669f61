"""The bot's own posts (bot/schedule/scheduler.py) on a real database file: a job runs once when due, never
early, never twice — across a restart before it was due, a restart after it was due, a process that
died holding it, a failing handler, a moved or cancelled job. `db` is a SQLite file here and a
PostgreSQL database in tests/postgres/test_scheduler_pg.py, which collects these tests again."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator, Callable, Sequence
from typing import Any

import pytest

from bot.app.app import open_store
from bot.schedule.scheduler import ATTEMPTS, LEASE, RETRY, Job, Scheduler, cancel_job, pending, schedule_job
from bot.storage.base import Store
from tests.app.conftest import Clock  # the injected clock, starting at T0 (its fixture `clock` is the conftest's)

T0 = 1_000_000.0  # where the injected clock starts


class Posts:
    """A handler that records each job it ran and posts one line for it."""

    def __init__(self) -> None:
        self.ran: list[Job] = []

    async def __call__(self, job: Job) -> Sequence[Any]:
        self.ran.append(job)
        return [f"{job.chat_id}:{job.key}:{job.payload.get('text', '')}"]


@pytest.fixture
async def opened(db: str) -> AsyncIterator[Callable[[], Any]]:
    """Opens stores on `db` (a restart is a second one); closes them all afterwards."""
    stores: list[Store] = []

    async def open_one() -> Store:
        store = open_store(db)
        await store.open()
        stores.append(store)
        return store
    yield open_one
    for s in stores:
        await s.close()


async def test_a_job_runs_once_when_due_and_not_before(opened: Any, clock: Clock) -> None:
    store = await opened()
    await store.run(schedule_job("kegeln", "tg", "-100", "termin:1:day", T0 + 100, {"text": "tomorrow"}, T0))
    posts = Posts()
    s = Scheduler(store, clock, "p1", {"kegeln": posts})
    assert await s.tick() == []
    clock.now = T0 + 99.9
    assert await s.tick() == []
    clock.now = T0 + 100
    assert await s.tick() == ["-100:termin:1:day:tomorrow"]
    assert posts.ran[0].late == 0.0
    clock.now = T0 + 10_000
    assert await s.tick() == []
    assert len(posts.ran) == 1
    assert await pending(store, "kegeln", "tg", "-100") == []


async def test_a_restart_before_the_time_neither_loses_nor_doubles(opened: Any, clock: Clock) -> None:
    first = await opened()
    await first.run(schedule_job("kegeln", "tg", "-100", "r", T0 + 3600, {}, T0))
    await first.close()  # the bot stops; it is down when the job is due
    clock.now = T0 + 7200
    second = await opened()
    posts = Posts()
    assert await Scheduler(second, clock, "p2", {"kegeln": posts}).tick() == ["-100:r:"]
    assert posts.ran[0].late == 3600
    await second.close()
    third = await opened()  # and once more: nothing left to post
    assert await Scheduler(third, clock, "p3", {"kegeln": posts}).tick() == []
    assert len(posts.ran) == 1


async def test_a_process_that_died_holding_a_job_leaves_it_to_the_next(opened: Any, clock: Clock) -> None:
    store = await opened()
    await store.run(schedule_job("kegeln", "tg", "-100", "r", T0, {}, T0))
    started = asyncio.Event()

    async def dies(job: Job) -> Sequence[Any]:
        started.set()
        await asyncio.Event().wait()  # never returns: the process is killed while it runs
        return []
    dying = asyncio.create_task(Scheduler(store, clock, "dead", {"kegeln": dies}).tick())
    await started.wait()
    dying.cancel()
    posts = Posts()
    other = Scheduler(store, clock, "alive", {"kegeln": posts})
    assert await other.tick() == []  # still leased by the dead one
    clock.now = T0 + LEASE + 1
    assert await other.tick() == ["-100:r:"]
    assert await other.tick() == []


async def test_a_lease_taken_over_posts_only_in_the_new_holder(opened: Any, clock: Clock) -> None:
    """A handler slower than its lease: the other process runs the job too, but only one posts."""
    store = await opened()
    await store.run(schedule_job("kegeln", "tg", "-100", "r", T0, {}, T0))
    release = asyncio.Event()
    started = asyncio.Event()

    async def slow(job: Job) -> Sequence[Any]:
        started.set()
        await release.wait()
        return ["slow post"]
    slow_tick = asyncio.create_task(Scheduler(store, clock, "slow", {"kegeln": slow}).tick())
    await started.wait()
    clock.now = T0 + LEASE + 1
    assert await Scheduler(store, clock, "fast", {"kegeln": Posts()}).tick() == ["-100:r:"]
    release.set()
    assert await slow_tick == []


async def test_setting_a_key_again_moves_the_job_and_cancel_removes_it(opened: Any, clock: Clock) -> None:
    store = await opened()
    await store.run(schedule_job("kegeln", "tg", "-100", "r", T0 + 10, {"text": "a"}, T0))
    await store.run(schedule_job("kegeln", "tg", "-100", "r", T0 + 50, {"text": "b"}, T0))
    await store.run(schedule_job("kegeln", "tg", "-200", "r", T0 + 10, {"text": "other chat"}, T0))
    assert [j.due for j in await pending(store, "kegeln", "tg", "-100")] == [T0 + 50]
    posts = Posts()
    s = Scheduler(store, clock, "p", {"kegeln": posts})
    clock.now = T0 + 20
    assert await s.tick() == ["-200:r:other chat"]  # the other chat's own job; this chat's moved on
    await store.run(cancel_job("kegeln", "tg", "-200", "r"))  # done already: cancelling changes nothing
    clock.now = T0 + 60
    await store.run(cancel_job("kegeln", "tg", "-100", "r"))
    assert await s.tick() == []
    assert [j.chat_id for j in posts.ran] == ["-200"]


async def test_a_done_job_set_again_runs_again(opened: Any, clock: Clock) -> None:
    """The next evening's reminder reuses its key: done once, armed again, runs once more."""
    store = await opened()
    posts = Posts()
    s = Scheduler(store, clock, "p", {"kegeln": posts})
    await store.run(schedule_job("kegeln", "tg", "-100", "weekly", T0, {}, T0))
    assert len(await s.tick()) == 1
    await store.run(schedule_job("kegeln", "tg", "-100", "weekly", T0 + 7 * 86400, {}, T0))
    clock.now = T0 + 7 * 86400
    assert len(await s.tick()) == 1
    assert len(await s.tick()) == 0


async def test_a_failing_handler_is_retried_then_given_up(opened: Any, clock: Clock) -> None:
    store = await opened()
    await store.run(schedule_job("daily", "tg", "-100", "morning", T0, {}, T0))
    calls = 0

    async def broken(job: Job) -> Sequence[Any]:
        nonlocal calls
        calls += 1
        raise RuntimeError("no")
    s = Scheduler(store, clock, "p", {"daily": broken})
    for attempt in range(ATTEMPTS):
        assert await s.tick() == []
        assert calls == attempt + 1
        assert await s.tick() == []  # not again before its retry time
        assert calls == attempt + 1
        clock.now += RETRY + 1
    assert await s.tick() == []
    assert calls == ATTEMPTS  # given up
    assert await pending(store, "daily", "tg", "-100") == []


async def test_a_job_without_a_handler_here_is_left_for_a_process_that_has_one(opened: Any, clock: Clock) -> None:
    store = await opened()
    await store.run(schedule_job("daily", "tg", "-100", "morning", T0, {}, T0))
    assert await Scheduler(store, clock, "p", {"kegeln": Posts()}).tick() == []
    clock.now = T0 + LEASE + 1
    posts = Posts()
    assert await Scheduler(store, clock, "q", {"daily": posts}).tick() == ["-100:morning:"]


async def test_many_due_jobs_run_in_due_order(opened: Any, clock: Clock) -> None:
    store = await opened()
    for i in (3, 1, 2):
        await store.run(schedule_job("kegeln", "tg", f"c{i}", "r", T0 + i, {}, T0))
    clock.now = T0 + 5
    assert await Scheduler(store, clock, "p", {"kegeln": Posts()}).tick() == ["c1:r:", "c2:r:", "c3:r:"]
