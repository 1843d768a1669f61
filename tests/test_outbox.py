"""The platform-neutral outbox's joining rule (adapters/outbox.py), for what both adapters rely on."""

from __future__ import annotations

import asyncio
from collections import deque

from adapters.outbox import Entry, take
from core.messages import Chat, Outbound

GROUP = Chat("discord", "1", False)


async def test_a_joined_reply_keeps_everyone_it_asks_to_act() -> None:
    """Three plain replies joined into one: the players two of them mention are all still notified."""
    loop = asyncio.get_running_loop()
    queue: deque[Entry] = deque((Outbound(GROUP, text, mention=who), loop.create_future())
                  for text, who in (("bob's turn", ("22",)), ("a guess", ()), ("carol's turn", ("33", "22"))))
    joined, answered = take(queue, 2000)
    assert isinstance(joined, Outbound) and len(answered) == 3 and not queue
    assert joined.text.count("turn") == 2
    assert joined.mention == ("22", "33")


async def test_a_joined_reply_keeps_the_names_of_its_mentions_only_when_all_have_one() -> None:
    """Names ride with their ids (Telegram mentions by name): kept where every mentioned id has one."""
    loop = asyncio.get_running_loop()
    named: deque[Entry] = deque((Outbound(GROUP, text, mention=who, mention_names=names), loop.create_future())
                                for text, who, names in (("a", ("22",), ("Bob",)), ("b", ("33", "22"), ("Cid", "Bob"))))
    joined, _ = take(named, 2000)
    assert isinstance(joined, Outbound) and joined.mention == ("22", "33") and joined.mention_names == ("Bob", "Cid")
    mixed: deque[Entry] = deque((Outbound(GROUP, text, mention=who, mention_names=names), loop.create_future())
                                for text, who, names in (("a", ("22",), ("Bob",)), ("b", ("33",), ())))
    joined, _ = take(mixed, 2000)
    assert isinstance(joined, Outbound) and joined.mention == ("22", "33") and joined.mention_names == ()
