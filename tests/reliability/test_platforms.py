"""bot/process/platforms.py: each platform starts on its own; a transient failure is retried, a fatal one
stops that platform alone; and what `python -m bot health` shows of each state (bot/process/ops.py)."""

from __future__ import annotations

import asyncio
from collections.abc import Sequence
from typing import Any

from bot.process import ops
from bot.process.platforms import Platform, start_all


class Flaky:
    """An adapter whose first `fails` starts raise `error` (a unit test of the supervisor alone)."""

    def __init__(self, platform: str, error: BaseException | None = None, fails: int = 0) -> None:
        self.platform, self.error, self.fails = platform, error, fails
        self.starts = self.stops = 0
        self.connected = False

    async def start(self) -> None:
        self.starts += 1
        if self.error is not None and self.starts <= self.fails:
            raise self.error
        self.connected = True

    async def stop(self) -> None:
        self.stops += 1

    async def send(self, messages: Sequence[Any]) -> None:
        return None


async def test_a_fatal_start_stops_that_platform_only() -> None:
    bad, good = Flaky("discord", RuntimeError("LoginFailure"), fails=99), Flaky("telegram")
    platforms = [Platform(bad), Platform(good)]
    await asyncio.wait_for(start_all(platforms), 5)
    assert bad.starts == 1 and platforms[0].failed == "RuntimeError" and not platforms[0].running
    assert platforms[1].running and good.connected
    assert platforms[0].state() == {"connected": False, "failed": "RuntimeError"}
    for p in platforms:
        await p.stop()
    assert bad.stops == good.stops == 1


async def test_a_transient_start_is_tried_again_in_the_background() -> None:
    flaky = Flaky("discord", ConnectionError("refused"), fails=2)
    platform = Platform(flaky, first_pause=0.01)
    platform.run()
    await asyncio.wait_for(platform.started.wait(), 5)
    assert flaky.starts == 3 and platform.running and platform.state() == {"connected": True}
    await platform.stop()


def test_health_shows_each_platforms_state(tmp_path: Any) -> None:
    assert ops.platform_state(True) == (True, "connected")
    assert ops.platform_state({"connected": True, "note": "no_message_content"}) == (
        True, "connected (without message content: the Message Content intent is not enabled)")
    assert ops.platform_state({"connected": False, "failed": "LoginFailure"}) == (
        False, "FAILED (LoginFailure; stopped, the other platforms keep running)")
    assert ops.platform_state({"connected": False, "retrying": "ConnectionError"}) == (
        False, "DISCONNECTED (retrying after ConnectionError)")


def test_what_each_adapter_calls_worth_retrying() -> None:
    import aiohttp
    import discord
    import telegram.error as tg

    from adapters.discord import DiscordAdapter
    from adapters.telegram import TelegramAdapter

    assert TelegramAdapter.transient(tg.NetworkError("down")) and TelegramAdapter.transient(tg.TimedOut())
    assert not TelegramAdapter.transient(tg.InvalidToken()) and not TelegramAdapter.transient(tg.BadRequest("x"))
    from adapters.telegram import TelegramStartError

    assert TelegramAdapter.transient(TelegramStartError("down", transient=True))
    assert not TelegramAdapter.transient(TelegramStartError("bad token"))
    assert DiscordAdapter.transient(aiohttp.ClientConnectionError()) and DiscordAdapter.transient(TimeoutError())
    assert DiscordAdapter.transient(ConnectionError("the Discord connection ended before READY"))
    assert not DiscordAdapter.transient(discord.LoginFailure()) and not DiscordAdapter.transient(
        discord.PrivilegedIntentsRequired(0))
