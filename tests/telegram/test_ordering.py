"""Chats are served side by side, each chat strictly in order (adapters/telegram/ordering.py)."""

from __future__ import annotations

import asyncio
import time

import pytest

from adapters.telegram.ordering import MAX_CONCURRENT_UPDATES
from adapters.telegram.outbox import Pacing
from core.lines import step_aside
from core.messages import Inbound, Outbound, Response
from tests.telegram import forum
from tests.telegram.conftest import MakeAdapter
from tests.telegram.standin import StandIn
from tests.telegram.standin_objects import Chat, User

SLOW = Chat(id=-2001, type="group", title="Slow club")
FAST = Chat(id=-2002, type="group", title="Fast club")
ALICE = User(id=111, first_name="Alice", language_code="en")
BOB = User(id=222, first_name="Bob", language_code="en")


class GatedApp:
    """Answers `/n K` with "K"; a chat's `/hold` waits until the test opens the gate."""

    def __init__(self) -> None:
        self.gate = asyncio.Event()
        self.running = 0
        self.most = 0

    async def handle(self, inbound: Inbound) -> Response:
        self.running += 1
        self.most = max(self.most, self.running)
        try:
            if inbound.command == "hold":
                await self.gate.wait()
            else:
                await asyncio.sleep(0.01 * (int(inbound.args[0]) % 3))  # later ones may finish first
            return Response(messages=(Outbound(to=inbound.chat, text=" ".join(inbound.args) or "held"),))
        finally:
            self.running -= 1


async def test_a_held_chat_does_not_hold_up_another_chat(standin: StandIn, make_adapter: MakeAdapter) -> None:
    app = GatedApp()
    await make_adapter(app.handle)
    standin.user_message(SLOW, ALICE, "/hold")
    standin.user_message(SLOW, ALICE, "/n 1")
    standin.user_message(FAST, BOB, "/n 2")
    try:
        await standin.wait_sent(FAST.id, "2", timeout=5)
        assert standin.sent(SLOW.id) == []  # "/n 1" waits for "/hold" of its own chat
    finally:
        app.gate.set()
    await standin.wait_sent(SLOW.id, "1", timeout=5)
    assert [c.text for c in standin.sent(SLOW.id)] == ["held", "1"]


async def test_each_chat_keeps_its_order_while_chats_run_concurrently(
    standin: StandIn, make_adapter: MakeAdapter
) -> None:
    app = GatedApp()
    app.gate.set()
    await make_adapter(app.handle)
    for k in range(12):
        standin.user_message(SLOW, ALICE, f"/n {k}")
        standin.user_message(FAST, BOB, f"/n {k}")
    await standin.wait_sent(SLOW.id, "11", timeout=10)
    await standin.wait_sent(FAST.id, "11", timeout=10)
    for chat in (SLOW, FAST):
        assert [c.text for c in standin.sent(chat.id)] == [str(k) for k in range(12)]
    assert app.most == 2  # one update per chat at a time, both chats at once


# issue 35: order per forum topic, no concurrency slot held while waiting, uploads off the ordering path
FORUM = Chat(id=-2003, type="supergroup", title="Forum club", is_forum=True)


async def test_a_held_topic_does_not_hold_up_another_topic_of_its_forum(
    standin: StandIn, make_adapter: MakeAdapter
) -> None:
    app = GatedApp()
    app.gate.set()
    await make_adapter(app.handle)
    slow_topic = forum.create_topic(standin, FORUM, ALICE, "Slow")
    fast_topic = forum.create_topic(standin, FORUM, ALICE, "Fast")
    app.gate.clear()
    standin.user_message(FORUM, ALICE, "/hold", topic=slow_topic)
    standin.user_message(FORUM, ALICE, "/n 1", topic=slow_topic)
    standin.user_message(FORUM, BOB, "/n 2", topic=fast_topic)
    try:
        answer = await standin.wait_sent(FORUM.id, "2", timeout=5)
        assert answer.params.get("message_thread_id") == fast_topic
        assert standin.sent(FORUM.id) == [answer]  # "/n 1" waits for "/hold" of its own topic
    finally:
        app.gate.set()
    await standin.wait_sent(FORUM.id, "1", timeout=5)
    slow = [c.text for c in standin.sent(FORUM.id) if c.params.get("message_thread_id") == slow_topic]
    assert slow == ["held", "1"]


async def test_updates_waiting_for_their_chat_take_no_slot_from_other_chats(
    standin: StandIn, make_adapter: MakeAdapter
) -> None:
    """More updates queue behind a held one than python-telegram-bot runs at once (its semaphore,
    MAX_CONCURRENT_UPDATES): another chat is still answered at once."""
    app = GatedApp()
    await make_adapter(app.handle)
    standin.user_message(SLOW, ALICE, "/hold")
    for k in range(MAX_CONCURRENT_UPDATES + 6):
        standin.user_message(SLOW, ALICE, f"/n {k}")
    standin.user_message(FAST, BOB, "/n 2")
    try:
        await standin.wait_sent(FAST.id, "2", timeout=5)
    finally:
        app.gate.set()
    last = MAX_CONCURRENT_UPDATES + 5
    await standin.wait_sent(SLOW.id, str(last), timeout=10)
    assert [c.text for c in standin.sent(SLOW.id)] == ["held", *map(str, range(last + 1))]


class UploadingApp(GatedApp):
    """`/file` is answered with a document (a slow upload at the stand-in); notes when each update came."""

    def __init__(self) -> None:
        super().__init__()
        self.gate.set()
        self.came: dict[str, float] = {}

    async def handle(self, inbound: Inbound) -> Response:
        self.came[" ".join((inbound.command or "", *inbound.args))] = time.monotonic()
        if inbound.command == "file":
            return Response(messages=(Outbound(to=inbound.chat, text="your data",
                                               file=("data.json", b"{}")),))
        return await super().handle(inbound)


async def test_an_upload_holds_up_neither_its_chat_updates_nor_other_chats(
    standin: StandIn, make_adapter: MakeAdapter
) -> None:
    """The bot's own pacing (no test rate limiter): a 1.5 s upload goes out from the chat's outbox, in
    order with the chat's later replies, while the chat's next update is handled at once."""
    app = UploadingApp()
    await make_adapter(app.handle, rate_limiter=None, pacing=Pacing(time_scale=0.001))
    standin.slow["sendDocument"] = 1.5
    private = Chat.private(ALICE)
    began = time.monotonic()
    standin.user_message(private, ALICE, "/file")
    standin.user_message(private, ALICE, "/n 1")
    standin.user_message(FAST, BOB, "/n 2")
    await standin.wait_sent(FAST.id, "2", timeout=5)
    assert time.monotonic() - began < 1.0
    await standin.wait_for(lambda c: c.method == "sendDocument" and c.ok, timeout=5)
    assert app.came["n 1"] - app.came["file"] < 0.5  # handled while the upload was still going
    await standin.wait_sent(ALICE.id, "1", timeout=5)
    assert [c.method for c in standin.sent(ALICE.id)] == ["sendDocument", "sendMessage"]  # still in order


# issue 35: heavy work steps aside (core/lines.py): its line moves on, its slot is given back
class AsideApp(GatedApp):
    """`/aside` steps aside (as the solver's /analyse does once it has read the game), then waits for the gate."""

    async def handle(self, inbound: Inbound) -> Response:
        if inbound.command == "aside":
            step_aside()
            step_aside()  # a second call does nothing
            await self.gate.wait()
            return Response(messages=(Outbound(to=inbound.chat, text="thought"),))
        return await super().handle(inbound)


@pytest.mark.filterwarnings("ignore::telegram.warnings.PTBDeprecationWarning")  # the group's 429s: retried
async def test_a_handler_that_stepped_aside_holds_neither_its_line_nor_a_slot(
    standin: StandIn, make_adapter: MakeAdapter
) -> None:
    app = AsideApp()
    app.gate.clear()
    await make_adapter(app.handle)
    for _ in range(MAX_CONCURRENT_UPDATES + 2):  # more than python-telegram-bot runs at once
        standin.user_message(SLOW, ALICE, "/aside")
    for k in range(5):
        standin.user_message(SLOW, ALICE, f"/n {k}")
    standin.user_message(FAST, BOB, "/n 9")
    try:
        await standin.wait_sent(FAST.id, "9", timeout=5)
        await standin.wait_sent(SLOW.id, "4", timeout=5)
        # the chat's next updates were answered, in their order, while every /aside still thinks
        assert [c.text for c in standin.sent(SLOW.id)] == [str(k) for k in range(5)]
    finally:
        app.gate.set()
    await standin.wait_for(lambda c: c.ok and c.text == "thought", count=MAX_CONCURRENT_UPDATES + 2, timeout=10)
