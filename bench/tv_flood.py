"""Benchmark: the TV page and ordinary moves under a flood of idle and half-sent connections (issue 39).

The bot (the real App on a SQLite file with its TV server) runs in a child process with the usual limit
of 1,024 open files (`--nofile`); this process opens `--flood` connections to its web server from many
loopback addresses (127.0.x.y), half of them with a half-sent request line, the rest silent, and holds them.
Before and during the flood it measures a scorer's throw (handed to the child, its answer back), the throw
on an open TV page (its server-sent event), and a TV switched on (the page loaded and its stream's first
state). "before": aiohttp's defaults, unguarded (as the server was); "after": the guard of bot/web/guard.py.

    python -m bench.tv_flood [--flood 2000] [--moves 30] [--nofile 1024] [--mode before|after|both]

The child side (`--serve`) is also what tests/web/test_flood.py floods with a small limit.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import resource
import statistics
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

import aiohttp

from bench.sse import states

HALF = b"GET /tv/" + b"x" * 32 + b" HTTP/1.1\r\nHost: tv\r\n"  # a request line and a header, never finished
MEMBERS, PLACES = 20, 6


# ------------------------------------------------------------------ the child: the bot with its TV server
async def serve(db: str, guarded: bool, header_seconds: float, connections: int | None) -> None:
    """The App and its TV server; a game of 20 members; then one throw per line read, answered with its time."""
    from bench.tv import inbound
    from bot.app.app import App
    from bot.web.guard import Limits
    from bot.web.server import TvServer
    from core.messages import Actor

    app = await App.open(db, seed=3)
    tv = TvServer(app, "127.0.0.1", 0, "http://127.0.0.1", Limits(guarded=guarded, header_seconds=header_seconds,
                                                                   connections=connections))
    await tv.start()
    tv.served.public_url = f"http://127.0.0.1:{tv.bound_port}"
    names = [f"M{i}" for i in range(MEMBERS)]
    await app.handle(inbound("kegeln", "high", str(PLACES), *names))
    r = await app.handle(inbound("tv"))
    link = "http" + next(m.text for m in r.messages if isinstance(m.to, Actor)).split("http", 1)[1].split()[0]
    out = sys.stdout
    out.write(json.dumps({"port": tv.bound_port, "link": link,
                          "total": tv.guard.total if tv.guard else None}) + "\n")
    out.flush()
    loop = asyncio.get_running_loop()
    reader = asyncio.StreamReader()
    await loop.connect_read_pipe(lambda: asyncio.StreamReaderProtocol(reader), sys.stdin)
    done = 0
    while line := (await reader.readline()).decode().strip():
        if line == "stats":
            g = tv.guard
            stats = {"open": len(g.open), "refused": g.refused, "evicted": g.evicted, "expired": g.expired} if g else {}
            out.write(json.dumps(stats) + "\n")
            out.flush()
            continue
        if done and done % (MEMBERS * PLACES) == 0:
            await app.handle(inbound("kegeln", "high", str(PLACES), *names))
        n = done % (MEMBERS * PLACES)
        place = "1" + "0" * (PLACES - 1 - n // MEMBERS)
        t0 = time.perf_counter()
        await app.handle(inbound("wurf", str(1 + done % 8), place))
        done += 1
        out.write(json.dumps({"ms": (time.perf_counter() - t0) * 1000, "throws": n + 1}) + "\n")
        out.flush()
    await tv.stop()
    await app.close()


# ------------------------------------------------------------------ this side: the child, the flood, the clock
class Child:
    """The bot in a child process with `nofile` open files at most."""

    def __init__(self, proc: asyncio.subprocess.Process, hello: dict[str, Any]) -> None:
        self.proc, self.port, self.link, self.total = proc, hello["port"], hello["link"], hello["total"]
        self.log: list[bytes] = []
        self._drain = asyncio.create_task(self._read_log())  # a full pipe would stall the child

    async def _read_log(self) -> None:
        assert self.proc.stderr is not None
        while chunk := await self.proc.stderr.read(65536):
            self.log.append(chunk)

    @classmethod
    async def start(cls, db: str, nofile: int, guarded: bool = True, header_seconds: float = 10.0,
                    connections: int | None = None) -> Child:
        def limit() -> None:
            resource.setrlimit(resource.RLIMIT_NOFILE, (nofile, resource.getrlimit(resource.RLIMIT_NOFILE)[1]))
        args = [sys.executable, "-m", "bench.tv_flood", "--serve", "--db", db, "--header-seconds", str(header_seconds)]
        args += [] if guarded else ["--unguarded"]
        args += ["--connections", str(connections)] if connections else []
        proc = await asyncio.create_subprocess_exec(*args, stdin=asyncio.subprocess.PIPE,
                                                    stdout=asyncio.subprocess.PIPE, stderr=asyncio.subprocess.PIPE,
                                                    preexec_fn=limit, limit=2**20)
        assert proc.stdout is not None
        hello = json.loads(await asyncio.wait_for(proc.stdout.readline(), 60))
        return cls(proc, hello)

    async def ask(self, line: str) -> dict[str, Any]:
        assert self.proc.stdin is not None and self.proc.stdout is not None
        self.proc.stdin.write(line.encode() + b"\n")
        await self.proc.stdin.drain()
        reply: dict[str, Any] = json.loads(await asyncio.wait_for(self.proc.stdout.readline(), 30))
        return reply

    async def stop(self) -> str:
        """Ends the child; what it logged."""
        assert self.proc.stdin is not None
        self.proc.stdin.write(b"\n")
        with contextlib.suppress(ConnectionError):
            await self.proc.stdin.drain()
        try:
            await asyncio.wait_for(self.proc.wait(), 15)
        except TimeoutError:
            self.proc.kill()
            await self.proc.wait()
        await self._drain
        return b"".join(self.log).decode(errors="replace")


class Flood:
    """`n` connections held open from many loopback addresses; each knows when the server closed it."""

    def __init__(self) -> None:
        self.writers: list[asyncio.StreamWriter] = []
        self.closed = 0
        self.failed = 0
        self._tasks: list[asyncio.Task[None]] = []

    async def open(self, port: int, n: int, per_address: int = 16) -> None:
        async def one(i: int) -> None:
            addr = f"127.0.{1 + i // per_address // 250}.{2 + i // per_address % 250}"
            try:
                reader, writer = await asyncio.wait_for(
                    asyncio.open_connection("127.0.0.1", port, local_addr=(addr, 0)), 10)
            except (OSError, TimeoutError):
                self.failed += 1
                return
            if i % 2 == 0:
                writer.write(HALF)
            self.writers.append(writer)
            self._tasks.append(asyncio.create_task(self._watch(reader)))
        for start in range(0, n, 200):
            await asyncio.gather(*(one(i) for i in range(start, min(n, start + 200))))

    async def _watch(self, reader: asyncio.StreamReader) -> None:
        with contextlib.suppress(OSError):
            while await reader.read(4096):
                pass
        self.closed += 1

    @property
    def held(self) -> int:
        return len(self.writers) - self.closed

    async def close(self) -> None:
        for t in self._tasks:
            t.cancel()
        for w in self.writers:
            w.close()
        await asyncio.sleep(0.1)


async def first_state(resp: aiohttp.ClientResponse) -> dict[str, Any]:
    async for state in states(resp):
        return state
    raise ConnectionError("the stream ended")


async def switch_on(http: aiohttp.ClientSession, link: str, timeout: float = 5.0) -> float | None:
    """A TV switched on: the page loaded and its stream's first state, in seconds (None: it did not answer)."""
    t0 = time.perf_counter()
    try:
        async with asyncio.timeout(timeout):
            async with http.get(link) as page:
                await page.read()
                if page.status != 200:
                    return None
            async with http.get(link + "/events") as events:
                if events.status != 200:
                    return None
                await first_state(events)
    except (TimeoutError, aiohttp.ClientError, ConnectionError):
        return None
    return time.perf_counter() - t0


class Watcher:
    """An open TV page: when each throw count arrived."""

    def __init__(self) -> None:
        self.seen: dict[int, float] = {}
        self.task: asyncio.Task[None] | None = None

    async def run(self, resp: aiohttp.ClientResponse) -> None:
        async for state in states(resp):
            game = state.get("game") or {}
            self.seen.setdefault(game.get("throws", 0), time.perf_counter())

    async def arrival(self, throws: int, timeout: float = 5.0) -> float | None:
        end = time.perf_counter() + timeout
        while throws not in self.seen and time.perf_counter() < end:
            await asyncio.sleep(0.001)
        return self.seen.get(throws)


async def measure(child: Child, http: aiohttp.ClientSession, watcher: Watcher, moves: int) -> dict[str, Any]:
    """`moves` throws (the child's answer, the open page's event) and a TV switched on after every fifth."""
    answered: list[float] = []
    on_page: list[float] = []
    switched: list[float] = []
    lost = missed = 0
    for i in range(moves):
        watcher.seen.clear()
        t0 = time.perf_counter()
        reply = await child.ask("throw")
        answered.append((time.perf_counter() - t0) * 1000)
        at = await watcher.arrival(reply["throws"])
        if at is None:
            lost += 1
        else:
            on_page.append((at - t0) * 1000)
        if i % 5 == 0:
            took = await switch_on(http, child.link)
            if took is None:
                missed += 1
            else:
                switched.append(took * 1000)
    return {"move": answered, "page": on_page, "lost": lost, "switch_on": switched, "missed": missed}


def q(values: list[float]) -> str:
    if not values:
        return "—"
    v = sorted(values)
    p99 = statistics.quantiles(v, n=100)[98] if len(v) > 1 else v[0]
    return f"p50 {statistics.median(v):.0f} ms, p99 {p99:.0f} ms"


async def run(mode: str, flood_n: int, moves: int, nofile: int) -> str:
    with tempfile.TemporaryDirectory() as tmp:
        child = await Child.start(str(Path(tmp) / "bench.sqlite3"), nofile, guarded=(mode == "after"))
        flood = Flood()
        timeout = aiohttp.ClientTimeout(total=None, sock_read=None)
        async with aiohttp.ClientSession(timeout=timeout) as http:
            watcher = Watcher()
            stream = await http.get(child.link + "/events")
            watcher.task = asyncio.create_task(watcher.run(stream))
            quiet = await measure(child, http, watcher, moves)
            t0 = time.perf_counter()
            await flood.open(child.port, flood_n)
            opened = time.perf_counter() - t0
            await asyncio.sleep(1.0)
            held_at_start = flood.held
            flooded = await measure(child, http, watcher, moves)
            stats = await child.ask("stats") if mode == "after" else {}
            held = flood.held
            watcher.task.cancel()
            stream.close()
        await flood.close()
        log = await child.stop()
    emfile = log.count("Too many open files")
    lines = [f"{mode} ({'aiohttp defaults, unguarded' if mode == 'before' else 'bot/web/guard.py'}; "
             f"{nofile} open files, bound in all {child.total or '—'}):",
             f"  quiet:   throw answered {q(quiet['move'])}; on the open page {q(quiet['page'])}; "
             f"TV switched on {q(quiet['switch_on'])}",
             f"  flood:   {flood_n} connections tried in {opened:.1f} s ({flood.failed} failed to connect), "
             f"held by the server 1 s later {held_at_start}, at the end {held}",
             f"  flooded: throw answered {q(flooded['move'])}; on the open page {q(flooded['page'])} "
             f"({flooded['lost']} of {moves} never arrived); TV switched on {q(flooded['switch_on'])} "
             f"({flooded['missed']} of {len(flooded['switch_on']) + flooded['missed']} failed within 5 s)",
             f"  log: {emfile} 'Too many open files'" + (f"; guard {stats}" if stats else "")]
    return "\n".join(lines)


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("--flood", type=int, default=2000)
    p.add_argument("--moves", type=int, default=30)
    p.add_argument("--nofile", type=int, default=1024, help="the bot's limit of open files")
    p.add_argument("--mode", choices=("before", "after", "both"), default="both")
    p.add_argument("--serve", action="store_true", help=argparse.SUPPRESS)
    p.add_argument("--db", help=argparse.SUPPRESS)
    p.add_argument("--unguarded", action="store_true", help=argparse.SUPPRESS)
    p.add_argument("--header-seconds", type=float, default=10.0, help=argparse.SUPPRESS)
    p.add_argument("--connections", type=int, default=None, help=argparse.SUPPRESS)
    a = p.parse_args()
    if a.serve:
        asyncio.run(serve(a.db, not a.unguarded, a.header_seconds, a.connections))
        return
    _soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    resource.setrlimit(resource.RLIMIT_NOFILE, (hard, hard))  # this side holds the flood's sockets
    for mode in ("before", "after") if a.mode == "both" else (a.mode,):
        print(asyncio.run(run(mode, a.flood, a.moves, a.nofile)), flush=True)


if __name__ == "__main__":
    main()
