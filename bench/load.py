"""Load benchmark: many concurrent games of every kind through the App on a durable store.

A mix of games in equal shares — 1A2B duels, Logik duels, word rounds (three players, `free`
so any letters work) and Hausnummern games (a scorer, four names) — all in flight at once, each
in its own group chat with its own players, every game played to its end. The games are
paced: each game's players think between moves so that all games together offer `--rate`
inbound events per second, and every game lasts about as long as the others (so nearly all
games are in flight at the peak); games start spread out over the first think.

Printed: games and events by kind, events/s, p50/p99 latency of one event, errors (an
exception, a crash or store refusal logged by the App, or a reply with the apology text; the
target is zero), unexpected refusals/ignored moves (a script error; also zero), the process
memory (RSS before, at the peak of games in flight, after; bytes per game in flight) and the
database size per finished game.

    python -m bench.load [--games 10000] [--rate 800] [--store sqlite|postgresql] [--telegram]

`--store postgresql` uses DATABASE_URL, or a throw-away durable server of the installed
PostgreSQL (tests/pgserver.py with fsync and synchronous commit on).

`--telegram` drives the same mix end to end through the real python-telegram-bot adapter
polling the local stand-in Bot API (tests/telegram/standin.py, in a process of its own), with
AIORateLimiter without group pacing; latency there is from the driver handing the user's message
to the stand-in until the adapter has finished that update (all its Bot API calls done). Memory
and CPU are those of the bot's process (with the small driver), not the stand-in's.
"""

from __future__ import annotations

import argparse
import asyncio
import atexit
import contextlib
import itertools
import logging
import os
import random
import resource
import sqlite3
import sys
import tempfile
import time
import warnings
from array import array
from collections import Counter
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any

from bot.app.app import App
from bot.process.runtime import tune_gc
from core.messages import Actor, Chat, Inbound, Response, Text

PLATFORM = "bench"
KINDS = ("duel", "logik", "words", "kegeln")
EVENTS = {"duel": 20, "logik": 16, "words": 12, "kegeln": 13}  # inbound events per game of each kind
DUEL_GUESSES = ["1234", "5678", "9012", "3456", "7890", "2345", "6789", "0123", "4567", "8901", "1357", "2468"]
LOGIK_ROWS = ["66666", "77777", "88888", "11111", "22222", "33333"]
WORD_MISSES = ["plumb", "ghost", "fizzy", "jumpy", "vowel", "quirk", "dwarf"]
KEGEL_NAMES = ("Anna", "Ben", "Cem", "Dora")
ERROR_OUTCOMES = ("crashed", "store-")
UNEXPECTED_OUTCOMES = ("refused:", "ignored", "flood", "duplicate")


def rss_kib() -> tuple[int, int]:
    """(VmRSS, VmHWM) of this process in KiB."""
    values = {}
    with open("/proc/self/status") as status:
        for line in status:
            if line.startswith(("VmRSS:", "VmHWM:")):
                key, value = line.split(":", 1)
                values[key] = int(value.split()[0])
    return values["VmRSS"], values["VmHWM"]


def pct(values: array[float], p: float) -> float:
    s = sorted(values)
    return s[min(len(s) - 1, round(p / 100 * (len(s) - 1)))] if s else float("nan")


class Outcomes(logging.Handler):
    """Counts the App's own verdict on every inbound (its `handled` log line): crashes, store
    refusals, refused and ignored moves."""

    def __init__(self) -> None:
        super().__init__(logging.INFO)
        self.counts: Counter[str] = Counter()

    def emit(self, record: logging.LogRecord) -> None:
        args = record.args
        if isinstance(args, tuple) and len(args) == 6 and record.levelno == logging.INFO:
            outcome = str(args[4])
            self.counts["handled"] += 1
            if outcome.startswith(ERROR_OUTCOMES):
                self.counts["error"] += 1
                self.counts[outcome] += 1
            elif outcome.startswith(UNEXPECTED_OUTCOMES):
                self.counts["unexpected"] += 1
                self.counts[outcome.split(":")[0] + ":" + outcome.split(":")[-1]] += 1


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


# ---------------------------------------------------------------- report


def report(title: str, stats: Stats, outcomes: Outcomes, run: dict[str, Any], before: int, after: int,
           hwm: int, finished: Counter[str] | None, db_bytes: int | None, games: int) -> None:
    print(title)
    header = f"{'kind':<8} {'games':>6} {'done':>6} {'events':>7} {'p50 ms':>8} {'p99 ms':>8} {'errors':>7}"
    print(header)
    print("-" * len(header))
    all_lat = array("d")
    for kind in KINDS:
        lat = stats.latency[kind]
        all_lat.extend(lat)
        done = finished[kind] if finished is not None else stats.ended[kind]
        print(f"{kind:<8} {stats.started[kind]:>6} {done:>6} {len(lat):>7} {pct(lat, 50) * 1000:>8.2f} "
              f"{pct(lat, 99) * 1000:>8.2f} {stats.errors[kind]:>7}")
    errors = sum(stats.errors.values()) + outcomes.counts["error"]
    done_all = sum(finished.values()) if finished is not None else sum(stats.ended.values())
    print(f"{'all':<8} {sum(stats.started.values()):>6} {done_all:>6} {len(all_lat):>7} "
          f"{pct(all_lat, 50) * 1000:>8.2f} {pct(all_lat, 99) * 1000:>8.2f} {errors:>7}")
    print("-" * len(header))
    eps = len(all_lat) / run["wall"]
    print(f"events/s      {eps:.0f} over {run['wall']:.1f} s (offered: {run['offered']} events at "
          f"{run['offered'] / run['wall']:.0f}/s)")
    print(f"CPU           {run['cpu'] / max(1, len(all_lat)) * 1000:.2f} ms of this process per event "
          f"({run['cpu'] / run['wall'] * 100:.0f} % of one core); machine load average "
          f"{run['load'][0]:.1f} at the start, {run['load'][1]:.1f} at the end (2 cores)")
    print(f"errors        {errors} (exceptions/apologies {sum(stats.errors.values())}, App crashes/store "
          f"refusals {outcomes.counts['error']}); unexpected refusals/ignored moves: "
          f"{outcomes.counts['unexpected']} (of {outcomes.counts['handled']} inbounds the App logged)")
    for key, n in sorted(outcomes.counts.items()):
        if key not in ("error", "unexpected", "handled"):
            print(f"              {key}: {n}")
    for line in stats.failures:
        print(f"              e.g. {line}")
    peak = run["peak"]
    in_flight = peak.get("in_flight", 0)
    per_game = (peak.get("rss", before) - before) * 1024 / max(1, in_flight)
    print(f"memory        RSS before {before / 1024:.1f} MiB, at the peak of {in_flight} games in flight "
          f"{peak.get('rss', 0) / 1024:.1f} MiB, after {after / 1024:.1f} MiB (high-water {hwm / 1024:.1f} MiB)")
    print(f"              {per_game / 1024:.1f} KiB per game in flight "
          f"(from the high-water mark: {(hwm - before) / max(1, in_flight):.1f} KiB)")
    if db_bytes is not None and finished is not None:
        print(f"database      {db_bytes / 1024 / 1024:.1f} MiB for {done_all} finished games: "
              f"{db_bytes / max(1, done_all) / 1024:.1f} KiB per finished game")
    if done_all < games:
        print(f"NOT FINISHED  {games - done_all} of {games} games did not reach their end")


def finished_by_kind(db: Path) -> Counter[str]:
    with sqlite3.connect(db) as conn:
        rows = conn.execute("SELECT kind, COUNT(*) FROM games WHERE over = 1 GROUP BY kind").fetchall()
    return Counter(dict(rows))


async def pg_figures(app: App) -> tuple[Counter[str], int]:
    """Finished games by kind and the database's size, from the PostgreSQL store's own pool."""
    async with app.store._pool.acquire() as conn:  # type: ignore[attr-defined]
        rows = await conn.fetch("SELECT kind, COUNT(*) AS n FROM games WHERE over = 1 GROUP BY kind")
        size = await conn.fetchval("SELECT pg_database_size(current_database())")
    return Counter({r["kind"]: r["n"] for r in rows}), int(size)


def store_bytes(db: Path) -> int:
    return sum(p.stat().st_size for p in db.parent.glob(db.name + "*"))


# ---------------------------------------------------------------- runs


async def open_app(args: argparse.Namespace, db: Path) -> App | None:
    """The App on SQLite, or on PostgreSQL when `--store postgresql` and DATABASE_URL say so;
    with the same runtime settings as `python -m bot`."""
    if args.store == "sqlite":
        app = await App.open(str(db), seed=args.seed, synchronous="FULL")
    else:
        url = os.environ.get("DATABASE_URL", "")
        if not url.startswith(("postgresql://", "postgres://")):
            url = throwaway_postgres() or ""
        if not url:
            print("PostgreSQL store unavailable: set DATABASE_URL=postgresql://… or install postgresql")
            return None
        app = await App.open(url, seed=args.seed)
    tune_gc()
    return app


def throwaway_postgres() -> str | None:
    """A durable (fsync, synchronous commit) server of the installed PostgreSQL on 127.0.0.1 for
    this run, from the test helper; stopped and removed when the benchmark exits."""
    from tests import pgserver

    bindir = pgserver._bindir()
    if bindir is None:
        return None
    cluster = pgserver.Cluster(bindir, durable=True)
    url = cluster.start()
    atexit.register(cluster.stop)
    print(f"PostgreSQL: a throw-away durable server from {bindir} on 127.0.0.1:{cluster.port}")
    return url


async def run_direct(args: argparse.Namespace, workdir: Path) -> int:
    db = workdir / "load.sqlite3"
    app = await open_app(args, db)
    if app is None:
        return 2
    stats, outcomes = Stats(), Outcomes()
    t = Direct(app, stats)
    await warm_up(t)
    sqlite_store = args.store == "sqlite"
    warm, warm_size = (finished_by_kind(db), 0) if sqlite_store else await pg_figures(app)
    attach(outcomes)
    before, _ = rss_kib()
    run = await drive(t, args.games, args.rate, args.seed)
    if sqlite_store:
        await app.close()
        finished, size = finished_by_kind(db) - warm, store_bytes(db)
    else:
        finished, size = await pg_figures(app)
        finished, size = finished - warm, size - warm_size  # growth: an empty database is ~7 MiB of catalog
        await app.close()
    after, hwm = rss_kib()
    title = (f"{args.games} games through App.handle on "
             + ("SQLite (WAL, synchronous=FULL)" if sqlite_store else "PostgreSQL (asyncpg, synchronous commit)")
             + f", offered {args.rate:.0f} events/s")
    report(title, stats, outcomes, run, before, after, hwm, finished, size, args.games)
    return 0 if not (sum(stats.errors.values()) or outcomes.counts["error"]) else 1


def attach(outcomes: Outcomes) -> None:
    log = logging.getLogger("bot.app.app")
    log.setLevel(logging.INFO)
    log.addHandler(outcomes)


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
    from tests.telegram import standin as si

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


async def main() -> int:
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--games", type=int, default=None, help="games in the mix (default 10000; 200 with --telegram)")
    p.add_argument("--rate", type=float, default=None,
                   help="events/s all games together offer (default 800; 100 with --telegram)")
    p.add_argument("--store", choices=("sqlite", "postgresql"), default="sqlite")
    p.add_argument("--telegram", action="store_true", help="end to end through the Telegram adapter and stand-in")
    p.add_argument("--seed", type=int, default=1)
    args = p.parse_args()
    args.games = args.games or (200 if args.telegram else 10_000)
    args.rate = args.rate or (100.0 if args.telegram else 800.0)
    scratch = Path.cwd() / "data" if (Path.cwd() / "data").is_dir() else None
    with tempfile.TemporaryDirectory(dir=scratch) as tmp:
        if args.telegram:
            return await run_telegram(args, Path(tmp))
        return await run_direct(args, Path(tmp))


if __name__ == "__main__":
    sys.exit(asyncio.run(main()))
