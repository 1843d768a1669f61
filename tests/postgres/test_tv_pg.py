"""The TV page across processes on PostgreSQL: a throw saved through one App (its own pool) reaches a page
served by another App on the same database, through LISTEN/NOTIFY; /tv new there ends the page at once."""

from __future__ import annotations

import asyncio

import aiohttp
import asyncpg

from bot.app.app import App
from bot.web import server as tv_server
from core.messages import Actor, Inbound
from tests.app.conftest import Clock
from tests.app.harness import Table
from tests.club.harness import appoint
from tests.web.tvkit import free_port, numbers, open_events, private_link


async def test_a_throw_through_one_process_reaches_a_page_served_by_another(pg_url: str) -> None:
    clock = Clock()
    scoring = await App.open(pg_url, seed=1, clock=clock)  # the process the scorer's chat reaches
    serving = await App.open(pg_url, seed=2, clock=clock)  # the process that serves the TV pages
    port = free_port()
    public = f"http://127.0.0.1:{port}"
    assert await tv_server.start(scoring, "127.0.0.1", None, public) is None  # links only, no server here
    tv = await tv_server.start(serving, "127.0.0.1", port, public)
    assert tv is not None
    try:
        await asyncio.wait_for(tv.listening(), 10)
        table = Table(scoring)
        await appoint(table, "alice")  # the club's scorer: a club game, shown on the TV (docs/club.md)
        await table.say("alice", "/kegeln high 2 Anna Ben")
        link = private_link(await table.say("alice", "/tv"), "alice")
        assert link.startswith(public)
        async with aiohttp.ClientSession() as http:
            stream = await open_events(http, link)
            view = await stream.until("state")
            assert numbers(view) == {"Anna": "__", "Ben": "__"}  # the game the other process created
            await table.say("alice", "/wurf 9 10")
            view = await stream.until("state", lambda v: numbers(v)["Anna"] == "9_", timeout=5)
            assert (await stream.until("moment"))["kind"] == "nines"
            await table.say("alice", "/wurf 4 10")
            view = await stream.until("state", lambda v: numbers(v)["Ben"] == "4_", timeout=5)
            # the page server's LISTEN connection is lost (a database restart, a dropped network): a throw saved
            # meanwhile still reaches the page once it listens again (every watched chat is read anew)
            conn = await asyncpg.connect(pg_url)
            try:
                killed = await conn.fetchval("SELECT count(pg_terminate_backend(pid)) FROM pg_stat_activity"
                                             " WHERE query LIKE 'LISTEN%'")
            finally:
                await conn.close()
            assert killed == 1
            await table.say("alice", "/wurf 2")
            view = await stream.until("state", lambda v: numbers(v)["Anna"] == "92", timeout=15)
            await asyncio.wait_for(tv.listening(), 10)
            boss = Actor(table.group.platform, "boss", "Boss", "en", is_admin=True)  # only an admin makes a new link
            new = private_link(await table.send(Inbound(boss, table.group, command="tv", args=("new",),
                                                        event_id="new-1")), "boss")
            await stream.until("gone", timeout=5)  # the rotation, heard from the other process
            async with http.get(link) as resp:
                assert resp.status == 404
            async with http.get(new) as resp:
                assert resp.status == 200
            await stream.close()
    finally:
        await tv_server.stop(tv)
        await scoring.close()
        await serving.close()
