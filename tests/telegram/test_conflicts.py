"""Webhook and polling conflicts (issue 22, item 6), against the stand-in's model of the Bot API
(https://core.telegram.org/bots/api#setwebhook, #getupdates): a bad webhook secret, getUpdates while a
webhook is set, and two processes polling one token — each said in one clear line, not a stream of
warnings, and shown by `python -m bot health`."""

from __future__ import annotations

import asyncio
import contextlib
import logging
import os
import sys
from pathlib import Path

import aiohttp
import pytest
from telegram import Bot
from telegram.error import BadRequest

from adapters.telegram import TelegramAdapter
from bot.process import ops
from bot.process.platforms import Platform
from core.messages import CommandInfo, Inbound, Response
from tests.telegram.conftest import MakeAdapter
from tests.telegram.fakeapp import FakeApp
from tests.telegram.standin import StandIn
from tests.telegram.standin_objects import Chat, User
from tests.telegram.standin_updates import TERMINATED, WEBHOOK_ACTIVE

ROOT = Path(__file__).resolve().parents[2]
GROUP = Chat(id=-3003, type="group")
ALICE = User(id=131, first_name="Alice")


async def nothing(inbound: Inbound) -> Response:
    return Response()


async def test_the_standin_refuses_a_secret_token_telegram_refuses(standin: StandIn) -> None:
    async with Bot(standin.token, base_url=standin.base_url) as bot:
        for bad, why in (("with space", "unallowed characters"), ("a+b/c=", "unallowed characters"),
                         ("x" * 257, "too long")):
            with pytest.raises(BadRequest, match=why):
                await bot.set_webhook("https://example.org/hook", secret_token=bad)
        assert await bot.set_webhook("https://example.org/hook", secret_token="A-z_0" * 51 + "9")


@pytest.mark.parametrize("secret", ["with space", "a+b/c=", "x" * 257, "ü"])
def test_a_secret_telegram_would_refuse_is_refused_before_starting(secret: str) -> None:
    with pytest.raises(ValueError, match="1–256 characters of A-Z a-z 0-9 _ -"):
        TelegramAdapter("1:x", nothing, {"en": [CommandInfo("help", "Help")]},
                        webhook_url="https://example.org/hook", webhook_secret=secret)


async def test_the_bot_process_says_a_bad_secret_in_one_line(tmp_path: Path) -> None:
    env = {k: v for k, v in os.environ.items() if not k.startswith(("TELEGRAM_", "DISCORD_"))}
    env.update(PYTHONPATH=str(ROOT), TELEGRAM_TOKEN="1:x", TELEGRAM_WEBHOOK_URL="https://example.org/hook",
               TELEGRAM_WEBHOOK_SECRET="my secret!")
    proc = await asyncio.create_subprocess_exec(
        sys.executable, "-m", "bot", "--db", str(tmp_path / "bot.sqlite3"), cwd=tmp_path, env=env,
        stdin=asyncio.subprocess.DEVNULL, stdout=asyncio.subprocess.PIPE, stderr=asyncio.subprocess.PIPE)
    _, err = await asyncio.wait_for(proc.communicate(), 60)
    text = err.decode()
    assert proc.returncode == 2 and "Traceback" not in text  # after the log of opening the database:
    assert text.strip().splitlines()[-1] == ("TELEGRAM_WEBHOOK_SECRET must be 1–256 characters of A-Z a-z 0-9 _ - "
                                             "(Telegram's setWebhook refuses any other)")


def conflict_lines(caplog: pytest.LogCaptureFixture) -> list[str]:
    return [r.getMessage() for r in caplog.records
            if r.levelno >= logging.WARNING and ("409" in r.getMessage() or "Conflict" in r.getMessage())]


async def test_a_second_poller_is_said_once_and_shown_by_health(
    standin: StandIn, make_adapter: MakeAdapter, caplog: pytest.LogCaptureFixture, tmp_path: Path
) -> None:
    caplog.set_level(logging.INFO)
    app = FakeApp()
    adapter = await make_adapter(app.handle, poll_timeout=0.5)
    standin.user_message(GROUP, ALICE, "/echo before")
    await standin.wait_sent(GROUP.id, "echo: before")

    # another process polls with the same token, as fast as it can, for a few seconds
    async def other_process() -> None:
        async with aiohttp.ClientSession() as session:
            url = f"{standin.base_url}{standin.token}/getUpdates"
            while True:
                async with session.post(url, data={"timeout": "1", "offset": "-1"}) as resp:
                    await resp.read()

    other = asyncio.create_task(other_process())
    for _ in range(200):
        if standin.conflicts.count(TERMINATED) >= 6 and adapter.problem:
            break
        await asyncio.sleep(0.05)
    assert adapter.problem is not None and "another process is polling" in adapter.problem
    assert not adapter.connected
    platform = Platform(adapter)
    platform.started.set()  # as bot/process/platforms.py marks an adapter that has started
    ops.write_status(tmp_path / "bot.sqlite3", {"telegram": platform.state()})
    _, line = ops.health(tmp_path / "bot.sqlite3")
    assert "telegram DISCONNECTED (another process is polling Telegram with this bot token" in line
    await asyncio.sleep(3)  # several more refusals of the bot's own polls
    other.cancel()
    with contextlib.suppress(asyncio.CancelledError):
        await other

    # the other one is gone: the bot polls again, and says so once
    standin.user_message(GROUP, ALICE, "/echo after")
    await standin.wait_sent(GROUP.id, "echo: after", timeout=40)
    assert adapter.problem is None
    said = conflict_lines(caplog)
    assert len(said) == 1, said
    assert [r.getMessage() for r in caplog.records if "polling works again" in r.getMessage()] == [
        "Telegram: polling works again"]


async def test_a_webhook_set_elsewhere_is_said_once(
    standin: StandIn, make_adapter: MakeAdapter, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.INFO)
    adapter = await make_adapter(nothing, poll_timeout=0.5)
    await standin.wait_for(lambda c: c.method == "getUpdates")
    async with Bot(standin.token, base_url=standin.base_url) as other:  # another deployment, in webhook mode
        await other.set_webhook("https://example.org/other", secret_token="s3cret")
        for _ in range(200):
            if standin.conflicts.count(WEBHOOK_ACTIVE) >= 3:
                break
            await asyncio.sleep(0.05)
        assert standin.conflicts.count(WEBHOOK_ACTIVE) >= 3
        assert adapter.problem is not None and "a webhook is set for this bot token" in adapter.problem
        assert len(conflict_lines(caplog)) == 1, conflict_lines(caplog)


async def test_polling_that_removes_a_webhook_says_so_once_at_start(
    standin: StandIn, make_adapter: MakeAdapter, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.INFO)
    async with Bot(standin.token, base_url=standin.base_url) as other:
        await other.set_webhook("https://hooks.example.org/tg", secret_token="s3cret")
    await make_adapter(nothing, poll_timeout=0.5)
    await standin.wait_for(lambda c: c.method == "getUpdates")
    assert standin.webhook_url == ""  # python-telegram-bot deleted it to poll
    said = [r.getMessage() for r in caplog.records if "webhook was set" in r.getMessage()]
    assert said == ["Telegram: a webhook was set for this bot token (at hooks.example.org); polling removes it, "
                    "so a deployment in webhook mode gets no more updates"]
