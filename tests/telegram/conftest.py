"""Fixtures: a running stand-in Bot API and a factory for adapters pointed at it.

Everything started here is stopped at teardown (adapters before the server).
"""

from __future__ import annotations

from collections.abc import AsyncIterator, Awaitable, Callable, Mapping, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

import pytest
from telegram.ext import AIORateLimiter

from adapters.telegram import TelegramAdapter
from core.messages import CommandInfo, Inbound, Response
from tests.telegram.standin import StandIn
from tests.telegram.standin_calls import Limits

if TYPE_CHECKING:
    from tests.telegram.test_e2e_app import Club

Handle = Callable[[Inbound], Awaitable[Response]]
MakeAdapter = Callable[..., Awaitable[TelegramAdapter]]


def relaxed_limiter() -> AIORateLimiter:
    """Real AIORateLimiter and its RetryAfter retries, without Telegram's 20/min group pacing
    (which would make a test duel take minutes)."""
    return AIORateLimiter(overall_max_rate=0, group_max_rate=0, max_retries=4)


# Telegram's flood limits, enforced with every window a thousand times shorter ("20 a minute per
# group" becomes 20 in 60 ms), so ordinary tests are not slowed; tests of the limits set their own.
FAST = Limits(time_scale=0.001)


@pytest.fixture
async def standin() -> AsyncIterator[StandIn]:
    server = StandIn(limits=Limits(time_scale=FAST.time_scale))
    await server.start()
    yield server
    await server.stop()
    assert not server.drift, f"the stand-in drifted from PTB's classes: {server.drift}"
    assert not server.oversized, f"the bot sent keyboards Telegram refuses or cuts: {server.oversized}"


@pytest.fixture
async def make_adapter(standin: StandIn) -> AsyncIterator[MakeAdapter]:
    adapters: list[TelegramAdapter] = []

    async def make(
        handle: Handle,
        commands: Mapping[str, Sequence[CommandInfo]] | None = None,
        start: bool = True,
        **kwargs: Any,
    ) -> TelegramAdapter:
        kwargs.setdefault("base_url", standin.base_url)
        kwargs.setdefault("rate_limiter", relaxed_limiter())
        adapter = TelegramAdapter(
            standin.token, handle,
            commands if commands is not None else {"en": [CommandInfo("help", "Help")]},
            **kwargs,
        )
        adapters.append(adapter)
        if start:
            await adapter.start()
        return adapter

    yield make
    for adapter in reversed(adapters):
        await adapter.stop()


@pytest.fixture
async def club(standin: StandIn, tmp_path: Path) -> AsyncIterator[Club]:
    """The bot as deployed against the stand-in (tests/telegram/test_e2e_app.py `Club`), started and stopped."""
    from tests.telegram.test_e2e_app import Club

    club = Club(standin, tmp_path / "club.sqlite")
    await club.start()
    yield club
    await club.stop()
