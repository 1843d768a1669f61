"""The load benchmark's mix (bench/load.py): its four kinds of game, how a message reaches the bot, driving N.

Every game is scripted to its end and paced (`think`), so that all games together offer the rate
the runner asks for; `drive` plays them and measures the wall time, CPU and memory at the peak.
"""

from __future__ import annotations

import asyncio
import contextlib
import itertools
import os
import random
import resource
import time
from array import array
from collections import Counter
from collections.abc import Awaitable, Callable
from typing import Any

from bot.app.app import App
from core.messages import Actor, Chat, Inbound, Response, Text

PLATFORM = "bench"
KINDS = ("duel", "logik", "words", "kegeln")
EVENTS = {"duel": 20, "logik": 16, "words": 12, "kegeln": 13}  # inbound events per game of each kind
DUEL_GUESSES = ["1234", "5678", "9012", "3456", "7890", "2345", "6789", "0123", "4567", "8901", "1357", "2468"]
LOGIK_ROWS = ["66666", "77777", "88888", "11111", "22222", "33333"]
WORD_MISSES = ["plumb", "ghost", "fizzy", "jumpy", "vowel", "quirk", "dwarf"]
KEGEL_NAMES = ("Anna", "Ben", "Cem", "Dora")


def rss_kib() -> tuple[int, int]:
    """(VmRSS, VmHWM) of this process in KiB."""
    values = {}
    with open("/proc/self/status") as status:
        for line in status:
            if line.startswith(("VmRSS:", "VmHWM:")):
                key, value = line.split(":", 1)
                values[key] = int(value.split()[0])
    return values["VmRSS"], values["VmHWM"]


class Stats:
    def __init__(self) -> None:
        self.latency: dict[str, array[float]] = {k: array("d") for k in KINDS}
        self.errors: Counter[str] = Counter()  # by kind: exceptions and apology replies
        self.failures: list[str] = []  # first few messages, for the report
        self.in_flight = 0
        self.peak = 0
        self.started: Counter[str] = Counter()
        self.ended: Counter[str] = Counter()

    def error(self, kind: str, what: str) -> None:
        self.errors[kind] += 1
        if len(self.failures) < 5:
            self.failures.append(f"{kind}: {what}")


# ---------------------------------------------------------------- transports


class Transport:
    """How a player's message reaches the bot: straight into App.handle, or through Telegram."""

    app: App
    platform: str
    stats: Stats
    apology: str

    def uid(self, who: str) -> str:
        raise NotImplementedError

    def group_id(self, i: int) -> str:
        raise NotImplementedError

    async def send(self, kind: str, who: str, where: int | None, text: str) -> None:
        """`who` writes `text` in group `where`, or privately to the bot when `where` is None."""
        raise NotImplementedError

    async def seated(self, who: str, i: int) -> dict[str, Any]:
        rows = await self.app.store.seated_games(self.platform, self.uid(who), self.group_id(i))
        assert rows, f"{who} has no game in group {i}"
        return rows[-1].state

    def check(self, kind: str, r: Response) -> None:
        texts = [m.text for m in r.messages] + ([r.notice] if r.notice else [])
        if any(self.apology in t for t in texts):
            self.stats.error(kind, "apology: " + " | ".join(texts)[:200])


class Direct(Transport):
    def __init__(self, app: App, stats: Stats) -> None:
        self.app, self.stats, self.platform = app, stats, PLATFORM
        self.apology = app.catalogs.render(Text("error.internal"), "en")
        self._ids = itertools.count()

    def uid(self, who: str) -> str:
        return who

    def group_id(self, i: int) -> str:
        return f"g{i}"

    async def send(self, kind: str, who: str, where: int | None, text: str) -> None:
        chat = Chat(PLATFORM, f"dm-{who}", True) if where is None else Chat(PLATFORM, f"g{where}", False)
        actor = Actor(PLATFORM, who, who.capitalize(), "en")
        if text.startswith("/"):
            name, *args = text[1:].split()
            ib = Inbound(actor, chat, command=name, args=tuple(args), event_id=f"e{next(self._ids)}")
        else:
            ib = Inbound(actor, chat, text=text, event_id=f"e{next(self._ids)}")
        t0 = time.perf_counter()
        try:
            r = await self.app.handle(ib)
        except Exception as exc:  # handle() must never raise
            self.stats.error(kind, f"{type(exc).__name__}: {exc}")
            return
        finally:
            self.stats.latency[kind].append(time.perf_counter() - t0)
        self.check(kind, r)


# ---------------------------------------------------------------- the games


async def think(pace: float, rng: random.Random) -> None:
    if pace > 0:
        await asyncio.sleep(rng.uniform(0, 2 * pace))


async def play_duel(t: Transport, i: int, step: Callable[..., Awaitable[None]]) -> None:
    """An open challenge, /accept, two secrets privately, 16 guesses; the second player cracks."""
    a, b = f"a{i}", f"b{i}"
    await step(a, i, "/duel")
    await step(b, i, "/accept")
    await step(a, None, "9876")  # b must crack 9876
    await step(b, None, "0123")  # a must crack 0123
    first = (await t.seated(a, i))["starter"]
    first, second = (a, b) if first == t.uid(a) else (b, a)
    crack = "9876" if second == b else "0123"
    plan = [*[g for g in DUEL_GUESSES if g not in (crack, "0123")][:7], crack]
    for n, guess in enumerate(plan):
        await step(first, i, DUEL_GUESSES[-1 - n] if DUEL_GUESSES[-1 - n] != "0123" else "1470")
        await step(second, i, guess)


async def play_logik(t: Transport, i: int, step: Callable[..., Awaitable[None]]) -> None:
    """An open challenge, /accept, two secret rows, six rounds; the challenger cracks in round 6."""
    a, b = f"la{i}", f"lb{i}"
    await step(a, i, "/logik")
    await step(b, i, "/accept")
    await step(a, None, "12345")
    await step(b, None, "54321")
    for n in range(6):
        await step(a, i, LOGIK_ROWS[n] if n < 5 else "54321")
        await step(b, i, LOGIK_ROWS[-1 - n])


async def play_words(t: Transport, i: int, step: Callable[..., Awaitable[None]]) -> None:
    """A lobby of three (`free`, first to one point), the drawn setter's word, seven guesses."""
    players = [f"wa{i}", f"wb{i}", f"wc{i}"]
    await step(players[0], i, "/words free points 1 length 5")
    await step(players[1], i, "/join")
    await step(players[2], i, "/join")
    await step(players[0], i, "/begin")
    setter_uid = (await t.seated(players[0], i))["setter"]
    setter = next(p for p in players if t.uid(p) == setter_uid)
    await step(setter, None, "crane")
    turn_uid = (await t.seated(players[0], i))["turn"]
    guessers = [p for p in players if p != setter]
    if t.uid(guessers[0]) != turn_uid:
        guessers.reverse()
    for n, word in enumerate([*WORD_MISSES[:6], "crane"]):
        await step(guessers[n % 2], i, word)


async def play_kegeln(t: Transport, i: int, step: Callable[..., Awaitable[None]]) -> None:
    """Hausnummern high, 3 places, four names: twelve one-step throws, a clear winner."""
    scorer = f"k{i}"
    await step(scorer, i, f"/kegeln high 3 {' '.join(KEGEL_NAMES)}")
    for place in ("H", "T", "O"):
        for j in range(len(KEGEL_NAMES)):
            await step(scorer, i, f"/wurf {9 - j} {place}")


PLAYS = {"duel": play_duel, "logik": play_logik, "words": play_words, "kegeln": play_kegeln}


async def one_game(t: Transport, i: int, kind: str, duration: float, rng: random.Random) -> None:
    stats = t.stats
    pace = duration / EVENTS[kind]  # every kind lasts about `duration`; all together offer the rate
    first = True

    async def step(who: str, where: int | None, text: str) -> None:
        nonlocal first
        await think(pace, rng)
        if first:
            first = False
            stats.started[kind] += 1
            stats.in_flight += 1
            stats.peak = max(stats.peak, stats.in_flight)
        await t.send(kind, who, where, text)

    try:
        await PLAYS[kind](t, i, step)
    except Exception as exc:
        stats.error(kind, f"script {type(exc).__name__}: {exc}")
    finally:
        if not first:
            stats.in_flight -= 1
        stats.ended[kind] += 1


async def sample_memory(stats: Stats, into: dict[str, int], stop: asyncio.Event) -> None:
    """RSS at the moment the most games were in flight."""
    while not stop.is_set():
        rss, _ = rss_kib()
        if stats.in_flight >= into.get("in_flight", 0):
            into["in_flight"], into["rss"] = stats.in_flight, rss
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(stop.wait(), 0.25)


async def drive(t: Transport, games: int, rate: float, seed: int, first_group: int = 0) -> dict[str, Any]:
    kinds = [KINDS[i % len(KINDS)] for i in range(games)]
    total = sum(EVENTS[k] for k in kinds)
    duration = total / rate if rate > 0 else 0.0
    rng = random.Random(seed)
    peak: dict[str, int] = {}
    stop = asyncio.Event()
    sampler = asyncio.create_task(sample_memory(t.stats, peak, stop))
    load0, cpu0, t0 = os.getloadavg()[0], cpu_seconds(), time.perf_counter()
    await asyncio.gather(*(one_game(t, first_group + i, k, duration, rng) for i, k in enumerate(kinds)))
    wall = time.perf_counter() - t0
    cpu, load1 = cpu_seconds() - cpu0, os.getloadavg()[0]
    stop.set()
    await sampler
    return {"wall": wall, "offered": total, "peak": peak, "cpu": cpu, "load": (load0, load1)}


def cpu_seconds() -> float:
    usage = resource.getrusage(resource.RUSAGE_SELF)
    return usage.ru_utime + usage.ru_stime


async def warm_up(t: Transport) -> None:
    """One game of each kind before the baseline: imports, catalogs, fonts, caches."""
    stats = t.stats
    await drive(t, len(KINDS), 0.0, 0, first_group=10_000_000)
    for arr in stats.latency.values():
        del arr[:]
    stats.started.clear()
    stats.ended.clear()
    stats.peak = 0
