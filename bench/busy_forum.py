"""A busy forum supergroup (bench/busy_group.py --forum): its topics played through the adapter, against the floor.

Two players practise in each topic; the measured delays are printed beside the ideal floor's
(bench/busy_floor.py), overall and per topic.
"""

from __future__ import annotations

import asyncio
import random
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path

from adapters.telegram import TelegramAdapter
from adapters.telegram.outbox import Pacing
from bench.busy_floor import forum_load, ideal_floor, spread
from bench.busy_run import Guess, Run, collect, fresh_code, pct
from bot.app.app import App
from tests.telegram.standin import StandIn
from tests.telegram.standin_calls import SENDING, Limits
from tests.telegram.standin_objects import Chat, User

FORUM = Chat(id=-100901, type="supergroup", title="Busy forum", is_forum=True)


@dataclass
class ForumRun(Run):
    topics: dict[int, list[float]] = field(default_factory=dict)  # topic -> its replies' delays
    floor: list[float] = field(default_factory=list)
    floor_topics: dict[int, list[float]] = field(default_factory=dict)


async def play_forum(rate: float, seconds: float, scale: float, drain: float, seed: int, topics: int) -> ForumRun:
    from core.messages import Actor as NActor
    from core.messages import Chat as NChat
    from core.messages import Inbound
    from tests.telegram import forum

    run = ForumRun("forum", rate)
    standin = StandIn(limits=Limits(time_scale=scale))
    await standin.start()
    tmp = tempfile.TemporaryDirectory()
    app = await App.open(db_path=str(Path(tmp.name) / "forum.sqlite"), seed=seed)
    pacing = Pacing(time_scale=scale)
    adapter = TelegramAdapter(standin.token, app.handle, app.command_menu(), base_url=standin.base_url,
                              pacing=pacing)
    await adapter.start()
    rng = random.Random(seed)
    players = [User(id=7200 + i, first_name=f"P{i:02d}", language_code="en") for i in range(2 * topics)]
    try:
        threads = [forum.create_topic(standin, FORUM, players[0], f"Table {n + 1}") for n in range(topics)]
        seat = {p.id: threads[i // 2] for i, p in enumerate(players)}
        for n, p in enumerate(players):  # the games start through the App: nothing is sent to the group
            where = NChat("telegram", f"{FORUM.id}/{seat[p.id]}", False, title=FORUM.title)
            await app.handle(Inbound(actor=NActor("telegram", str(p.id), p.first_name, "en"), chat=where,
                                     command="practice", event_id=f"setup-{n}"))
        secrets = {}
        for p in players:
            rows = await app.store.seated_games("telegram", str(p.id), f"{FORUM.id}/{seat[p.id]}")
            secrets[p.id] = str(rows[-1].state["secret"])
        await asyncio.sleep(1.0 * max(scale, 0.05))
        mark = standin.mark()
        start = time.monotonic()

        counts = {p.id: 0 for p in players}
        used: dict[int, set[str]] = {p.id: set() for p in players}
        for at, topic in forum_load(seed, seconds, rate, topics):
            await asyncio.sleep(max(0.0, start + at * scale - time.monotonic()))
            player = players[2 * topic + rng.randrange(2)]  # either player of the topic
            counts[player.id] += 1
            code = fresh_code(rng, secrets[player.id], used[player.id])
            standin.user_message(FORUM, player, code, topic=seat[player.id])
            run.guesses.append(Guess(player, counts[player.id], code, time.monotonic()))
        await collect(run, standin, lambda c: c.text if c.ok and c.method in SENDING and c.chat_id == FORUM.id
                      else None, mark, start, drain, scale)
        calls = [c for c in standin.calls[mark:] if c.method in SENDING and c.chat_id == FORUM.id]
        run.sends = sum(1 for c in calls if c.ok)
        run.refused = sum(1 for c in calls if c.status == 429)
        by_topic: dict[int, list[float]] = {}
        answered = _answered(run, standin, mark, scale)
        for g in run.guesses:
            if id(g) in answered:
                by_topic.setdefault(seat[g.player.id], []).append(answered[id(g)])
        run.topics = by_topic
        gap = pacing.period(pacing.group_period) / pacing.group_limit / scale
        floor = ideal_floor([(seat[g.player.id], (g.at - start) / scale) for g in run.guesses], gap)
        run.floor_topics = floor
        run.floor = [d for ds in floor.values() for d in ds]
    finally:
        await adapter.stop()
        await app.close()
        await standin.stop()
        tmp.cleanup()
    return run


def _answered(run: Run, standin: StandIn, mark: int, scale: float) -> dict[int, float]:
    """Each guess's delay (real seconds) to the first accepted send into the forum carrying its answer."""
    out: dict[int, float] = {}
    calls = [c for c in standin.calls[mark:] if c.ok and c.method in SENDING and c.chat_id == FORUM.id]
    for g in run.guesses:
        for c in calls:
            if g.answer in c.text and c.at >= g.at:
                out[id(g)] = (c.at - g.at) / scale
                break
    return out


def report_forum(run: ForumRun) -> None:
    fp50, fp99 = pct(run.floor, 50), pct(run.floor, 99)
    p50, p99 = pct(run.delays, 50), pct(run.delays, 99)
    print(f"guesses {len(run.guesses)}, forum sends {run.sends}, 429s {run.refused}, lost {run.lost}")
    print(f"{'':<10} {'p50 s':>7} {'floor':>7} {'ratio':>6}   {'p99 s':>7} {'floor':>7} {'ratio':>6}  {'max s':>6}")
    print(f"{'all':<10} {p50:>7.2f} {fp50:>7.2f} {p50 / fp50:>6.2f}   {p99:>7.2f} {fp99:>7.2f} {p99 / fp99:>6.2f}"
          f"  {max(run.delays, default=float('nan')):>6.2f}")
    medians, floors = [], []
    for n, topic in enumerate(sorted(run.topics)):
        ds, fl = run.topics[topic], run.floor_topics.get(topic, [])
        medians.append(pct(ds, 50))
        floors.append(pct(fl, 50))
        print(f"{f'topic {n + 1}':<10} {pct(ds, 50):>7.2f} {pct(fl, 50):>7.2f} {pct(ds, 50) / pct(fl, 50):>6.2f}   "
              f"{pct(ds, 99):>7.2f} {pct(fl, 99):>7.2f} {pct(ds, 99) / pct(fl, 99):>6.2f}  {max(ds):>6.2f}")
    ratios = [m / f for m, f in zip(medians, floors, strict=True)]
    print(f"topics' p50 spread: {spread(medians) * 100:.0f} % measured, {spread(floors) * 100:.0f} % of the ideal "
          f"floor itself (target <= 20 %); the topics' p50/floor ratios {spread(ratios) * 100:.0f} % apart; "
          f"targets: ratio <= 1.2, 0 lost, 0 429")
