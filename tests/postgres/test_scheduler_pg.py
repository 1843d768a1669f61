"""The bot's own posts on PostgreSQL (`db` is a postgresql:// URL here, see conftest): the scheduler's
tests again, and several bot processes — each its own store, pool and Scheduler on one database —
ticking at the same moments: every due job is posted by exactly one of them."""

from __future__ import annotations

import asyncio
from collections.abc import Sequence
from typing import Any

from bot.schedule.scheduler import Job, Scheduler, schedule_job
from bot.storage.postgres import PostgresStore
from tests.app.conftest import Clock
from tests.app.test_scheduler import (  # noqa: F401  (collected here again, on PostgreSQL)
    T0,
    opened,
    test_a_done_job_set_again_runs_again,
    test_a_failing_handler_is_retried_then_given_up,
    test_a_job_runs_once_when_due_and_not_before,
    test_a_job_without_a_handler_here_is_left_for_a_process_that_has_one,
    test_a_lease_taken_over_posts_only_in_the_new_holder,
    test_a_process_that_died_holding_a_job_leaves_it_to_the_next,
    test_a_restart_before_the_time_neither_loses_nor_doubles,
    test_many_due_jobs_run_in_due_order,
    test_setting_a_key_again_moves_the_job_and_cancel_removes_it,
)


async def test_three_processes_ticking_at_once_post_each_job_exactly_once(pg_url: str) -> None:
    stores = [PostgresStore(pg_url) for _ in range(3)]
    for s in stores:
        await s.open()
    try:
        for i in range(120):
            await stores[0].run(schedule_job("kegeln", "tg", f"c{i % 7}", f"r{i}", T0 + i % 10, {"i": i}, T0))
        clock = Clock()
        posted: list[tuple[str, int]] = []

        def handler(name: str) -> Any:
            async def run(job: Job) -> Sequence[Any]:
                await asyncio.sleep(0.001)  # a handler that yields, so the processes interleave
                posted.append((name, job.payload["i"]))
                return [job.payload["i"]]
            return run
        schedulers = [Scheduler(s, clock, f"p{n}", {"kegeln": handler(f"p{n}")}) for n, s in enumerate(stores)]
        for step in range(12):
            clock.now = T0 + step
            first = step % len(schedulers)  # which process starts its tick first turns, as it would on a host
            turn = schedulers[first:] + schedulers[:first]
            outs = await asyncio.gather(*(s.tick() for s in turn), *(s.tick() for s in turn))
            assert sum(len(o) for o in outs) == len({i for o in outs for i in o})  # no job twice in one step
        got = sorted(i for _, i in posted)
        assert got == list(range(120))  # each job once, none lost
        assert len({name for name, _ in posted}) > 1  # the work really was shared between processes
    finally:
        for s in stores:
            await s.close()
