"""Heavy solver work beside ordinary moves: how long does an ordinary move take while 20 users
ask for an /analyse or a /hint in 5-digit 1A2B with repeats (the largest space, 100 000 codes)?

Through `App.handle` on a SQLite file (WAL, synchronous=FULL). Ordinary traffic: `--games`
practice games of 4 digits in their own chats, each player sending a random guess at random
moments, together `--rate` guesses per second (a finished game is replaced by a new one). First a
quiet phase (`--quiet` seconds: ordinary traffic alone), then `--heavy` requests at once, half
/analyse of distinct finished games (a few random guesses, then /giveup: the coaching plays the
strong solver's own game against each secret), half /hint in distinct running games (two random
guesses each: no opening book covers them). Ordinary traffic goes on until the last heavy answer.

Printed: p50/p99/max latency of one ordinary guess in the quiet phase and while the heavy work
runs, the heavy requests' own latencies (/hint and /analyse apart) and how many were refused as
busy. Not a test: figures depend on the machine and what else it does (see the load average printed).

A shared host: `--hogs 0 1` runs the whole measurement twice, first alone, then beside one busy
neighbour (a process spinning at normal priority for the whole run), and prints a table each time.
`--blas 2` gives each worker numpy's default of a BLAS thread per core, as before bot/solver/thinking.py
set one: beside a neighbour the nice-19 worker's second thread then starves, and its first waits.

    python -m bench.heavy [--heavy 20] [--games 40] [--rate 100] [--quiet 3] [--seed 1] [--hogs 0 1] [--blas 1]
"""

from __future__ import annotations

import argparse
import asyncio
import itertools
import logging
import os
import random
import subprocess
import sys
import tempfile
import time
from array import array
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

from bot.app.app import App
from bot.process.runtime import tune_gc
from bot.solver import book as solver_book
from bot.solver import thinking
from core.codes import CodeRules
from core.messages import Actor, Chat, Inbound, Response
from core.solver import games as solver_games

PLATFORM = "bench"
ANSWER_MARKS = ("strong solver on the same code", "strong next guess")  # the English answers of /analyse, /hint
BUSY_MARK = "busy thinking"  # the English "solver.busy" reply (checked by text, like a user reads it)


def warm(solver: Any, i: int) -> int:
    """Loads a space's book in one worker (each sleeps a little, so every worker gets one)."""
    time.sleep(0.5)
    return int(solver.count([]))


def pct(values: array[float], p: float) -> float:
    s = sorted(values)
    return s[min(len(s) - 1, round(p / 100 * (len(s) - 1)))] if s else float("nan")


class Driver:
    def __init__(self, app: App) -> None:
        self.app = app
        self._ids = itertools.count(1)

    async def say(self, who: str, chat: str, text: str) -> Response:
        actor = Actor(PLATFORM, who, who.capitalize(), "en")
        where = Chat(PLATFORM, chat, private=False)
        ev = f"e{next(self._ids)}"
        if text.startswith("/"):
            name, *args = text[1:].split()
            return await self.app.handle(Inbound(actor, where, command=name, args=tuple(args), event_id=ev))
        return await self.app.handle(Inbound(actor, where, text=text, event_id=ev))


def texts(r: Response) -> str:
    return "\n".join(m.text for m in r.messages)


def code(rng: random.Random, length: int, repeats: bool) -> str:
    if repeats:
        return "".join(rng.choice("0123456789") for _ in range(length))
    return "".join(rng.sample("0123456789", length))


async def prepare_heavy(d: Driver, n: int, rng: random.Random) -> list[tuple[str, str, str]]:
    """(player, chat, command) of `n` heavy requests on distinct positions of 5 digits with repeats."""
    jobs = []
    for i in range(n):
        who, chat = f"h{i}", f"heavy-{i}"
        await d.say(who, chat, "/practice 5 repeats")
        if i % 2 == 0:
            for _ in range(rng.randint(1, 3)):
                await d.say(who, chat, code(rng, 5, True))
            await d.say(who, chat, "/giveup")
            jobs.append((who, chat, "/analyse"))
        else:
            for _ in range(2):
                await d.say(who, chat, code(rng, 5, True))
            jobs.append((who, chat, "/hint"))
    return jobs


async def ordinary(d: Driver, i: int, rate_each: float, stop: asyncio.Event, phase: list[str],
                   latency: dict[str, array[float]], rng: random.Random) -> None:
    who, chat = f"p{i}", f"plain-{i}"
    await d.say(who, chat, "/practice 4")
    while not stop.is_set():
        await asyncio.sleep(rng.expovariate(rate_each))
        now = phase[0]
        t0 = time.perf_counter()
        r = await d.say(who, chat, code(rng, 4, False))
        latency[now].append((time.perf_counter() - t0) * 1000)
        if "cracked" in texts(r).lower() or "/practice" in texts(r):
            await d.say(who, chat, "/practice 4")


async def loop_lag(stop: asyncio.Event, phase: list[str], lag: dict[str, array[float]]) -> None:
    """How late a 5 ms timer fires: the time the event loop was busy elsewhere (or had no CPU)."""
    while not stop.is_set():
        now = phase[0]
        t0 = time.perf_counter()
        await asyncio.sleep(0.005)
        lag[now].append(max(0.0, (time.perf_counter() - t0) * 1000 - 5))


HOG = "while True: pass"  # a busy neighbour: one core's worth of pure CPU at normal priority


async def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(prog="python -m bench.heavy", description=__doc__.split("\n\n")[0])
    p.add_argument("--heavy", type=int, default=20)
    p.add_argument("--games", type=int, default=40)
    p.add_argument("--rate", type=float, default=100.0, help="ordinary guesses per second, all games together")
    p.add_argument("--quiet", type=float, default=3.0, help="seconds of ordinary traffic alone first")
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--pool", choices=("process", "thread"), default="process",
                   help="where the App thinks: worker processes (what the bot does) or threads (to compare)")
    p.add_argument("--workers", type=int, default=thinking.WORKERS)
    p.add_argument("--nice", type=int, default=thinking.NICE, help="worker processes' CPU priority below the bot's")
    p.add_argument("--limit", type=int, default=thinking.LIMIT, help="computations in flight before 'busy'")
    p.add_argument("--blas", type=int, default=1,
                   help="BLAS threads per worker process (numpy's own default: one a core)")
    p.add_argument("--hogs", type=int, nargs="+", default=[0],
                   help="run once per number: with that many busy neighbour processes beside the bot")
    args = p.parse_args(argv)
    logging.basicConfig(level=logging.WARNING)
    for hogs in args.hogs:
        neighbours = [subprocess.Popen([sys.executable, "-c", HOG]) for _ in range(hogs)]
        try:
            await measure(args, hogs)
        finally:
            for n in neighbours:
                n.kill()
                n.wait()
        print()
    return 0


async def measure(args: argparse.Namespace, hogs: int) -> None:
    """One run of the whole measurement, and its table."""
    rng = random.Random(args.seed)
    with tempfile.TemporaryDirectory(prefix="bench-heavy-") as tmp:
        app = await App.open(str(Path(tmp) / "bench.sqlite3"), seed=args.seed)
        app.solver_cache = str(Path(tmp) / "solver-cache")
        pool = (ThreadPoolExecutor(args.workers) if args.pool == "thread"
                else thinking.process_pool(args.workers, args.nice, args.blas))
        app.thinker = thinking.Thinker(args.limit, pool)
        tune_gc()
        d = Driver(app)
        try:
            # warm-up: every worker started, with the opening books of both spaces loaded
            for space in ("5 repeats", "4"):
                await d.say("warm", f"warm-{space}", f"/practice {space}")
                await asyncio.gather(*(d.app.thinker.run(("warm", space, i), solver_book.with_solver,
                                                         solver_games.spec_for(CodeRules(int(space[0]), "r" in space)),
                                                         app.solver_cache, warm, i)
                                       for i in range(args.workers)))
            jobs = await prepare_heavy(d, args.heavy, rng)
            latency = {"quiet": array("d"), "heavy": array("d")}
            phase, stop = ["quiet"], asyncio.Event()
            players = [asyncio.create_task(ordinary(d, i, args.rate / args.games, stop, phase, latency,
                                                    random.Random(args.seed * 1000 + i)))
                       for i in range(args.games)]
            lag = {"quiet": array("d"), "heavy": array("d")}
            players.append(asyncio.create_task(loop_lag(stop, phase, lag)))
            cpu0, wall0 = time.process_time(), time.perf_counter()
            await asyncio.sleep(args.quiet)
            load0 = os.getloadavg()[0]
            cpu_quiet = (time.process_time() - cpu0) / (time.perf_counter() - wall0)
            cpu0 = time.process_time()
            phase[0] = "heavy"
            heavy_ms: dict[str, array[float]] = {"/hint": array("d"), "/analyse": array("d")}
            busy = answered = 0

            async def one(who: str, chat: str, command: str) -> None:
                nonlocal busy, answered
                t0 = time.perf_counter()
                r = await d.say(who, chat, command)
                heavy_ms[command].append((time.perf_counter() - t0) * 1000)
                busy += BUSY_MARK in texts(r)
                answered += any(mark in texts(r) for mark in ANSWER_MARKS)

            t0 = time.perf_counter()
            await asyncio.gather(*(one(*job) for job in jobs))
            span = time.perf_counter() - t0
            cpu_heavy = (time.process_time() - cpu0) / span
            stop.set()
            await asyncio.gather(*players)
            load1 = os.getloadavg()[0]
        finally:
            await app.close()
            pool.shutdown()
    print(f"{args.heavy} heavy requests (/analyse and /hint, 5 digits with repeats) beside "
          f"{args.games} practice games offering {args.rate:g} guesses/s, through App.handle on SQLite")
    print(f"({args.pool} pool of {args.workers}"
          + (f", nice {args.nice}, {args.blas} BLAS thread(s) each" if args.pool == "process" else "")
          + f", at most {args.limit} computations in flight; {hogs} busy neighbour process(es) beside it)")
    print(f"{'phase':<22}{'moves':>7}{'p50 ms':>9}{'p99 ms':>9}{'max ms':>9}")
    print("-" * 56)
    for name, title in (("quiet", "ordinary, quiet"), ("heavy", "ordinary, under heavy")):
        v = latency[name]
        print(f"{title:<22}{len(v):>7}{pct(v, 50):>9.1f}{pct(v, 99):>9.1f}{max(v, default=float('nan')):>9.1f}")
    for name, title in (("quiet", "loop lag, quiet"), ("heavy", "loop lag, under heavy")):
        v = lag[name]
        print(f"{title:<22}{len(v):>7}{pct(v, 50):>9.1f}{pct(v, 99):>9.1f}{max(v, default=float('nan')):>9.1f}")
    for command, v in heavy_ms.items():
        print(f"{command:<22}{len(v):>7}{pct(v, 50):>9.1f}{pct(v, 99):>9.1f}{max(v, default=float('nan')):>9.1f}")
    print("-" * 56)
    print(f"CPU of the bot's own process: {cpu_quiet:.0%} of a core quiet, {cpu_heavy:.0%} under heavy work "
          "(workers not counted)")
    print(f"heavy work took {span:.1f} s in all; answered {answered}, refused as busy {busy} of {args.heavy}; "
          f"machine load average {load0:.1f} before, {load1:.1f} after ({os.cpu_count()} cores)")


if __name__ == "__main__":
    sys.exit(asyncio.run(main()))
