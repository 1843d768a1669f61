"""Benchmark: the deterministic cost of one move — SQL statements and Python calls — per game kind.

One game of each kind of the load mix (bench/load_mix.py: a 1A2B duel, a Logik duel, a word round, a
Hausnummern game) is played alone through `App.handle` on a SQLite file, one inbound after the
other, with SQLite's trace callback on both connections and a profile hook counting Python function
calls (a coroutine's resumption counts as a call). Unlike a time, these counts do not depend on the
machine or its load: a change that adds work to every move shows here exactly.

Printed per kind: statements per ordinary move (every inbound after the game's opening ones and
before its last: a guess, a row, a word, a throw), per final move (the one that ends, records and
rates the game) and per whole game; the reads among them; Python calls per ordinary move.
Transaction control (BEGIN, SAVEPOINT, RELEASE, COMMIT) is not counted: one commit serves a batch.

    python -m bench.moves [--show KIND] [--cash]   # --show: print the statements of one ordinary and the final
                                                   # move; --cash: with the Kegel cash box on in every chat
"""

from __future__ import annotations

import argparse
import asyncio
import random
import statistics
import sys
import tempfile
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path
from types import FrameType
from typing import Any

from bench import load_mix
from bot.app.app import App

CONTROL = ("BEGIN", "COMMIT", "SAVEPOINT", "RELEASE", "ROLLBACK")
OPENING = {"duel": 4, "logik": 4, "words": 5, "kegeln": 1}  # challenge, accept, secrets / lobby / start


@dataclass
class Move:
    text: str
    statements: list[str]
    calls: int

    @property
    def reads(self) -> int:
        return sum(1 for s in self.statements if s.lstrip().upper().startswith("SELECT"))


@dataclass
class Counted:
    moves: dict[str, list[Move]] = field(default_factory=dict)

    def ordinary(self, kind: str) -> list[Move]:
        moves = self.moves[kind]
        return moves[OPENING[kind]:-1]

    def final(self, kind: str) -> Move:
        return self.moves[kind][-1]


async def count_moves(workdir: Path, kinds: tuple[str, ...] = load_mix.KINDS, cash: bool = False) -> Counted:
    """One game of each kind, played alone; every inbound's statements and Python calls. `cash`: every
    chat's Kegel cash box on (its fines booked with each move, docs/kegeln.md#the-cash-box--kasse)."""
    app = await App.open(str(workdir / "moves.sqlite3"), seed=1, synchronous="OFF")
    if cash:
        await cash_on(app, [f"g{i}" for i in (*range(len(kinds)), *range(1000, 1000 + len(kinds)))])
    statements: list[str] = []
    store: Any = app.store
    for conn in (store._w, store._r):  # the writer's and the reader's connection (bot/storage/sqlite.py)
        await conn._execute(conn._conn.set_trace_callback, statements.append)
    transport = load_mix.Direct(app, load_mix.Stats())
    counted = Counted()
    calls = Counter[str]()

    def profile(frame: FrameType, event: str, arg: object) -> None:
        if event == "call":
            calls["n"] += 1

    plain_send = transport.send

    async def send(kind: str, who: str, where: int | None, text: str) -> None:
        first, calls["n"] = len(statements), 0
        sys.setprofile(profile)
        try:
            await plain_send(kind, who, where, text)
        finally:
            sys.setprofile(None)
        own = [s for s in statements[first:] if not s.startswith(CONTROL)]
        counted.moves.setdefault(kind, []).append(Move(text, own, calls["n"]))

    transport.send = send  # type: ignore[method-assign]
    rng = random.Random(0)
    for i, kind in enumerate(kinds):  # a warm-up game of each kind: imports, caches, first rows
        await load_mix.one_game(transport, 1000 + i, kind, 0.0, rng)
    counted.moves.clear()
    for i, kind in enumerate(kinds):
        await load_mix.one_game(transport, i, kind, 0.0, rng)
    await app.close()
    return counted


async def cash_on(app: App, chats: list[str]) -> None:
    from bot.club.cash import storage as cash_storage
    async def job(tx: Any) -> None:
        for chat in chats:
            await cash_storage.save_settings(tx, load_mix.PLATFORM, chat, cash_storage.Settings(enabled=True))
    await app.store.run(job)


def ordinary_statements(counted: Counted, kind: str) -> float:
    return statistics.mean(len(m.statements) for m in counted.ordinary(kind))


def report(counted: Counted) -> None:
    header = (f"{'kind':<8} {'stmts/ordinary':>14} {'reads':>6} {'calls/ordinary':>15} {'stmts/final':>12} "
              f"{'stmts/game':>11} {'moves':>6}")
    print(header)
    print("-" * len(header))
    for kind, moves in counted.moves.items():
        ordinary = counted.ordinary(kind)
        print(f"{kind:<8} {ordinary_statements(counted, kind):>14.2f} "
              f"{statistics.mean(m.reads for m in ordinary):>6.2f} "
              f"{statistics.mean(m.calls for m in ordinary):>15.0f} {len(counted.final(kind).statements):>12} "
              f"{sum(len(m.statements) for m in moves):>11} {len(moves):>6}")
    print("stmts: SQL statements of one inbound on both connections, transaction control not counted;")
    print("ordinary: the inbounds between a game's opening and its final move; calls: Python function calls.")


async def main() -> None:
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--show", choices=load_mix.KINDS, help="print the statements of an ordinary and the final move")
    p.add_argument("--cash", action="store_true", help="with every chat's Kegel cash box on")
    args = p.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        counted = await count_moves(Path(tmp), cash=args.cash)
    report(counted)
    if args.show:
        for title, move in (("ordinary", counted.ordinary(args.show)[0]), ("final", counted.final(args.show))):
            print(f"\n{args.show} {title} move {move.text!r}: {len(move.statements)} statements")
            for s in move.statements:
                print("   ", " ".join(s.split())[:160])


if __name__ == "__main__":
    asyncio.run(main())
