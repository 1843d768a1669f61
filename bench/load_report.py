"""The load benchmark's report: the App's own verdict on every inbound counted, and the printed table.

The table (bench/load.py's docstring says what it holds) reads the games finished from the store,
SQLite or PostgreSQL, and the database's size.
"""

from __future__ import annotations

import logging
import sqlite3
from array import array
from collections import Counter
from pathlib import Path
from typing import Any

from bench.load_mix import KINDS, Stats
from bot.app.app import App

ERROR_OUTCOMES = ("crashed", "store-")
UNEXPECTED_OUTCOMES = ("refused:", "ignored", "flood", "duplicate")


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


def attach(outcomes: Outcomes) -> None:
    log = logging.getLogger("bot.app.app")
    log.setLevel(logging.INFO)
    log.addHandler(outcomes)


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

