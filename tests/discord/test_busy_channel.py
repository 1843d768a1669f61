"""A busy channel within Discord's rate limits: the stand-in enforces 5 messages per channel per
5 s with 429s (windows scaled down, `SCALE`), the adapter paces its channel posts by the same
limit scaled alike and sends the replies that pile up as one message. Not timed: what is checked
is what the channel received."""

from __future__ import annotations

import asyncio
import itertools
from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from core.messages import CommandInfo, Inbound, Outbound, OutButton, Response

from .conftest import MakeAdapter
from .model import CHANNEL_ID, Call, User
from .standin import StandIn
from .traffic import CHANNEL_LIMIT

SCALE = 0.2  # "5 per 5 s in a channel" becomes 5 per second
MENU = {"en": [CommandInfo("help", "Help")]}


@pytest.fixture
async def busy(standin: StandIn) -> AsyncIterator[StandIn]:
    standin.rate_scale = SCALE
    yield standin


def posts(standin: StandIn) -> list[Call]:
    """Posts and edits of messages in the channel (what its rate limit counts)."""
    return [c for c in standin.calls if c.channel_id == CHANNEL_ID and c.method in ("POST", "PATCH")]


def assert_within_limits(standin: StandIn) -> None:
    """No call was refused with 429, and no window of the channel's limit holds more than it allows."""
    assert not [c for c in standin.calls if c.status == 429], "the stand-in refused a call (429)"
    limit, per = CHANNEL_LIMIT
    times = [c.at for c in posts(standin) if c.status < 300]
    for i, start in enumerate(times):
        assert sum(1 for t in times[i:] if t < start + per * SCALE) <= limit


def assert_in_order(received: str, expected: list[str]) -> None:
    at = 0
    for text in expected:
        found = received.find(text, at)
        assert found >= 0, f"{text!r} missing (or out of order) in what the channel received"
        at = found + len(text)


async def test_quick_guesses_are_joined_within_the_limits(busy: StandIn, make_adapter: MakeAdapter) -> None:
    """40 quick guesses typed in one channel, every seventh answer with a button, every tenth one
    a board with an edit_key: no 429, at most 5 posts per window, every answer's text in order,
    every button on a message of the channel, the board one message edited in place."""
    n = 40

    async def handle(inbound: Inbound) -> Response:
        k = int((inbound.text or "g0")[1:])
        if k % 10 == 0:
            return Response(messages=(Outbound(inbound.chat, f"board after {k:02d}", edit_key="board"),))
        buttons = ((OutButton("Again", f"g:{k}:again"),),) if k % 7 == 0 else ()
        return Response(messages=(Outbound(inbound.chat, f"answer {k:02d}", buttons),))

    await make_adapter(handle, MENU)
    users = [busy.add_user(name) for name in ("Ann", "Ben", "Cem")]
    for k in range(1, n + 1):
        await busy.say(CHANNEL_ID, users[k % 3], f"g{k}")
    await busy.wait_for(lambda c: c.status < 300 and f"answer {n - 1:02d}" in c.content, timeout=30)
    await busy.wait_for(lambda c: c.status < 300 and f"board after {n}" in c.content, timeout=30)
    await busy.settle(quiet=0.3)

    assert_within_limits(busy)
    sent = [c for c in posts(busy) if c.status < 300]
    assert len(sent) < n  # joined: fewer messages than answers
    received = "\n".join(c.content for c in sent if c.method == "POST")
    assert_in_order(received, [f"answer {k:02d}" for k in range(1, n + 1) if k % 10])
    for k in range(7, n + 1, 7):
        if k % 10 == 0:
            continue
        (carrier,) = [c for c in sent if any(f"g:{k}:again" in cid for cid in c.custom_ids())]
        assert f"answer {k:02d}" in carrier.content
    boards = [c for c in sent if "board after" in c.content]
    assert boards[0].method == "POST"
    assert all(c.method == "PATCH" for c in boards[1:])
    assert boards[-1].content == f"board after {n}"


async def test_practice_guesses_in_a_busy_channel(busy: StandIn, make_adapter: MakeAdapter,
                                                  tmp_path: Path) -> None:
    """The real App: three players practise in one channel and type 30 guesses at once. The
    channel gets every answer, in each player's order, within the limits and in fewer messages."""
    from bot.app.app import App

    app = await App.open(db_path=str(tmp_path / "busy.sqlite"), seed=7)
    try:
        await make_adapter(app.handle, app.command_menu())
        users = [busy.add_user(name) for name in ("Ann", "Ben", "Cem")]
        for user in users:
            await busy.say(CHANNEL_ID, user, "!practice")
        for user in users:
            def picked(c: Call, u: User = user) -> bool:
                return c.status < 300 and f"{u.name}, I have picked" in c.content

            await busy.wait_for(picked, timeout=30)
        codes = ["0123", "4567", "8901", "2345", "6789", "1357", "2468", "3579", "1470", "2581"]
        for code in codes:
            for user in users:
                await busy.say(CHANNEL_ID, user, code)
        for user in users:
            def done(c: Call, u: User = user) -> bool:
                return c.status < 300 and (f"{u.name} #{len(codes)}:" in c.content or f"{u.name} cracked" in c.content)

            await busy.wait_for(done, timeout=60)
        await busy.settle(quiet=0.3)
    finally:
        await asyncio.sleep(0)
        await app.close()

    assert_within_limits(busy)
    sent = [c for c in posts(busy) if c.status < 300]
    received = "\n".join(c.content for c in sent)
    answers = 0
    for user in users:
        mine = [f"{user.name} #{i}: {code}" for i, code in enumerate(codes, 1)]
        cracked = next((i for i, t in enumerate(mine) if t not in received), None)
        if cracked is not None:  # cracked: the rest were no longer guesses
            mine = mine[:cracked]
            assert f"{user.name} cracked {codes[cracked]}" in received
        assert_in_order(received, mine)
        answers += len(mine)
    assert len(sent) < answers


def test_spread_keeps_five_per_window() -> None:
    """The Discord schedule alone, on a simulated clock: a channel that always has something to
    send gets its first sends at once, then one about every second, never more than 5 in 5 s."""
    from adapters.discord.pacing import Pacer, Pacing

    pacer = Pacer(Pacing(margin=0.0, slack=0.0))
    now, sent = 1000.0, []
    while now < 1000.0 + 60:
        now += pacer.delay(1, now)
        pacer.record(1, now)
        sent.append(now)
        now += 0.001
    gaps = [b - a for a, b in itertools.pairwise(sent)]
    assert max(gaps) < 2.0
    assert all(sum(1 for t in sent[i:] if t < start + 5.0) <= 5 for i, start in enumerate(sent))
    assert len(sent) >= 55
    assert pacer.delay(2, now) == 0.0
