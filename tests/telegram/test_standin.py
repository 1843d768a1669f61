"""The stand-in itself: long polling, offsets and error answers behave like Telegram's,
so the adapter tests prove something."""

from __future__ import annotations

import asyncio
import time
from typing import Any

import aiohttp

from tests.telegram.standin import Chat, StandIn, User

ALICE = User(id=1, first_name="Alice")
GROUP = Chat(id=-5)


async def call(session: aiohttp.ClientSession, standin: StandIn, method: str,
               **params: Any) -> tuple[int, dict[str, Any]]:
    url = f"{standin.base_url}{standin.token}/{method}"
    async with session.post(url, json=params) as resp:
        return resp.status, await resp.json()


async def test_long_poll_waits_for_an_update_or_the_timeout(standin: StandIn) -> None:
    async with aiohttp.ClientSession() as session:
        started = time.monotonic()
        status, body = await call(session, standin, "getUpdates", timeout=1)
        assert status == 200 and body["result"] == []
        assert 0.9 <= time.monotonic() - started < 2

        async def later() -> None:
            await asyncio.sleep(0.2)
            standin.user_message(GROUP, ALICE, "hello")

        task = asyncio.create_task(later())
        started = time.monotonic()
        _, body = await call(session, standin, "getUpdates", timeout=10)
        await task
        assert time.monotonic() - started < 2
        (update,) = body["result"]
        assert update["message"]["text"] == "hello"

        # Not confirmed yet: delivered again; confirmed by a higher offset: gone.
        _, body = await call(session, standin, "getUpdates", timeout=0)
        assert [u["update_id"] for u in body["result"]] == [update["update_id"]]
        _, body = await call(session, standin, "getUpdates", offset=update["update_id"] + 1)
        assert body["result"] == []
        _, body = await call(session, standin, "getUpdates", timeout=0)
        assert body["result"] == []


async def test_error_answers(standin: StandIn) -> None:
    async with aiohttp.ClientSession() as session:
        standin.blocked.add(7)
        status, body = await call(session, standin, "sendMessage", chat_id=7, text="hi")
        assert status == 403 and body["error_code"] == 403 and "Forbidden" in body["description"]
        standin.fail_next(1, retry_after=3)
        status, body = await call(session, standin, "sendMessage", chat_id=-5, text="hi")
        assert status == 429 and body["parameters"] == {"retry_after": 3}
        status, body = await call(session, standin, "sendMessage", chat_id=-5, text="hi")
        assert status == 200 and body["result"]["text"] == "hi"
        status, _ = await call(session, standin, "noSuchMethod")
        assert status == 404
        url = f"{standin.base_url}wrong:token/getMe"
        async with session.post(url) as resp:
            assert resp.status == 401
    assert [c.status for c in standin.calls] == [403, 429, 200, 404]
