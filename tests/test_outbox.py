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
