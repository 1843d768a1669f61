"""A busy forum fair and at its floor (issue 35): the outboxes of one group's topics share the group's
budget in turns (round robin), keyboard removals wait for the replies, and busy groups share the bot's
overall budget in turns (Telegram's Pacer). Real asyncio, the real Outbox and Pacer; the deliveries are
recorded instead of sent."""

from __future__ import annotations

import asyncio
import time
from collections.abc import Hashable

from adapters.outbox import Outbox
from adapters.telegram.outbox import Pacer, Pacing
from core.messages import Chat, Outbound, OutButton

GAP = 0.05  # the fake group's budget: one send every GAP seconds


class OnePerGap:
    """A group may send once every GAP seconds (the schedule the Outbox asks); a topic is its group's."""

    def __init__(self) -> None:
        self.last: dict[Hashable, float] = {}

    @staticmethod
    def group(key: Hashable) -> Hashable:
        return str(key).split("/")[0]

    def delay(self, key: Hashable) -> float:
        last = self.last.get(self.group(key))
        return 0.0 if last is None else max(0.0, last + GAP - time.monotonic())

    def took(self, key: Hashable) -> None:
        self.last[self.group(key)] = time.monotonic()


def alone(topic: str, n: int) -> Outbound:
    """A reply that is never joined with another (it has buttons and is not text-only-joinable)."""
    return Outbound(Chat("telegram", topic, False), f"{topic} #{n}", buttons=((OutButton("ok", f"a:{n}"),),))


async def test_the_topics_of_one_group_take_turns() -> None:
    schedule = OnePerGap()
    order: list[str] = []

    async def deliver(out: Outbound) -> bool:
        schedule.took(out.to.chat_id if isinstance(out.to, Chat) else "")
        order.append(out.text)
        return True

    box = Outbox(deliver, schedule, max_length=4096, group_of=OnePerGap.group)
    futures = [box.post("-1/7", alone("-1/7", n)) for n in range(4)]
    futures += [box.post("-1/8", alone("-1/8", n)) for n in range(2)]
    futures += [box.post("-1/9", alone("-1/9", n)) for n in range(2)]
    await asyncio.wait_for(asyncio.gather(*futures), 5)
    assert order == ["-1/7 #0", "-1/8 #0", "-1/9 #0", "-1/7 #1", "-1/8 #1", "-1/9 #1", "-1/7 #2", "-1/7 #3"]


async def test_keyboard_removals_wait_for_the_groups_replies() -> None:
    schedule = OnePerGap()
    order: list[str] = []

    async def deliver(out: Outbound) -> bool:
        schedule.took(out.to.chat_id if isinstance(out.to, Chat) else "")
        order.append(out.text)
        return True

    async def removal() -> bool:
        schedule.took("-1")
        order.append("keyboard off")
        return True

    box = Outbox(deliver, schedule, max_length=4096, group_of=OnePerGap.group)
    futures = [box.post("-1/7", alone("-1/7", 0)), box.post("-1/7", removal, low=True)]
    futures += [box.post("-1/8", alone("-1/8", n)) for n in range(2)]
    await asyncio.wait_for(asyncio.gather(*futures), 5)
    assert order == ["-1/7 #0", "-1/8 #0", "-1/8 #1", "keyboard off"]


async def test_busy_groups_share_the_bots_overall_budget_in_turns() -> None:
    """60 groups that always have something to send, 100 sends a second in all (Telegram's 30 a second,
    its period shortened): each group's share is a send every 0.6 s; none waits 1.5 times that."""
    pacer = Pacer(Pacing(overall_limit=10, overall_period=0.1, group_limit=1000, margin=0.0))
    sent: dict[int, list[float]] = {g: [] for g in range(-60, 0)}
    start = time.monotonic()
    stop = start + 3.0

    async def group(chat_id: int) -> None:
        while time.monotonic() < stop:
            await pacer.acquire(chat_id)  # as python-telegram-bot asks the rate limiter before each send
            sent[chat_id].append(time.monotonic())
            await asyncio.sleep(0)

    await asyncio.gather(*(group(g) for g in sent))
    share = len(sent) / 100
    worst = max(max(b - a for a, b in zip([start, *times], [*times, stop], strict=True))
                for times in sent.values())  # from the start, between sends, to the end
    assert worst <= 1.5 * share, (worst, share)


async def test_a_chat_held_by_a_429_holds_up_no_other_chat() -> None:
    """Telegram asked one group to wait (429 retry_after): the others' turns go on meanwhile."""
    pacer = Pacer(Pacing(margin=0.0))
    pacer.hold(-1, 2.0)
    held = asyncio.create_task(pacer.acquire(-1))
    await asyncio.sleep(0.05)
    began = time.monotonic()
    await asyncio.wait_for(pacer.acquire(-2), 1.0)
    assert time.monotonic() - began < 0.2
    held.cancel()
