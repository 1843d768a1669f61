"""The stand-in keeps Discord's interaction lifecycle, permissions, rate limits, the members intent and
gateway resumes as strictly as Discord does. Each request goes through discord.py's own HTTP client
(raw, past the library's client-side checks), so the test sees what the bot would see."""

from __future__ import annotations

import asyncio
import time
from typing import Any

import discord
import pytest
from discord.http import Route

from core.messages import Inbound, Outbound, Response

from .conftest import MakeAdapter
from .model import CHANNEL_ID, GUILD_ID, OTHER_CHANNEL_ID
from .standin import StandIn


async def _nothing(_: Any) -> Response:
    return Response()


def _callback_route(payload: dict[str, Any]) -> Route:
    return Route("POST", "/interactions/{interaction_id}/{interaction_token}/callback",
                 interaction_id=payload["id"], interaction_token=payload["token"])


def _followup_route(token: str) -> Route:
    return Route("POST", "/webhooks/{application_id}/{interaction_token}",
                 application_id=1, interaction_token=token)


async def _raises(code: int, status: int, call: Any) -> None:
    with pytest.raises(discord.HTTPException) as caught:
        await call
    assert (caught.value.status, caught.value.code) == (status, code)


async def test_an_interaction_is_answered_once_within_three_seconds(
    standin: StandIn, make_adapter: MakeAdapter
) -> None:
    adapter = await make_adapter(_nothing, {})
    http = adapter.client.http
    alice = standin.add_user("Alice")
    slash = {"id": "1", "name": "x", "type": 1}
    # a followup before the initial response: the webhook does not exist yet
    early = standin._interaction(2, CHANNEL_ID, alice, slash)
    await _raises(10015, 404, http.request(_followup_route(early["token"]), json={"content": "hi"}))
    await http.request(_callback_route(early), json={"type": 4, "data": {"content": "hello"}})
    # only once
    await _raises(40060, 400, http.request(_callback_route(early), json={"type": 4, "data": {"content": "x"}}))
    # then followups work
    await http.request(_followup_route(early["token"]), json={"content": "more"})
    # too late: the interaction token is no longer valid
    standin.response_window = 0.05
    late = standin._interaction(2, CHANNEL_ID, alice, slash)
    await asyncio.sleep(0.1)
    await _raises(10062, 404, http.request(_callback_route(late), json={"type": 5}))
    # the token serves followups for 15 minutes, then no longer
    standin.token_lifetime = 0.05
    await asyncio.sleep(0.1)
    await _raises(50027, 401, http.request(_followup_route(early["token"]), json={"content": "late"}))


@pytest.mark.parametrize(("kind", "response", "allowed"), [
    (2, 9, True), (3, 9, True), (5, 9, False),  # a modal answers a command or a button, never a modal
    (2, 7, False), (2, 6, False), (3, 7, True), (3, 6, True), (2, 5, True), (3, 4, True),
])
async def test_response_types_fit_the_interaction_type(
    kind: int, response: int, allowed: bool, standin: StandIn, make_adapter: MakeAdapter
) -> None:
    adapter = await make_adapter(_nothing, {})
    alice = standin.add_user("Alice")
    mid = int((await adapter.client.http.request(
        Route("POST", "/channels/{channel_id}/messages", channel_id=CHANNEL_ID), json={"content": "m"}))["id"])
    data: dict[str, Any] = {"id": "1", "name": "x", "type": 1} if kind == 2 else {"custom_id": "c"}
    payload = standin._interaction(kind, CHANNEL_ID, alice, data,
                                   message=standin.messages[mid] if kind == 3 else None)
    body: dict[str, Any] = {"type": response}
    if response == 9:
        body["data"] = {"title": "t", "custom_id": "~m", "components": [{"type": 1, "components": [
            {"type": 4, "custom_id": "value", "style": 1, "label": "x"}]}]}
    elif response in (4, 7):
        body["data"] = {"content": "answer"}
    call = adapter.client.http.request(_callback_route(payload), json=body)
    if allowed:
        await call
        assert standin.interactions[payload["token"]]["responded"] == response
    else:
        standin.expect_invalid = True
        await _raises(50035, 400, call)
        assert "type" in standin.last_errors


async def test_channel_permissions(standin: StandIn, make_adapter: MakeAdapter) -> None:
    adapter = await make_adapter(_nothing, {})
    http = adapter.client.http
    standin.deny(CHANNEL_ID, "send_messages")
    standin.deny(OTHER_CHANNEL_ID, "view_channel")
    post = Route("POST", "/channels/{channel_id}/messages", channel_id=CHANNEL_ID)
    await _raises(50013, 403, http.request(post, json={"content": "hi"}))
    other = Route("POST", "/channels/{channel_id}/messages", channel_id=OTHER_CHANNEL_ID)
    await _raises(50001, 403, http.request(other, json={"content": "hi"}))
    # an interaction in that channel is still answered: replies need no channel permission
    alice = standin.add_user("Alice")
    payload = standin._interaction(2, CHANNEL_ID, alice, {"id": "1", "name": "x", "type": 1})
    assert not int(payload["app_permissions"]) & (1 << 11)  # the bot sees that it may not post
    await http.request(_callback_route(payload), json={"type": 4, "data": {"content": "answer"}})


async def test_rate_limits_per_channel_with_discord_headers(
    standin: StandIn, make_adapter: MakeAdapter
) -> None:
    standin.rate_scale = 0.2  # 5 messages per channel per second
    adapter = await make_adapter(_nothing, {})
    channel = adapter.client.get_partial_messageable(CHANNEL_ID)
    started = time.monotonic()
    for i in range(7):
        await channel.send(f"m{i}")
    # discord.py read X-RateLimit-Remaining 0 and waited for the reset instead of being refused
    assert time.monotonic() - started >= 0.15
    raw = [c for c in standin.calls if c.channel_id == CHANNEL_ID]
    assert len([c for c in raw if c.status == 200]) == 7
    # past discord.py's own waiting a sixth message in the window gets 429 with retry_after
    standin.rate_scale = 1.0
    route = Route("POST", "/channels/{channel_id}/messages", channel_id=OTHER_CHANNEL_ID)
    for i in range(4):
        await adapter.client.http.request(route, json={"content": f"n{i}"})
    fifth = await standin.raw_post(f"/channels/{OTHER_CHANNEL_ID}/messages", {"content": "5"})
    assert fifth.status == 200 and fifth.headers["X-RateLimit-Remaining"] == "0"
    assert standin.bucket_remaining(OTHER_CHANNEL_ID) == 0
    limited = await standin.raw_post(f"/channels/{OTHER_CHANNEL_ID}/messages", {"content": "x"})
    assert limited.status == 429
    assert float(limited.headers["X-RateLimit-Reset-After"]) > 0
    assert limited.headers["X-RateLimit-Remaining"] == "0"
    assert (await limited.json())["retry_after"] > 0


async def test_no_member_list_without_the_members_intent(
    standin: StandIn, make_adapter: MakeAdapter
) -> None:
    adapter = await make_adapter(_nothing, {})
    route = Route("GET", "/guilds/{guild_id}/members", guild_id=GUILD_ID)
    await _raises(50001, 403, adapter.client.http.request(route))


async def test_a_resume_replays_the_events_missed(standin: StandIn, make_adapter: MakeAdapter) -> None:
    seen: list[str] = []

    async def handle(ib: Inbound) -> Response:
        seen.append(ib.text or "")
        return Response((Outbound(ib.chat, f"got {ib.text}"),))

    await make_adapter(handle, {})
    alice = standin.add_user("Alice")
    await standin.say(CHANNEL_ID, alice, "before")
    await standin.wait_for(lambda c: c.content == "got before")
    await standin.drop_gateway()  # the connection breaks; the stand-in holds back the reconnect
    await standin.say(CHANNEL_ID, alice, "missed")  # while the bot is away
    identified = len(standin.identified)
    standin.allow_reconnect()
    await standin.wait_for(lambda c: c.content == "got missed", timeout=10)
    assert seen == ["before", "missed"]
    assert standin.resumes == 1 and len(standin.identified) == identified  # resumed, not identified anew


async def test_the_global_rate_limit(standin: StandIn, make_adapter: MakeAdapter) -> None:
    standin.rate_scale = 10.0  # 50 requests per 10 s in all, 5 messages per channel per 50 s
    await make_adapter(_nothing, {})
    standin._buckets.clear()  # the login's requests do not count
    for i in range(50):
        ok = await standin.raw_post(f"/channels/{CHANNEL_ID + 10 + i // 5}/messages", {"content": "x"})
        assert ok.status == 200
    limited = await standin.raw_post(f"/channels/{CHANNEL_ID + 100}/messages", {"content": "x"})
    assert limited.status == 429 and limited.headers["X-RateLimit-Global"] == "true"
    assert (await limited.json())["global"] is True
