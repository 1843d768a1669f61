"""Busy-group benchmark: players in one group guess faster than the platform lets a bot post.

Three players practise 1A2B in one group and together send `--rate` guesses a minute (random
moments, Poisson) for `--seconds`, through the real python-telegram-bot adapter polling the
stand-in Bot API (tests/telegram/standin.py, in this process), which enforces Telegram's flood
limits — 20 messages a minute per group, 30 a second overall, 1 a second per private chat — with
429 and `retry_after`, on the real clock unless `--scale` shrinks every period (the figures are
then printed scaled back to real seconds). App on a SQLite file; nobody ever guesses their code.

Printed per run: guesses, the group's successful sends and 429s, the delay from a guess reaching
the stand-in to the first successful send carrying its answer (p50/p99/max), and the replies lost
(answers that never arrived within `--drain` seconds after the last guess; target 0).

    python -m bench.busy_group [--rates 60,120] [--seconds 120] [--modes before,after]
                               [--scale 1] [--drain 150]

`before`: the adapter as it was — PTB's AIORateLimiter (20 a minute per group as a leaky bucket,
5 retries on 429), every reply its own message. `after`: the adapter's Pacer and group Outbox
(adapters/telegram/outbox.py): sends spread within the limits, replies piling up joined.

`--discord`: the same three players in one Discord channel, through the real discord.py adapter
connected to the stand-in Discord (tests/discord/standin.py, in this process), which enforces
5 messages per channel per 5 s and 50 requests a second with 429, `retry_after` and the
X-RateLimit headers (`--scale` shrinks its windows, as `rate_scale`). `before`: the adapter
unpaced (`paced=False`): discord.py waits out the channel's bucket, every reply its own message.
`after`: the adapter's Pacer and channel Outbox (adapters/discord/pacing.py).

`--forum` (issue 35): a forum supergroup with `--topics` topics (5), two players practising in each,
`--rates` guesses a minute in all (60) at random moments, the topics in turn, through the real adapter and
stand-in as above. The topics share the group's 20 messages a minute, so a reply cannot come sooner
than the group's next send that serves its topic: the *floor* is computed from the very guess times
with an ideal scheduler (a send every 60/20 s × the pacer's margin, each to the topic whose oldest
unanswered guess is oldest, no handling time) and printed beside the measured p50/p99, overall and
per topic. Targets: replies within 1.2 × the floor, the topics' p50 within 20 % of each other, 0 lost,
0 429. The games are started through the App directly (their start messages are not sent), so the
group starts quiet. The load is drawn from `--seed` alone (`forum_load`); the floor's own per-topic
spread is printed beside the measured one, and `--floors N` prints only that, for N seeded loads of
`--seconds` (nothing played): on 5 minutes the floor itself misses 20 % in half of them
(docs/benchmarks.md).

`--groups N` (issue 35): N busy groups sharing the bot's 30 messages a second — the real Outbox and
Pacer (adapters/telegram/outbox.py), each send taken from the Pacer as python-telegram-bot takes it
and then recorded instead of sent; every group gets a reply every `--every` seconds. Printed: each
group's fair share of the overall budget (a send every N/30 s), the longest any reply waited and the
longest gap between two sends of one group (target ≤ 1.5 × the fair share), lost (target 0).
"""

from __future__ import annotations

import argparse
import asyncio
import functools
import logging
import random
import tempfile
import time
import warnings
from collections.abc import Awaitable, Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from telegram.ext import AIORateLimiter

from adapters.discord import DiscordAdapter
from adapters.discord.pacing import Pacing as DiscordPacing
from adapters.telegram import TelegramAdapter
from adapters.telegram.outbox import Pacing
from bot.app.app import App
from tests.discord import standin as discord_standin
from tests.telegram.standin import SENDING, Chat, Limits, StandIn, User

GROUP = Chat(id=-100900, type="group", title="Busy group")
PLAYERS = [User(id=7100 + i, first_name=name, language_code="en")
           for i, name in enumerate(("Ann", "Ben", "Cem"))]


@dataclass
class Guess:
    player: User
    n: int
    code: str
    at: float  # monotonic, when the stand-in got the user's message

    @property
    def answer(self) -> str:
        return f"{self.player.first_name} #{self.n}: {self.code} →"


@dataclass
class Run:
    mode: str
    rate: float
    guesses: list[Guess] = field(default_factory=list)
    delays: list[float] = field(default_factory=list)
    lost: int = 0
    sends: int = 0
    refused: int = 0
    wall: float = 0.0


def pct(values: list[float], p: float) -> float:
    s = sorted(values)
    return s[min(len(s) - 1, round(p / 100 * (len(s) - 1)))] if s else float("nan")


def fresh_code(rng: random.Random, secret: str, used: set[str]) -> str:
    """A code this player has not tried (the App refuses a repeat) and that is not the secret."""
    while True:
        code = "".join(rng.sample("0123456789", 4))
        if code != secret and code not in used:
            used.add(code)
            return code


async def secret_of(app: App, player: User) -> str:
    rows = await app.store.seated_games("telegram", str(player.id), str(GROUP.id))
    return str(rows[-1].state["secret"])


async def guess(run: Run, rng: random.Random, players: Sequence[Any], secrets: dict[int, str],
                send: Callable[[int, str], Awaitable[float]], end: float, mean_gap: float,
                pick: Callable[[int], int] | None = None) -> None:
    """Random players guess fresh codes at random moments (`mean_gap` seconds apart on average) until
    `end`; `send(index, code)` types one into the group and returns when the stand-in got it. `pick(n)`:
    who makes the n-th guess (default: anyone, at random)."""
    counts = {p.id: 0 for p in players}
    used: dict[int, set[str]] = {p.id: set() for p in players}
    while time.monotonic() < end:
        await asyncio.sleep(rng.expovariate(1 / mean_gap))
        index = pick(len(run.guesses)) if pick is not None else rng.randrange(len(players))
        player = players[index]
        counts[player.id] += 1
        code = fresh_code(rng, secrets[player.id], used[player.id])
        run.guesses.append(Guess(player, counts[player.id], code, await send(index, code)))


async def collect(run: Run, standin: Any, delivered: Callable[[Any], str | None], mark: int, start: float,
                  drain: float, scale: float) -> None:
    """Wait for the answers (or the drain time): whatever has not arrived then is lost. `delivered`:
    the text a stand-in call brought to the group, or None for a call that brought nothing there."""
    deadline = time.monotonic() + drain * scale
    pending = list(run.guesses)
    seen = mark
    arrived: dict[int, float] = {}
    while pending and time.monotonic() < deadline:
        for call in standin.calls[seen:]:
            text = delivered(call)
            if text is not None:
                for g in pending:
                    if g.answer in text and id(g) not in arrived:
                        arrived[id(g)] = call.at
        seen = len(standin.calls)
        pending = [g for g in pending if id(g) not in arrived]
        await asyncio.sleep(0.2 * max(scale, 0.05))
    run.wall = (time.monotonic() - start) / scale
    run.delays = [(arrived[id(g)] - g.at) / scale for g in run.guesses if id(g) in arrived]
    run.lost = len(pending)


def picked_telegram(call: Any, p: User) -> bool:
    """The stand-in's call that answers `p`'s /practice."""
    return bool(call.ok) and f"{p.first_name}, I have picked" in call.text


async def play(mode: str, rate: float, seconds: float, scale: float, drain: float, seed: int) -> Run:
    run = Run(mode, rate)
    standin = StandIn(limits=Limits(time_scale=scale))
    await standin.start()
    tmp = tempfile.TemporaryDirectory()
    app = await App.open(db_path=str(Path(tmp.name) / "busy.sqlite"), seed=seed)
    if mode == "before":
        limiter = AIORateLimiter(overall_time_period=scale, group_time_period=60 * scale, max_retries=5)
        adapter = TelegramAdapter(standin.token, app.handle, app.command_menu(),
                                  base_url=standin.base_url, rate_limiter=limiter)
    else:
        adapter = TelegramAdapter(standin.token, app.handle, app.command_menu(),
                                  base_url=standin.base_url, pacing=Pacing(time_scale=scale))
    await adapter.start()
    rng = random.Random(seed)
    try:
        for player in PLAYERS:
            standin.user_message(GROUP, player, "/practice")
        for player in PLAYERS:
            await standin.wait_for(functools.partial(picked_telegram, p=player),
                                   timeout=120 * max(scale, 0.1))
        secrets = {p.id: await secret_of(app, p) for p in PLAYERS}
        # Let the start-up messages' minute pass, so every run begins from the same quiet group.
        await asyncio.sleep(60 * scale)
        mark = standin.mark()
        start = time.monotonic()

        async def send(index: int, code: str) -> float:
            standin.user_message(GROUP, PLAYERS[index], code)
            return time.monotonic()

        await guess(run, rng, PLAYERS, secrets, send, start + seconds * scale, 60.0 / rate * scale)
        await collect(run, standin, lambda c: c.text if c.ok and c.method in SENDING and c.chat_id == GROUP.id
                      else None, mark, start, drain, scale)
        group = [c for c in standin.calls[mark:] if c.method in SENDING and c.chat_id == GROUP.id]
        run.sends = sum(1 for c in group if c.ok)
        run.refused = sum(1 for c in group if c.status == 429)
    finally:
        await adapter.stop()
        await app.close()
        await standin.stop()
        tmp.cleanup()
    return run


@dataclass
class Player:
    id: int
    first_name: str


async def play_discord(mode: str, rate: float, seconds: float, scale: float, drain: float,
                       seed: int) -> Run:
    """One run in one Discord channel (module docstring, `--discord`)."""
    run = Run(mode, rate)
    standin = discord_standin.StandIn()
    standin.rate_scale = scale
    await standin.start()
    channel = discord_standin.CHANNEL_ID
    tmp = tempfile.TemporaryDirectory()
    app = await App.open(db_path=str(Path(tmp.name) / "busy.sqlite"), seed=seed)
    adapter = DiscordAdapter(discord_standin.BOT_TOKEN, app.handle, app.command_menu(),
                             api_base=standin.api_base, ready_timeout=30.0, guild_ready_timeout=0.05,
                             pacing=DiscordPacing(time_scale=scale), paced=mode != "before")
    users = [standin.add_user(p.first_name) for p in PLAYERS]
    players = [Player(u.id, u.name) for u in users]
    rng = random.Random(seed)

    def ok(call: discord_standin.Call) -> bool:
        return call.status < 300 and call.channel_id == channel and call.method == "POST"

    def picked_discord(call: discord_standin.Call, u: Any) -> bool:
        return ok(call) and f"{u.name}, I have picked" in call.content

    try:
        await adapter.start()
        for user in users:
            await standin.say(channel, user, "!practice")
        for user in users:
            await standin.wait_for(functools.partial(picked_discord, u=user),
                                   timeout=60)
        rows = {u.id: await app.store.seated_games("discord", str(u.id), str(channel)) for u in users}
        secrets = {uid: str(r[-1].state["secret"]) for uid, r in rows.items()}
        await asyncio.sleep(5 * scale)  # the start-up posts' window passes: every run starts quiet
        mark = len(standin.calls)
        start = time.monotonic()

        async def say(index: int, code: str) -> float:
            sent = time.monotonic()
            await standin.say(channel, users[index], code)
            return sent

        await guess(run, rng, players, secrets, say, start + seconds * scale, 60.0 / rate * scale)
        await collect(run, standin, lambda c: c.content if ok(c) else None, mark, start, drain, scale)
        posts = [c for c in standin.calls[mark:] if c.channel_id == channel and c.method in ("POST", "PATCH")]
        run.sends = sum(1 for c in posts if c.status < 300)
        run.refused = sum(1 for c in standin.calls[mark:] if c.status == 429)
    finally:
        await adapter.stop()
        await app.close()
        await standin.stop()
        tmp.cleanup()
    return run


# ------------------------------------------------------------------ a busy forum (issue 35)

FORUM = Chat(id=-100901, type="supergroup", title="Busy forum", is_forum=True)


@dataclass
class ForumRun(Run):
    topics: dict[int, list[float]] = field(default_factory=dict)  # topic -> its replies' delays
    floor: list[float] = field(default_factory=list)
    floor_topics: dict[int, list[float]] = field(default_factory=dict)


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


def spread(medians: Sequence[float]) -> float:
    """How far apart the topics' medians are: (largest − smallest) / smallest."""
    return (max(medians) - min(medians)) / min(medians) if medians else float("nan")


# ------------------------------------------------------------------ many busy groups (issue 35)

async def play_many(groups: int, seconds: float, every: float, scale: float) -> dict[str, float]:
    """`groups` busy groups through the real Outbox and Pacer; sends recorded, not made (module docstring)."""
    from adapters.telegram.outbox import Outbox as TgOutbox
    from adapters.telegram.outbox import Pacer
    from core.messages import Chat as NChat
    from core.messages import Outbound

    pacer = Pacer(Pacing(time_scale=scale))
    sent_at: dict[int, list[float]] = {g: [] for g in range(-groups, 0)}
    waits: list[float] = []
    gaps: list[float] = []
    posted: dict[int, list[float]] = {g: [] for g in sent_at}

    async def deliver(out: Outbound) -> bool:
        assert isinstance(out.to, NChat)
        chat = int(out.to.chat_id)
        await pacer.acquire(chat)  # as python-telegram-bot asks its rate limiter before every send
        now = time.monotonic()
        if posted[chat]:  # how long the group waited for this send while it had a reply waiting
            previous = sent_at[chat][-1] if sent_at[chat] else posted[chat][0]
            gaps.append(now - max(previous, posted[chat][0]))
        sent_at[chat].append(now)
        waits.extend(now - at for at in posted[chat])
        posted[chat].clear()
        return True

    box = TgOutbox(deliver, pacer)
    rng = random.Random(35)
    start = time.monotonic()
    end = start + seconds * scale
    futures = []

    async def group(chat: int) -> None:
        await asyncio.sleep(rng.uniform(0, every * scale))
        while time.monotonic() < end:
            posted[chat].append(time.monotonic())
            futures.append(box.post(chat, Outbound(NChat("telegram", str(chat), False), f"reply {chat}")))
            await asyncio.sleep(rng.expovariate(1 / (every * scale)))

    await asyncio.gather(*(group(g) for g in sent_at))
    await box.close(timeout=groups / 30 * 3 * scale + 5)
    lost = sum(1 for f in futures if f.cancelled() or not f.done())
    return {"share": groups / 30, "max_wait": max(waits) / scale, "p50_wait": pct(waits, 50) / scale,
            "max_gap": max(gaps) / scale, "sends": float(sum(len(t) for t in sent_at.values())),
            "items": float(len(futures)), "lost": float(lost)}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--rates", default="60,120", help="guesses a minute in the group, comma-separated")
    parser.add_argument("--seconds", type=float, default=120.0, help="guessing time per run (real seconds)")
    parser.add_argument("--modes", default="before,after")
    parser.add_argument("--scale", type=float, default=1.0,
                        help="every period of the limits, the pacing and the timings times this")
    parser.add_argument("--drain", type=float, default=150.0,
                        help="seconds after the last guess before an answer counts as lost")
    parser.add_argument("--seed", type=int, default=16)
    parser.add_argument("--discord", action="store_true",
                        help="one Discord channel (5 posts per 5 s) instead of a Telegram group")
    parser.add_argument("--forum", action="store_true", help="a forum supergroup with --topics topics")
    parser.add_argument("--topics", type=int, default=5)
    parser.add_argument("--floors", type=int, default=0,
                        help="--forum: only the floor's own spread over this many seeded loads (nothing played)")
    parser.add_argument("--groups", type=int, default=0, help="this many busy groups sharing 30 messages a second")
    parser.add_argument("--every", type=float, default=5.0, help="--groups: seconds between a group's replies")
    args = parser.parse_args()
    logging.disable(logging.CRITICAL)
    warnings.filterwarnings("ignore")
    if args.groups:
        got = asyncio.run(play_many(args.groups, args.seconds, args.every, args.scale))
        print(f"{args.groups} busy groups (a reply every {args.every:.0f} s each), the bot's 30 messages a second; "
              f"{args.seconds:.0f} s, periods ×{args.scale}, figures in real seconds")
        print(f"fair share: a send every {got['share']:.2f} s per group; replies {got['items']:.0f}, "
              f"sends {got['sends']:.0f}, lost {got['lost']:.0f}")
        print(f"reply wait p50 {got['p50_wait']:.2f} s, max {got['max_wait']:.2f} s; longest gap between a group's "
              f"sends while a reply waited {got['max_gap']:.2f} s = {got['max_gap'] / got['share']:.2f} × its share "
              f"(target <= 1.5)")
        return
    if args.forum:
        for rate in [float(r) for r in args.rates.split(",")]:
            if args.floors:
                spreads = floor_spreads(range(args.seed, args.seed + args.floors), args.seconds, rate, args.topics)
                print(f"The ideal floor's own per-topic p50 spread, {args.topics} topics, {rate:.0f} guesses a minute, "
                      f"{args.seconds:.0f} s, {args.floors} seeded loads: median {pct(spreads, 50) * 100:.0f} %, "
                      f"p90 {pct(spreads, 90) * 100:.0f} %, above 20 % in "
                      f"{sum(x > 0.2 for x in spreads) * 100 / len(spreads):.0f} % of them")
                continue
            print(f"A forum with {args.topics} topics, {rate:.0f} guesses a minute in all; stand-in enforcing "
                  f"20/min per group with 429 (periods ×{args.scale}, figures in real seconds); "
                  f"{args.seconds:.0f} s of guessing")
            report_forum(asyncio.run(play_forum(rate, args.seconds, args.scale, args.drain, args.seed,
                                                args.topics)))
        return
    rates = [float(r) for r in args.rates.split(",")]
    modes = args.modes.split(",")
    clock = "real time" if args.scale == 1 else f"periods ×{args.scale}, figures scaled back to real seconds"
    where = ("One Discord channel, 3 players practising; stand-in enforcing 5 per 5 s per channel"
             if args.discord else
             "One Telegram group, 3 players practising; stand-in enforcing 20/min per group")
    print(f"{where} with 429 ({clock}); {args.seconds:.0f} s of guessing per run")
    play_run = play_discord if args.discord else play
    print(f"{'mode':<7} {'guesses/min':>11} {'guesses':>8} {'sends':>6} {'429s':>5} "
          f"{'p50 s':>7} {'p99 s':>7} {'max s':>7} {'lost':>5}")
    print("-" * 72)
    for rate in rates:
        for mode in modes:
            run = asyncio.run(play_run(mode, rate, args.seconds, args.scale, args.drain, args.seed))
            print(f"{mode:<7} {rate:>11.0f} {len(run.guesses):>8} {run.sends:>6} {run.refused:>5} "
                  f"{pct(run.delays, 50):>7.2f} {pct(run.delays, 99):>7.2f} "
                  f"{max(run.delays, default=float('nan')):>7.2f} {run.lost:>5}", flush=True)
    print("-" * 72)
    print("delay: from the guess reaching the stand-in to the first accepted send carrying its answer; "
          "lost: answers not arrived by --drain s after the last guess (target 0); target p99 <= 3 s")


if __name__ == "__main__":
    main()
