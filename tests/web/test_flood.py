"""The TV server under a flood, as the internet may send it: the bot in a child process with a small limit of
open files (RLIMIT_NOFILE 128), flooded with idle and half-sent connections from many loopback addresses —
the TV still answers (a page switched on, a throw on the open page), nothing logs "Too many open files",
and the server closes the half-sent connections after its header deadline (bench/tv_flood.py's child)."""

from __future__ import annotations

import asyncio
import time
from pathlib import Path

import aiohttp

from bench.tv import CHAT, SCORER
from bench.tv_flood import Child, Flood, Watcher, switch_on
from bot.app.app import App
from core.messages import Actor, Inbound

NOFILE = 128  # the bound in all follows it: (128 - 64) // 2 = 32 connections
HEADER_SECONDS = 2.0


async def appoint_the_scorer(db: str) -> None:
    """Before the child opens the database: the chat's admin appoints the child's scorer (who has written there
    first), so that the child's game is a club game, the one the TV shows (docs/club.md)."""
    app = await App.open(db, seed=1)
    try:
        chair = Actor(CHAT.platform, "chair", "Chair", "en", is_admin=True)
        await app.handle(Inbound(SCORER, CHAT, text="hi", event_id="flood-hi"))
        await app.handle(Inbound(chair, CHAT, command="verein", args=("scorer", f"<@{SCORER.user_id}>"),
                                 event_id="flood-appoint"))
    finally:
        await app.close()


async def test_a_flood_of_half_sent_connections(tmp_path: Path) -> None:
    db = str(tmp_path / "bot.sqlite3")
    await appoint_the_scorer(db)
    child = await Child.start(db, NOFILE, header_seconds=HEADER_SECONDS)
    flood = Flood()
    try:
        assert child.total == 32
        async with aiohttp.ClientSession(timeout=aiohttp.ClientTimeout(total=None, sock_read=None)) as http:
            watcher = Watcher()
            stream = await http.get(child.link + "/events")
            watcher.task = asyncio.create_task(watcher.run(stream))
            await flood.open(child.port, 4 * NOFILE, per_address=8)  # far more than the process has files
            await asyncio.sleep(0.5)
            assert flood.held <= child.total, flood.held
            for _ in range(3):  # a TV switched on during the flood, and a throw on the page already open
                took = await switch_on(http, child.link, timeout=3.0)
                assert took is not None and took < 1.0, took
                t0 = time.perf_counter()
                reply = await child.ask("throw")
                at = await watcher.arrival(reply["throws"], timeout=3.0)
                assert at is not None and at - t0 < 1.0, (at, t0)
            stats = await child.ask("stats")
            assert stats["evicted"] > 0, stats
            # what was held is closed by the server when its request does not come in time
            held = [w for w in flood.writers if not w.is_closing()]
            await asyncio.sleep(HEADER_SECONDS + 1.0)
            assert flood.held == 0, f"{flood.held} of {len(held)} still open after the header deadline"
            assert (await child.ask("stats"))["expired"] > 0
            one = Flood()  # one address alone: no more than its own bound, however many it opens
            await one.open(child.port, 40, per_address=40)
            await asyncio.sleep(0.5)
            assert one.held == 16, one.held
            assert (await child.ask("stats"))["refused"] >= 24
            assert await switch_on(http, child.link, timeout=3.0) is not None
            await one.close()
            watcher.task.cancel()
            stream.close()
    finally:
        await flood.close()
        log = await child.stop()
    assert "Too many open files" not in log, log[-2000:]
    assert "Traceback" not in log, log[-2000:]
