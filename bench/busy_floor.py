"""A busy forum's floor (bench/busy_group.py --forum): its seeded load and the delays an ideal scheduler gives it.

Nothing here plays: `forum_load` draws the guesses from a seed, `ideal_floor` computes the best any
scheduler could do within the group's 20 messages a minute, `floor_spreads` does so for many seeds.
"""

from __future__ import annotations

import random
from collections.abc import Sequence

from adapters.telegram.outbox import Pacing
from bench.busy_run import pct


def ideal_floor(arrivals: Sequence[tuple[int, float]], gap: float) -> dict[int, list[float]]:
    """The delays an ideal scheduler would give these guesses (topic, time), sending at most once every
    `gap` seconds to the group, each send to the topic whose oldest unanswered guess is oldest (it
    answers all of that topic's waiting guesses at once, as a joined reply does), with no handling time."""
    pending: dict[int, list[float]] = {}
    out: dict[int, list[float]] = {}
    todo = sorted(arrivals, key=lambda a: a[1])
    i, slot = 0, -1e18
    while i < len(todo) or any(pending.values()):
        if not any(pending.values()):
            slot = max(slot, todo[i][1])
        while i < len(todo) and todo[i][1] <= slot:
            pending.setdefault(todo[i][0], []).append(todo[i][1])
            i += 1
        if not any(pending.values()):
            continue
        topic = min((t for t in pending if pending[t]), key=lambda t: pending[t][0])
        out.setdefault(topic, []).extend(slot - at for at in pending[topic])
        pending[topic] = []
        slot += gap
    return out


def forum_load(seed: int, seconds: float, rate: float, topics: int) -> list[tuple[float, int]]:
    """The busy forum's guesses, (seconds from the start, topic): Poisson moments, `rate` a minute, the
    topics in turn — so each topic gets the same count (±1) in every minute. Drawn from `seed` alone:
    the benchmark plays exactly this load, and `--floors` computes its floor without playing it."""
    rng = random.Random(seed)
    out: list[tuple[float, int]] = []
    at = 0.0
    while (at := at + rng.expovariate(rate / 60.0)) < seconds:
        out.append((at, len(out) % topics))
    return out


def floor_spreads(seeds: range, seconds: float, rate: float, topics: int) -> list[float]:
    """The ideal floor's own per-topic p50 spread for each seed's load (nothing played)."""
    gap = Pacing().period(Pacing().group_period) / Pacing().group_limit
    loads = ([(topic, at) for at, topic in forum_load(seed, seconds, rate, topics)] for seed in seeds)
    return sorted(spread([pct(ds, 50) for ds in ideal_floor(load, gap).values()]) for load in loads)


def spread(medians: Sequence[float]) -> float:
    """How far apart the topics' medians are: (largest − smallest) / smallest."""
    return (max(medians) - min(medians)) / min(medians) if medians else float("nan")
