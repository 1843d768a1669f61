"""Chats are served side by side, each chat strictly in order (adapters/telegram/ordering.py)."""

from __future__ import annotations

import asyncio

from core.messages import Inbound, Outbound, Response
from tests.telegram.conftest import MakeAdapter
from tests.telegram.standin import Chat, StandIn, User

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
