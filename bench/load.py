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
import os
import sys
import tempfile
from pathlib import Path

from bench.load_mix import Direct, Stats, drive, rss_kib, warm_up
from bench.load_report import Outcomes, attach, finished_by_kind, pg_figures, report, store_bytes
from bench.load_telegram import run_telegram
from bot.app.app import App
from bot.process.runtime import tune_gc


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
