"""Benchmark: the events of a move — made by the rules, then put in their stored form (type and JSON
text, as bot/storage writes them to the event log).

Random games of every kind are played through the core functions (bench/serial.py's random moves);
printed per game: microseconds per accepted move (`apply`, which makes the move's events), per
event stored (type + `json.dumps` of its data) and per event presented (`present` of the move's
events).

    python -m bench.events [--games 30] [--moves 60]

Measured when events became typed (msgspec Structs instead of `Event(type, dict)`), on the shared
2-core machine: apply and present unchanged within noise; storing an event 2.0–2.4 µs → 2.4–4.1 µs
(the fields turned into the JSON-ready dict by msgspec, then `json.dumps` as before) — next to the
database write of the move (milliseconds), nothing.
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
import time
from typing import Any

from bench.serial import LEXICON, _start
from core.errors import GameError
from core.games.base import Ctx, Logged
from core.messages import Chat

GAMES = ("practice", "duel", "logik", "words", "kegeln")
CHAT = Chat("bench", "c", False)


def _stored(ev: Any) -> tuple[str, str]:
    """An event's row in the event log, as bot/storage writes it."""
    row = Logged.of(ev)
    return row.type, json.dumps(row.data)


def play(game: str, rng: random.Random, moves: int) -> tuple[list[float], list[Any], Any]:
    """Seconds per accepted move, each accepted move's (state, events), and the game object."""
    now = 1_700_000_000.0
    state, module, action = _start(game, rng, Ctx(now, random.Random(rng.getrandbits(32)), lambda _l: LEXICON))
    times, made = [], []
    for _ in range(moves):
        now += rng.choice([1.0, 2.5, 30.0])
        ctx = Ctx(now, random.Random(rng.getrandbits(32)), lambda _l: LEXICON)
        actor = rng.choice(["a", "b", "c", None] if game != "kegeln" else ["a", "a", "b"])
        act = action(state, actor, rng)
        t0 = time.perf_counter()
        try:
            state, events = module.apply(state, act, actor, ctx)
        except GameError:
            continue
        times.append(time.perf_counter() - t0)
        made.append((state, events))
    return times, made, module


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--games", type=int, default=30)
    parser.add_argument("--moves", type=int, default=60)
    args = parser.parse_args()
    rng = random.Random(7)
    print(f"µs per accepted move / per event stored / per move presented; {args.games} games per kind")
    print(f"{'game':<9} {'moves':>6} {'events':>7} {'apply':>8} {'store':>8} {'present':>8}")
    for game in GAMES:
        applies, stores, presents, n_events = [], [], [], 0
        for _ in range(args.games):
            times, made, module = play(game, rng, args.moves)
            applies += times
            for state, events in made:
                n_events += len(events)
                t0 = time.perf_counter()
                for _ in range(20):
                    for ev in events:
                        _stored(ev)
                if events:
                    stores.append((time.perf_counter() - t0) / 20 / len(events))
                t0 = time.perf_counter()
                module.present(1, state, events, CHAT)
                presents.append(time.perf_counter() - t0)
        print(f"{game:<9} {len(applies):>6} {n_events:>7} {statistics.mean(applies) * 1e6:8.1f} "
              f"{statistics.mean(stores) * 1e6:8.2f} {statistics.mean(presents) * 1e6:8.1f}")


if __name__ == "__main__":
    main()
