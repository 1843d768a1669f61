"""Many busy groups sharing the bot's 30 messages a second (bench/busy_group.py --groups): the real Outbox and Pacer.

Each send is taken from the Pacer as python-telegram-bot takes it and then recorded instead of made.
"""

from __future__ import annotations

import asyncio
import random
import time

from adapters.telegram.outbox import Pacing
from bench.busy_run import pct


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
