"""The TV page fed by the move on PostgreSQL: in the process that saved a throw its pages are rebuilt from
the move's result, and that process skips its own NOTIFY (no second, full read); another process's pages
hear the NOTIFY as before (tests/postgres/test_tv_pg.py)."""

from __future__ import annotations

import asyncio

import aiohttp

from bot.app.app import App
from bot.web import server as tv_server
from tests.app.conftest import Clock
from tests.app.harness import Table
from tests.club.harness import appoint
from tests.web.tvkit import free_port, numbers, open_events, private_link


async def test_the_saving_process_rebuilds_its_pages_without_reading(pg_url: str) -> None:
    app = await App.open(pg_url, seed=1, clock=Clock())
    port = free_port()
    tv = await tv_server.start(app, "127.0.0.1", port, f"http://127.0.0.1:{port}")
    assert tv is not None
    try:
        await asyncio.wait_for(tv.listening(), 10)
        table = Table(app)
        await appoint(table, "alice")
        await table.say("alice", "/kegeln high 2 Anna Ben")
        async with aiohttp.ClientSession() as http:
            stream = await open_events(http, private_link(await table.say("alice", "/tv"), "alice"))
            await stream.until("state")
            await asyncio.sleep(0.3)  # the creation's NOTIFY heard (its own: skipped)
            channel = next(iter(tv.feed.channels.values()))
            reads = channel.reads
            for throw, shown in (("9 10", "9_"), ("3 10", "3_")):
                await table.say("alice", f"/wurf {throw}")
                await stream.until("state", lambda v, s=shown: s in numbers(v).values())
            await asyncio.sleep(0.3)  # its own NOTIFYs arrive (and are skipped)
            assert channel.reads == reads
            await stream.close()
    finally:
        await tv.stop()
        await app.close()
