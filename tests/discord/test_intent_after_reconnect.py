"""A Message Content intent refused after a reconnect (issue 35): Discord closes the new IDENTIFY with 4014
"Disallowed intent(s)" (https://discord.com/developers/docs/topics/opcodes-and-status-codes
#gateway-gateway-close-event-codes: not to be retried as it is) — e.g. the intent was switched off in the
Developer Portal while the bot ran, and a RESUME was refused (op 9 Invalid Session,
https://discord.com/developers/docs/events/gateway-events#invalid-session). The adapter must not stay
deaf with the process running: it attaches again without the intent, as at start, says so in one line,
and plays on. Real discord.py against the stand-in."""

from __future__ import annotations

import asyncio
import logging
import time

import pytest

from adapters.discord.adapter import NO_MESSAGE_CONTENT
from bot.app.app import App

from .conftest import MakeAdapter
from .model import CHANNEL_ID, MESSAGE_CONTENT
from .standin import StandIn
from .test_e2e_games import act, in_channel, said


async def test_a_4014_after_a_reconnect_attaches_again_without_the_intent(
    standin: StandIn, make_adapter: MakeAdapter, app: App, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.WARNING)
    adapter = await make_adapter(app.handle, app.command_menu())  # the intent was granted at start
    assert standin.identified[-1]["intents"] & MESSAGE_CONTENT
    standin.refuse_intents(MESSAGE_CONTENT)  # switched off in the portal meanwhile
    standin._sessions.clear()  # the session cannot be resumed: the client identifies anew
    await standin.drop_gateway()
    standin.allow_reconnect()
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline and not (
            standin.identifies_refused and not standin.identified[-1]["intents"] & MESSAGE_CONTENT):
        await asyncio.sleep(0.1)
    assert standin.identifies_refused == 1
    assert not standin.identified[-1]["intents"] & MESSAGE_CONTENT, "attached again without it"
    await asyncio.sleep(0.5)
    assert adapter.failure is None and adapter.note == NO_MESSAGE_CONTENT
    lines = [r for r in caplog.records if "4014" in r.getMessage()]
    assert len(lines) == 1 and "Message Content" in lines[0].getMessage()
    alice = standin.add_user("Alice")
    await act(standin, standin.slash(CHANNEL_ID, alice, "practice", {"length": "4"}))
    calls = await act(standin, standin.say(CHANNEL_ID, alice, f"0123 {standin.bot.mention}"))
    assert any("0123" in c.content for c in in_channel(standin, calls) if said(c))
