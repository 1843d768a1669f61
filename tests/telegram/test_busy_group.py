"""A busy group within Telegram's flood limits: the stand-in enforces them with 429s (windows
scaled down, `SCALE`), the adapter paces itself by the same limits scaled alike and sends the
replies that pile up as one message. Not timed: what is checked is what the group received."""

from __future__ import annotations

import asyncio
import itertools
from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from adapters.outbox import Entry
from adapters.telegram import TelegramAdapter
from adapters.telegram.outbox import Pacing, take
from bot.app.app import App
from core.messages import Chat as CoreChat
from core.messages import CommandInfo, Inbound, Outbound, OutButton, Response
from tests.telegram.standin import StandIn
from tests.telegram.standin_calls import SENDING, Call, Limits
from tests.telegram.standin_objects import Chat, User

pytestmark = pytest.mark.filterwarnings("ignore::telegram.warnings.PTBDeprecationWarning")

SCALE = 0.05  # "20 a minute per group" becomes 20 in 3 s
GROUP = Chat(id=-100777, type="group", title="Busy")
PLAYERS = [User(id=5100 + i, first_name=name, language_code="en")
           for i, name in enumerate(("Ann", "Ben", "Cem"))]


@pytest.fixture
async def standin() -> AsyncIterator[StandIn]:
    server = StandIn(limits=Limits(time_scale=SCALE))
    await server.start()
    yield server
    await server.stop()
    assert not server.drift


def paced_adapter(standin: StandIn, handle: object, commands: object = None) -> TelegramAdapter:
    return TelegramAdapter(
        standin.token, handle,  # type: ignore[arg-type]
        commands or {"en": [CommandInfo("help", "Help")]},  # type: ignore[arg-type]
        base_url=standin.base_url, pacing=Pacing(time_scale=SCALE),
    )


def group_sends(standin: StandIn) -> list[Call]:
    return [c for c in standin.calls if c.method in SENDING and c.chat_id == GROUP.id]


def assert_within_limits(standin: StandIn) -> None:
    """No send was refused with 429, and no window of the group's limit holds more than it allows."""
    sends = group_sends(standin)
    assert not [c for c in standin.calls if c.status == 429], "the stand-in refused a send (429)"
    span = 60.0 * SCALE
    times = [c.at for c in sends]
    for i, start in enumerate(times):
        assert sum(1 for t in times[i:] if t < start + span) <= 20


def assert_in_order(received: str, expected: list[str]) -> None:
    at = 0
    for text in expected:
        found = received.find(text, at)
        assert found >= 0, f"{text!r} missing (or out of order) in what the group received"
        at = found + len(text)


async def test_quick_replies_are_coalesced_within_the_limits(standin: StandIn) -> None:
    """60 quick guesses, every seventh answer with a button, every tenth one a board with an
    edit_key: at most 20 sends per window, no 429, every answer's text in order, every button
    on a message of the group."""
    n = 60

    async def handle(inbound: Inbound) -> Response:
        k = int((inbound.text or "g0")[1:])
        text = f"answer {k:02d}"
        if k % 10 == 0:
            return Response(messages=(Outbound(inbound.chat, f"board after {k:02d}",
                                               edit_key="board"),))
        buttons = ((OutButton("Again", f"g:{k}:again"),),) if k % 7 == 0 else ()
        return Response(messages=(Outbound(inbound.chat, text, buttons),))

    adapter = paced_adapter(standin, handle)
    await adapter.start()
    try:
        for k in range(1, n + 1):
            standin.user_message(GROUP, PLAYERS[k % 3], f"g{k}")
        last = f"answer {n - 1:02d}"
        await standin.wait_for(lambda c: c.ok and c.chat_id == GROUP.id and last in c.text,
                               timeout=30)
        await standin.wait_for(lambda c: c.ok and c.chat_id == GROUP.id and
                               f"board after {n}" in c.text, timeout=30)
    finally:
        await adapter.stop()

    sends = group_sends(standin)
    assert_within_limits(standin)
    assert len(sends) < n  # coalesced: fewer messages than answers
    received = "\n".join(c.text for c in sends if c.method == "sendMessage")
    assert_in_order(received, [f"answer {k:02d}" for k in range(1, n + 1) if k % 10])
    # Each button arrived on a message (its own answer's text in it), none lost.
    for k in range(7, n + 1, 7):
        if k % 10 == 0:
            continue
        (carrier,) = [c for c in sends if any(b.get("callback_data") == f"g:{k}:again"
                                              for b in c.buttons)]
        assert f"answer {k:02d}" in carrier.text
        assert standin.markup_of(GROUP.id, carrier.result["message_id"])
    # The board: one message, edited in place, showing its newest version.
    boards = [c for c in sends if "board after" in c.text]
    assert boards[0].method == "sendMessage"
    assert all(c.method == "editMessageText" for c in boards[1:])
    assert standin.messages[(GROUP.id, boards[0].result["message_id"])]["text"] == f"board after {n}"


async def test_practice_guesses_in_a_busy_group(standin: StandIn, tmp_path: Path) -> None:
    """The real App: three players practise in one group and send 45 guesses at once. The group
    gets every answer, in each player's order, within the limits and in fewer messages."""
    app = await App.open(db_path=str(tmp_path / "busy.sqlite"), seed=7)
    adapter = paced_adapter(standin, app.handle, app.command_menu())
    await adapter.start()
    try:
        for player in PLAYERS:
            standin.user_message(GROUP, player, "/practice")
        for player in PLAYERS:
            def picked(c: Call, p: User = player) -> bool:
                return c.ok and f"{p.first_name}, I have picked" in c.text

            await standin.wait_for(picked, timeout=30)
        codes = ["0123", "4567", "8901", "2345", "6789", "1357", "2468", "3579", "1470", "2581",
                 "3692", "4703", "5814", "6925", "7036"]
        for code in codes:
            for player in PLAYERS:
                standin.user_message(GROUP, player, code)
        for player in PLAYERS:
            def done(c: Call, p: User = player) -> bool:
                return c.ok and (f"{p.first_name} #{len(codes)}:" in c.text or f"{p.first_name} cracked" in c.text)

            await standin.wait_for(done, timeout=60)
        await asyncio.sleep(0)
    finally:
        await adapter.stop()
        await app.close()

    assert_within_limits(standin)
    sends = [c for c in group_sends(standin) if c.ok]
    received = "\n".join(c.text for c in sends)
    answers = 0
    for player in PLAYERS:
        mine = [f"{player.first_name} #{i}: {code}" for i, code in enumerate(codes, 1)]
        cracked = next((i for i, t in enumerate(mine) if t not in received), None)
        if cracked is not None:  # the player cracked it: the rest were no longer guesses
            mine = mine[:cracked]
            assert f"{player.first_name} cracked {codes[cracked]}" in received
        assert_in_order(received, mine)
        answers += len(mine)
    assert len(sends) < answers


def test_take_joins_plain_texts_and_keeps_buttons_last() -> None:
    """The merge rule alone: plain texts join; a keyboard ends the run; pictures, other chats and
    boards go alone; a board pending twice is sent once."""
    import collections

    group = CoreChat("telegram", "-1", False)
    other = CoreChat("telegram", "-2", False)
    button = ((OutButton("Go", "g:1:go"),),)
    loop = asyncio.new_event_loop()
    try:
        items = [Outbound(group, "a"), Outbound(group, "b"), Outbound(group, "c", button),
                 Outbound(group, "d"), Outbound(group, "pic", image=b"png"), Outbound(other, "x"),
                 Outbound(group, "v1", edit_key="k"), Outbound(group, "e"),
                 Outbound(group, "v2", edit_key="k"), Outbound(group, "y" * 4096), Outbound(group, "z")]
        queue: collections.deque[Entry] = collections.deque((o, loop.create_future()) for o in items)
        batches = []
        while queue:
            item, futures = take(queue)
            assert isinstance(item, Outbound) or item is None
            batches.append((item.text if item else None, bool(item and item.buttons), len(futures)))
    finally:
        loop.close()
    assert batches == [("a\n\nb\n\nc", True, 3), ("d", False, 1), ("pic", False, 1), ("x", False, 1),
                       (None, False, 1), ("e", False, 1), ("v2", False, 1),
                       ("y" * 4096, False, 1), ("z", False, 1)]


def test_pacer_spreads_a_busy_groups_sends_within_the_window() -> None:
    """The schedule alone, on a simulated clock: a group that always has something to send gets
    its first three at once, then sends spread out (never 20 at once and then a silent minute),
    and no minute holds more than 20 sends; a private chat one a second."""
    from adapters.telegram.outbox import Pacer

    pacer = Pacer(Pacing(margin=0.0))
    now, sent = 1000.0, []
    while now < 1000.0 + 300:
        now += pacer.delay(-1, now)
        pacer._record(-1, now)
        sent.append(now)
        now += 0.001  # the send itself
    assert sent[:3] == [1000.0, 1000.001, 1000.002]
    gaps = [b - a for a, b in itertools.pairwise(sent)]
    assert max(gaps) < 3.6  # spread: no silent stretch
    assert all(sum(1 for t in sent[i:] if t < start + 60.0) <= 20 for i, start in enumerate(sent))
    assert len(sent) >= 95  # about 20 a minute over five minutes
    assert pacer.delay(42, now) == 0.0
    pacer._record(42, now)
    assert 0.99 < pacer.delay(42, now) <= 1.0
