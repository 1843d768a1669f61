"""Benchmark: N concurrent 1A2B duels through the App on a durable SQLite file.

Prints, per N: inbound events/s, p50/p99 latency per event, DB size per finished game,
the cost of one bare durable aiosqlite commit of one row (measured in the same run on
the same disk), and the ratio event cost / bare commit.

Each N is run twice, on a fresh database each time:
- closed: every duel sends its next move the moment the previous one is answered (all N in
  flight at once): throughput, and the busy cost of one event against one bare commit;
- paced: every duel's players think between moves, so the N duels together offer `--rate`
  events per second (chat-like traffic: many games, each slow): latency p50/p99.

    python -m bench.duels [--n 10 100 1000] [--rate 400]
"""

from __future__ import annotations

import argparse
import asyncio
import itertools
import os
import random
import sqlite3
import statistics
import tempfile
import time
from pathlib import Path

import aiosqlite

from bench import moves
from bot.app.app import App
from core.messages import Actor, Chat, Inbound

PLATFORM = "bench"
GUESSES = ["1234", "5678", "9012", "3456", "7890", "2345", "6789", "0123", "4567", "8901", "1357", "2468"]


class Driver:
    def __init__(self, app: App) -> None:
        self.app = app
        self.latencies: list[float] = []
        self._ids = itertools.count()

    async def send(self, who: str, chat: Chat, **kw: object) -> None:
        ib = Inbound(Actor(PLATFORM, who, who, "en"), chat, event_id=f"e{next(self._ids)}", **kw)  # type: ignore[arg-type]
        t0 = time.perf_counter()
        await self.app.handle(ib)
        self.latencies.append(time.perf_counter() - t0)


async def think(pace: float, rng: random.Random) -> None:
    if pace > 0:
        await asyncio.sleep(rng.uniform(0, 2 * pace))


async def one_duel(d: Driver, i: int, pace: float, rng: random.Random) -> None:
    """Challenge, accept, two secrets, then alternate guesses until the second player cracks."""
    group = Chat(PLATFORM, f"g{i}", private=False)
    a, b = f"a{i}", f"b{i}"
    await think(pace, rng)  # duels start spread out too, not all in the same millisecond
    await d.send(a, group, command="duel", args=(f"<@{b}>",))
    await think(pace, rng)
    await d.send(b, group, command="accept")
    await think(pace, rng)
    await d.send(a, Chat(PLATFORM, f"dm-{a}", True), text="9876")  # b must crack 9876
    await think(pace, rng)
    await d.send(b, Chat(PLATFORM, f"dm-{b}", True), text="0123")  # a must crack 0123
    row = (await d.app.store.seated_games(PLATFORM, a, group.chat_id))[0]
    first = row.state["starter"]
    second = b if first == a else a
    # the first player never cracks; the second cracks 9876 or 0123 on its 8th guess
    crack = "9876" if second == b else "0123"
    plan = [*[g for g in GUESSES if g != crack and g != "0123"][:7], crack]
    for n, guess in enumerate(plan):
        await think(pace, rng)
        await d.send(first, group, text=GUESSES[-1 - n] if GUESSES[-1 - n] != "0123" else "1470")
        await think(pace, rng)
        await d.send(second, group, text=guess)


async def bare_commit(path: Path, rounds: int = 300) -> float:
    """Median seconds of one durable commit of one row (WAL, synchronous=FULL)."""
    conn = await aiosqlite.connect(path, isolation_level=None)
    for pragma in ("journal_mode=WAL", "synchronous=FULL"):
        await conn.execute(f"PRAGMA {pragma}")
    await conn.execute("CREATE TABLE t (id INTEGER PRIMARY KEY, v TEXT)")
    times = []
    for i in range(rounds):
        t0 = time.perf_counter()
        await conn.execute("BEGIN IMMEDIATE")
        await conn.execute("INSERT INTO t (v) VALUES (?)", (f"row {i}",))
        await conn.execute("COMMIT")
        times.append(time.perf_counter() - t0)
    await conn.close()
    return statistics.median(times)


def pct(values: list[float], p: float) -> float:
    s = sorted(values)
    return s[min(len(s) - 1, round(p / 100 * (len(s) - 1)))]


async def run(n: int, mode: str, rate: float, workdir: Path) -> dict[str, float]:
    db = workdir / f"duels-{n}-{mode}.sqlite3"
    app = await App.open(str(db), seed=n, synchronous="FULL")
    d = Driver(app)
    events_per_duel = 4 + 16
    pace = (n * 1.0 / rate) if mode == "paced" else 0.0
    rng = random.Random(n)
    t0 = time.perf_counter()
    await asyncio.gather(*(one_duel(d, i, pace, rng) for i in range(n)))
    wall = time.perf_counter() - t0
    await app.close()
    with sqlite3.connect(db) as check:
        (finished,) = check.execute("SELECT COUNT(*) FROM games WHERE over = 1").fetchone()
    assert finished == n, f"{finished} of {n} duels finished"
    size = sum(os.path.getsize(p) for p in workdir.glob(f"duels-{n}-{mode}.sqlite3*"))
    commit = await bare_commit(workdir / f"bare-{n}-{mode}.sqlite3")
    events = len(d.latencies)
    assert events == n * events_per_duel, (events, n * events_per_duel)
    return {
        "n": n, "events": events, "wall": wall, "eps": events / wall,
        "p50": pct(d.latencies, 50) * 1000, "p99": pct(d.latencies, 99) * 1000,
        "size": size / max(1, n), "finished": finished, "commit": commit * 1000,
        "cost": wall / events * 1000,  # under the closed load: busy time the machine spent per event
    }


async def main() -> None:
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--n", type=int, nargs="+", default=[10, 100, 1000])
    p.add_argument("--rate", type=float, default=400.0, help="offered events/s in the paced run")
    args = p.parse_args()
    scratch = Path.cwd() / "data" if (Path.cwd() / "data").is_dir() else None
    with tempfile.TemporaryDirectory(dir=scratch) as tmp:
        print(f"SQLite synchronous=FULL, WAL, on the disk of {tmp}")
        print("closed: all N duels send their next move as soon as the last is answered (throughput);")
        print(f"paced:  the N duels together offer {args.rate:.0f} events/s, moves spread at random (latency).")
        header = (f"{'N':>6} {'events':>7} {'events/s':>9} {'cost ms':>8} {'commit ms':>10} {'ratio':>6} "
                  f"{'p50 ms':>8} {'p99 ms':>8} {'KiB/game':>9}")
        print(header)
        print("-" * len(header))
        load0 = os.getloadavg()[0]
        for n in args.n:
            closed = await run(n, "closed", args.rate, Path(tmp))
            paced = await run(n, "paced", args.rate, Path(tmp))
            print(f"{n:>6} {closed['events']:>7} {closed['eps']:>9.0f} {closed['cost']:>8.3f} "
                  f"{closed['commit']:>10.3f} {closed['cost'] / closed['commit']:>6.2f} "
                  f"{paced['p50']:>8.2f} {paced['p99']:>8.2f} {paced['size'] / 1024:>9.1f}", flush=True)
        print("cost = busy wall time per event under the closed load; commit = median of one bare durable")
        print("aiosqlite commit of one row on the same disk, measured in the same run; ratio = cost / commit.")
        print("p50/p99: latency of one handle() call in the paced run; KiB/game: database size / finished duels.")
        print(f"machine load average {load0:.1f} at the start, {os.getloadavg()[0]:.1f} at the end "
              f"({os.cpu_count()} cores): compare runs only at like loads, back to back")
        counted = await moves.count_moves(Path(tmp), ("duel",))
        ordinary = counted.ordinary("duel")
        print(f"per ordinary guess (one duel played alone, bench/moves.py): "
              f"{moves.ordinary_statements(counted, 'duel'):.2f} SQL statements "
              f"({statistics.mean(m.reads for m in ordinary):.2f} reads), "
              f"{statistics.mean(m.calls for m in ordinary):.0f} Python calls; the final guess "
              f"{len(counted.final('duel').statements)} statements")


if __name__ == "__main__":
    asyncio.run(main())
