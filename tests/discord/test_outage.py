"""Discord fails (5xx), answers 429 in bursts or stalls: retried within bounds, order kept per
channel, giving up is reported once, and the bot keeps serving.

discord.py's own back-off sleeps (1, 3, 5, 7, 9 s on a 5xx) are sped up 100 times here; the
adapter's pauses and timeouts are shortened too, so the whole file runs in a few seconds.
"""

from __future__ import annotations

import asyncio
import logging
import time
from types import ModuleType
from typing import Any

import discord.http
import discord.webhook.async_
import pytest

from adapters.discord import render
from adapters.outbox import MERGE_SEPARATOR
from core.messages import Inbound, Outbound, Response

from .conftest import MakeAdapter
from .model import BOT_TOKEN, CHANNEL_ID, Call
from .standin import StandIn
from .test_plumbing import MENUS, FakeApp


class _FastAsyncio(ModuleType):
    """`asyncio` for discord.py's modules, with every sleep 100 times shorter."""

    def __getattr__(self, name: str) -> Any:
        return getattr(asyncio, name)

    @staticmethod
    async def sleep(delay: float, result: Any = None) -> Any:
        return await asyncio.sleep(delay / 100, result)


@pytest.fixture(autouse=True)
def quick(monkeypatch: pytest.MonkeyPatch) -> None:
    fast = _FastAsyncio("asyncio")
    monkeypatch.setattr(discord.http, "asyncio", fast)
    monkeypatch.setattr(discord.webhook.async_, "asyncio", fast)
    monkeypatch.setattr(render, "TRANSIENT_PAUSES", (0.05, 0.1))
    monkeypatch.setattr(render, "CALL_TIMEOUT", 3.0)
    monkeypatch.setattr(render, "REQUEST_TIMEOUT", 0.5)


def echo(inbound: Inbound) -> Response:
    """`burst N` → N lines; `say X` → a notice X for the actor; anything else is echoed."""
    text = inbound.text or " ".join(inbound.args)
    if text.startswith("burst "):
        n = int(text.split()[1])
        return Response(messages=tuple(Outbound(inbound.chat, f"line {i}") for i in range(n)))
    if inbound.command == "guess":
        return Response(notice=f"noted {text}")
    return Response(messages=(Outbound(inbound.chat, f"echo: {text}"),))


def parts(call: Call) -> list[str]:
    """The replies a post carries: replies that piled up while it waited go out joined (pacing.py)."""
    return call.content.split(MERGE_SEPARATOR)


def delivered(standin: StandIn) -> list[str]:
    """What readers of the channel see: the replies the bot posted there, oldest first."""
    return [part for c in standin.calls
            if c.method == "POST" and c.channel_id == CHANNEL_ID and c.status < 300 and not c.replayed
            for part in parts(c)]


def posted(text: str) -> Any:
    return lambda c: text in parts(c) and c.status < 300


async def start(standin: StandIn, make_adapter: MakeAdapter) -> Any:
    app = FakeApp()
    app.reply = echo
    await make_adapter(app.handle, MENUS)
    return standin.add_user("Alice")


def gave_up(caplog: pytest.LogCaptureFixture) -> list[logging.LogRecord]:
    return [r for r in caplog.records if "gave up" in r.getMessage()]


@pytest.mark.parametrize("status", [502, 503])  # discord.py retries a 502 itself, the adapter a 503
async def test_short_outage_loses_nothing_and_keeps_order(
    standin: StandIn, make_adapter: MakeAdapter, caplog: pytest.LogCaptureFixture, status: int
) -> None:
    caplog.set_level(logging.INFO)
    alice = await start(standin, make_adapter)
    standin.break_next(2, status=status)
    await standin.say(CHANNEL_ID, alice, "burst 4")
    await standin.say(CHANNEL_ID, alice, "after")
    await standin.wait_for(posted("echo: after"), timeout=10)
    assert [c.status for c in standin.faults("5xx")] == [status, status]
    assert delivered(standin) == [f"line {i}" for i in range(4)] + ["echo: after"]
    assert not gave_up(caplog)


async def test_long_outage_gives_up_loudly_then_serves_again(
    standin: StandIn, make_adapter: MakeAdapter, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.INFO)  # (discord.py's DEBUG log quotes the payloads)
    alice = await start(standin, make_adapter)
    standin.break_next(3, status=503)  # discord.py does not retry a 503: three adapter attempts
    await standin.say(CHANNEL_ID, alice, "lost words")
    await standin.wait_for(lambda c: c.fault == "5xx")  # in flight: "back" is not joined to it
    await standin.say(CHANNEL_ID, alice, "back")
    await standin.wait_for(posted("echo: back"), timeout=10)
    assert len(standin.faults("5xx")) == 3
    assert delivered(standin) == ["echo: back"]
    [record] = gave_up(caplog)
    assert record.levelno == logging.WARNING and record.name == "adapters.discord.render"
    assert record.getMessage() == "Discord outage: gave up sending a message after 3 attempts (HTTP 503)"
    assert BOT_TOKEN not in caplog.text and "lost words" not in caplog.text


async def test_errors_discord_py_retried_are_not_retried_again(
    standin: StandIn, make_adapter: MakeAdapter, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.WARNING)
    alice = await start(standin, make_adapter)
    standin.break_next(6, status=502)  # discord.py tries five times, the adapter adds nothing
    await standin.say(CHANNEL_ID, alice, "lost")
    await standin.wait_for(lambda c: c.fault == "5xx")  # in flight: "back" is not joined to it
    await standin.say(CHANNEL_ID, alice, "back")
    await standin.wait_for(posted("echo: back"), timeout=10)
    assert len(standin.faults("5xx")) == 6  # five for "lost", the sixth was the first of "back"
    assert delivered(standin) == ["echo: back"]
    assert [r.getMessage() for r in gave_up(caplog)] == [
        "Discord outage: gave up sending a message after 1 attempt (HTTP 502)"]


async def test_rate_limit_burst_is_waited_out_in_order(
    standin: StandIn, make_adapter: MakeAdapter, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.WARNING)
    alice = await start(standin, make_adapter)
    standin.rate_limit_next(4, retry_after=2.0)  # discord.py sleeps it (sped up here) and retries
    await standin.say(CHANNEL_ID, alice, "burst 3")
    await standin.say(CHANNEL_ID, alice, "after")
    await standin.wait_for(posted("echo: after"), timeout=10)
    assert [c.status for c in standin.faults("429")] == [429] * 4
    assert delivered(standin) == ["line 0", "line 1", "line 2", "echo: after"]
    assert "responded with 429" in caplog.text  # discord.py's own warning: it understood the 429
    assert not gave_up(caplog)


async def test_stalled_answer_is_retried_without_a_duplicate(
    standin: StandIn, make_adapter: MakeAdapter, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.INFO)
    alice = await start(standin, make_adapter)
    standin.stall_next(1, seconds=3.0, kinds={"message"})
    began = time.monotonic()
    await standin.say(CHANNEL_ID, alice, "slow")
    await standin.say(CHANNEL_ID, alice, "after")
    await standin.wait_for(posted("echo: after"), timeout=10)
    assert time.monotonic() - began < 2.5  # the timeout, not the stall, decided
    [stalled] = standin.faults("stall")
    assert parts(stalled)[0] == "echo: slow"
    retry: Call = await standin.wait_for(lambda c: c.replayed)
    assert isinstance(retry.body, dict) and isinstance(stalled.body, dict)
    assert retry.body["nonce"] == stalled.body["nonce"]
    assert delivered(standin) == ["echo: slow", "echo: after"]  # Discord dropped the resend
    assert "sending a message failed (TimeoutError), attempt 1" in caplog.text
    assert not gave_up(caplog)


async def test_endless_stall_gives_up_within_bounds(
    standin: StandIn, make_adapter: MakeAdapter, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.WARNING)
    alice = await start(standin, make_adapter)
    standin.stall_next(3, seconds=5.0, kinds={"message"})
    began = time.monotonic()
    await standin.say(CHANNEL_ID, alice, "slow")
    await standin.wait_for(lambda c: c.fault == "stall")  # in flight: "after" is not joined to it
    await standin.say(CHANNEL_ID, alice, "after")
    await standin.wait_for(posted("echo: after"), timeout=10)
    assert time.monotonic() - began < 4  # 3 × 0.5 s timeouts + pauses, not 3 × 5 s
    assert len(standin.faults("stall")) == 3
    assert [r.getMessage() for r in gave_up(caplog)] == [
        "Discord outage: gave up sending a message after 3 attempts (TimeoutError)"]


async def test_interaction_answer_survives_a_failing_followup_by_dm(
    standin: StandIn, make_adapter: MakeAdapter, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.WARNING)
    alice = await start(standin, make_adapter)
    standin.break_next(5, status=500, kinds={"callback"})  # discord.py's five webhook tries
    await standin.slash(CHANNEL_ID, alice, "guess", {"code": "1234"})
    await standin.wait_for(lambda c: c.content == "noted 1234" and c.channel_id is not None
                           and c.status < 300, timeout=10)
    assert len(standin.faults("5xx")) == 5
    assert [c.content for c in standin.dms_to(alice)] == ["noted 1234"]
    assert [r.getMessage() for r in gave_up(caplog)] == [
        "Discord outage: gave up answering an interaction after 1 attempt (HTTP 500)"]
    assert "1234" not in caplog.text
    await standin.say(CHANNEL_ID, alice, "still serving")
    await standin.wait_for(posted("echo: still serving"))
