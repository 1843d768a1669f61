"""The load benchmark's `--telegram` run: the mix end to end through python-telegram-bot and the stand-in Bot API.

The stand-in runs in a process of its own (its bookkeeping is not the bot's memory or CPU); latency is
from the driver handing the user's message to the stand-in until the adapter has finished that update.
"""

from __future__ import annotations

import argparse
import asyncio
import itertools
import sys
import time
import warnings
from pathlib import Path
from typing import Any

from bench.load_mix import Stats, Transport, drive, rss_kib, warm_up
from bench.load_report import Outcomes, attach, finished_by_kind, report, store_bytes
from bot.app.app import App
from bot.process.runtime import tune_gc
from core.messages import Inbound, Response, Text


async def standin_process(needle: str) -> tuple[asyncio.subprocess.Process, int]:
    """The stand-in Bot API in a process of its own: its bookkeeping does not count as the bot's
    memory or CPU. It counts the calls carrying `needle` (the apology text)."""
    proc = await asyncio.create_subprocess_exec(
        sys.executable, "-m", "tests.telegram.standin", needle, stdin=asyncio.subprocess.PIPE,
        stdout=asyncio.subprocess.PIPE)
    assert proc.stdout is not None
    line = (await asyncio.wait_for(proc.stdout.readline(), 30)).decode()
    if not line.startswith("port "):
        raise RuntimeError(f"the stand-in did not start: {line!r}")
    return proc, int(line.split()[1])


async def run_telegram(args: argparse.Namespace, workdir: Path) -> int:
    import aiohttp
    from telegram.ext import AIORateLimiter

    from adapters.telegram import TelegramAdapter
    from tests.telegram import standin_objects as si

    warnings.filterwarnings("ignore", module="telegram")
    db = workdir / "load-telegram.sqlite3"
    app = await App.open(str(db), seed=args.seed, synchronous="FULL")
    tune_gc()  # as `python -m bot` does
    proc, port = await standin_process(app.catalogs.render(Text("error.internal"), "en"))
    control = aiohttp.ClientSession(f"http://127.0.0.1:{port}")
    stats, outcomes = Stats(), Outcomes()
    waiting: dict[int, asyncio.Future[float]] = {}
    finished: dict[int, float] = {}  # handled before the driver learnt the update's id

    class BenchAdapter(TelegramAdapter):
        async def _on_update(self, update: Any, context: Any) -> None:
            try:
                await super()._on_update(update, context)
            finally:
                fut = waiting.pop(update.update_id, None)
                if fut is None:
                    finished[update.update_id] = time.perf_counter()
                elif not fut.done():
                    fut.set_result(time.perf_counter())

    class ViaTelegram(Transport):
        def __init__(self) -> None:
            self.app, self.stats, self.platform = app, stats, "telegram"
            self.apology = app.catalogs.render(Text("error.internal"), "en")
            self.users: dict[str, si.User] = {}
            self._ids = itertools.count(5_000_000)

        def user(self, who: str) -> si.User:
            if who not in self.users:
                self.users[who] = si.User(id=next(self._ids), first_name=who.capitalize(), username=f"user_{who}")
            return self.users[who]

        def uid(self, who: str) -> str:
            return str(self.user(who).id)

        def group_id(self, i: int) -> str:
            return str(-1_000_000 - i)

        async def send(self, kind: str, who: str, where: int | None, text: str) -> None:
            user = self.user(who)
            chat = si.Chat.private(user) if where is None else si.Chat(id=-1_000_000 - where, type="group")
            t0 = time.perf_counter()
            async with control.post("/_control/message", json={
                    "chat": vars(chat), "user": vars(user), "text": text}) as resp:
                update_id = (await resp.json())["update_id"]
            t1 = finished.pop(update_id, None)
            if t1 is None:
                fut: asyncio.Future[float] = asyncio.get_running_loop().create_future()
                waiting[update_id] = fut
                try:
                    t1 = await asyncio.wait_for(fut, 60)
                except TimeoutError:
                    self.stats.error(kind, f"no answer to update {update_id} in 60 s")
                    return
            self.stats.latency[kind].append(t1 - t0)

    t = ViaTelegram()

    async def handle(ib: Inbound) -> Response:
        r = await app.handle(ib)
        t.check("any", r)  # counted in the total; the kind is not known here
        return r

    adapter = BenchAdapter(si.TOKEN, handle, app.command_menu(), base_url=f"http://127.0.0.1:{port}/bot",
                           rate_limiter=AIORateLimiter(overall_max_rate=0, group_max_rate=0, max_retries=4))
    try:
        await adapter.start()
        await warm_up(t)
        warm = finished_by_kind(db)
        attach(outcomes)
        before, _ = rss_kib()
        run = await drive(t, args.games, args.rate, args.seed)
        after, hwm = rss_kib()
        async with control.get("/_control/count") as resp:
            counts = await resp.json()
    finally:
        await adapter.stop()
        await app.close()
        await control.close()
        assert proc.stdin is not None
        proc.stdin.close()
        await proc.wait()
    done = finished_by_kind(db) - warm
    report(f"{args.games} games end to end through python-telegram-bot and the stand-in Bot API "
           f"(SQLite, synchronous=FULL), offered {args.rate:.0f} events/s",
           stats, outcomes, run, before, after, hwm, done, store_bytes(db), args.games)
    print(f"Bot API calls {counts['calls']}; calls carrying the apology text: {counts['matching']}")
    return 0 if not (sum(stats.errors.values()) or outcomes.counts["error"] or counts["matching"]) else 1
