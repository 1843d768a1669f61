"""Rebuild benchmark: `python -m bot ratings rebuild`'s replay on a SQLite file with many finished duels.

Plays `--duels` duels through the real App (alice–bob and others, in `--chats` groups; every second
duel a draw), then times the replay and the rewrite of the ratings, per chat and across chats, and
prints the figures; the rebuilt tables are compared with the stored ones (they must be equal).

    python -m bench.ratings_rebuild [--duels 500] [--chats 5]
"""

from __future__ import annotations

import argparse
import asyncio
import tempfile
import time
from pathlib import Path

from bot.app import ratings_rebuild
from bot.app.app import App
from core.messages import Chat
from tests.app.harness import PLATFORM, Table
from tests.app.test_duel_flow import start_duel, target
from tests.app.test_ratings_rebuild import HISTORY, RATINGS, rows


async def run(duels: int, chats: int) -> None:
    with tempfile.TemporaryDirectory() as tmp:
        app = await App.open(str(Path(tmp) / "bench.sqlite3"), seed=1, synchronous="OFF")
        try:
            tables = [Table(app, group=Chat(PLATFORM, f"group-{i}", private=False)) for i in range(chats)]
            started = time.perf_counter()
            for n in range(duels):
                t = tables[n % chats]
                _gid, first, second = await start_duel(t)
                codes = target(first)
                await t.say(first, codes[first])
                await t.say(second, codes[second] if n % 2 else "9012")
            played = time.perf_counter() - started
            stored = await rows(app, RATINGS), await rows(app, HISTORY)
            started = time.perf_counter()
            done = await ratings_rebuild.rebuild(app)
            took = time.perf_counter() - started
            same = (await rows(app, RATINGS), await rows(app, HISTORY)) == stored
            print(f"{duels} duels in {chats} chats played in {played:.1f} s; rebuild: {done.games} games "
                  f"({done.rated} rated) → {done.ratings} ratings, {done.steps} history rows in {took * 1000:.0f} ms "
                  f"({took / max(done.games, 1) * 1e6:.0f} µs a game); equal to the stored tables: {same}")
        finally:
            await app.close()


def main() -> None:
    p = argparse.ArgumentParser()
    p.add_argument("--duels", type=int, default=500)
    p.add_argument("--chats", type=int, default=5)
    args = p.parse_args()
    asyncio.run(run(args.duels, args.chats))


if __name__ == "__main__":
    main()
