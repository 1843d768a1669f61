"""The stand-in itself: long polling, offsets and error answers behave like Telegram's,
so the adapter tests prove something."""

from __future__ import annotations

import asyncio
import time
from typing import Any

import aiohttp
import pytest
from telegram import Update

from tests.telegram import botapi_rules as rules
from tests.telegram.standin import StandIn
from tests.telegram.standin_calls import Limits
from tests.telegram.standin_objects import Chat, User

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


# ------------------------------------------------------------------ as strict as Telegram


async def refused(session: aiohttp.ClientSession, standin: StandIn, method: str,
                  **params: Any) -> str:
    """The call is refused with 400: the Bot API's description."""
    status, body = await call(session, standin, method, **params)
    assert (status, body["ok"], body["error_code"]) == (400, False, 400), body
    return str(body["description"])


async def test_texts_buttons_and_markup_refused_as_telegram_refuses(standin: StandIn) -> None:
    async with aiohttp.ClientSession() as session:
        status, _ = await call(session, standin, "sendMessage", chat_id=-5, text="x" * 4096)
        assert status == 200
        assert await refused(session, standin, "sendMessage", chat_id=-6, text="x" * 4097) == (
            "Bad Request: message is too long")
        # Telegram counts UTF-16 units: 2,049 emoji are 4,098 of them.
        assert await refused(session, standin, "sendMessage", chat_id=-6, text="🎯" * 2049) == (
            "Bad Request: message is too long")
        # The length counts after entity parsing: tags do not count; unbalanced ones are refused.
        status, _ = await call(session, standin, "sendMessage", chat_id=-7, parse_mode="HTML",
                               text="<b>" + "x" * 4096 + "</b>")
        assert status == 200
        assert (await refused(session, standin, "sendMessage", chat_id=-6, parse_mode="HTML",
                              text="<b>bold <i>both</b></i>")).startswith(
            "Bad Request: can't parse entities")
        assert (await refused(session, standin, "sendMessage", chat_id=-6, parse_mode="MarkdownV2",
                              text="3 A 1 B.")).startswith("Bad Request: can't parse entities")
        keyboard = {"inline_keyboard": [[{"text": "go", "callback_data": "g:" + "9" * 63}]]}
        assert await refused(session, standin, "sendMessage", chat_id=-6, text="hi",
                             reply_markup=keyboard) == "Bad Request: BUTTON_DATA_INVALID"
        assert await refused(session, standin, "sendMessage", chat_id=-6, text=" ") == (
            "Bad Request: message text is empty")


async def test_edits_that_change_nothing_or_miss_the_message(standin: StandIn) -> None:
    keyboard = {"inline_keyboard": [[{"text": "go", "callback_data": "g:1:go"}]]}
    async with aiohttp.ClientSession() as session:
        _, body = await call(session, standin, "sendMessage", chat_id=-5, text="hi",
                             reply_markup=keyboard)
        message_id = body["result"]["message_id"]
        assert (await refused(session, standin, "editMessageText", chat_id=-5,
                              message_id=message_id, text="hi", reply_markup=keyboard)).startswith(
            "Bad Request: message is not modified: ")
        assert (await refused(session, standin, "editMessageReplyMarkup", chat_id=-5,
                              message_id=message_id, reply_markup=keyboard)).startswith(
            "Bad Request: message is not modified: ")
        status, _ = await call(session, standin, "editMessageReplyMarkup", chat_id=-5,
                               message_id=message_id)
        assert status == 200 and standin.markup_of(-5, message_id) == []
        assert (await refused(session, standin, "editMessageReplyMarkup", chat_id=-5,
                              message_id=message_id)).startswith("Bad Request: message is not modified")
        assert await refused(session, standin, "editMessageText", chat_id=-5, message_id=999,
                             text="x") == "Bad Request: message to edit not found"


async def test_callback_queries_answered_once_within_their_lifetime(standin: StandIn) -> None:
    async with aiohttp.ClientSession() as session:
        first = standin.press(GROUP, ALICE, 1, "g:1:go")
        assert await refused(session, standin, "answerCallbackQuery", callback_query_id=first,
                             text="x" * 201) == "Bad Request: MESSAGE_TOO_LONG"
        status, _ = await call(session, standin, "answerCallbackQuery", callback_query_id=first,
                               text="x" * 200)
        assert status == 200
        assert (await refused(session, standin, "answerCallbackQuery", callback_query_id=first)
                ).startswith("Bad Request: query is too old")
        late = standin.press(GROUP, ALICE, 1, "g:1:go")
        born, answered = standin._queries[late]
        standin._queries[late] = (born - standin.limits.callback_lifetime - 1, answered)
        assert (await refused(session, standin, "answerCallbackQuery", callback_query_id=late)
                ).startswith("Bad Request: query is too old")
        assert (await refused(session, standin, "answerCallbackQuery", callback_query_id="nope")
                ).startswith("Bad Request: query is too old")


async def test_only_real_methods_with_parameters_ptb_accepts(standin: StandIn) -> None:
    async with aiohttp.ClientSession() as session:
        status, body = await call(session, standin, "sendMesage", chat_id=-5, text="hi")
        assert (status, body["description"]) == (404, "Not Found")
        assert "colour" in await refused(session, standin, "sendMessage", chat_id=-5, text="hi",
                                         colour="red")


async def test_updates_round_trip_through_ptb_classes(standin: StandIn) -> None:
    """Everything the stand-in emits reads back through PTB unchanged; a made-up field, a date in
    milliseconds or a lost field would show up in `drift`."""
    message = standin.user_message(GROUP, ALICE, "/duel hi")
    standin.press(GROUP, ALICE, message["message_id"], "g:1:go")
    assert standin.drift == []
    in_ms = {"update_id": 1, "message": {**message, "date": int(time.time() * 1000)}}
    assert any("date" in p for p in rules.drift(Update, in_ms))
    made_up = {"update_id": 1, "message": {**message, "colour": 1}}
    assert any("colour" in p for p in rules.drift(Update, made_up))
    assert rules.drift(Update, {"update_id": 1, "message": message}) == []
    async with aiohttp.ClientSession() as session:
        _, body = await call(session, standin, "getUpdates", timeout=0)
    (_, press) = body["result"]
    assert press["callback_query"]["chat_instance"]
    assert isinstance(press["callback_query"]["message"]["date"], int)


async def test_flood_limits_answer_429_with_retry_after() -> None:
    """Telegram's own numbers: 20 messages a minute in a group, 1 a second in a private chat,
    30 a second overall."""
    server = StandIn(limits=Limits())
    await server.start()
    try:
        async with aiohttp.ClientSession() as session:
            for _ in range(20):
                status, _ = await call(session, server, "sendMessage", chat_id=-5, text="hi")
                assert status == 200
            status, body = await call(session, server, "sendMessage", chat_id=-5, text="hi")
            assert status == 429 and body["description"].startswith("Too Many Requests: retry after")
            assert 1 <= body["parameters"]["retry_after"] <= 60
            status, _ = await call(session, server, "sendMessage", chat_id=-6, text="hi")
            assert status == 200, "another group has its own budget"

            status, _ = await call(session, server, "sendMessage", chat_id=7, text="hi")
            assert status == 200
            status, body = await call(session, server, "sendMessage", chat_id=7, text="again")
            assert status == 429 and body["parameters"]["retry_after"] == 1

            statuses = [(await call(session, server, "sendMessage", chat_id=100 + i, text="hi"))[0]
                        for i in range(30)]
            assert statuses.count(429) >= 1, "30 a second overall (22 were sent already)"
    finally:
        await server.stop()


async def test_get_chat_member_as_the_bot_api_answers_it(standin: StandIn) -> None:
    """Each status with exactly its fields (PTB reads each back as its own ChatMember class); `left`
    for a user never in the group; errors for a missing or bad parameter and an unknown chat."""
    from telegram import ChatMember, ChatMemberBanned, ChatMemberLeft, ChatMemberMember

    bob = User(id=2, first_name="Bob")
    standin.user_message(GROUP, ALICE, "hello")  # writing there: a member
    standin.join(GROUP, bob)
    async with aiohttp.ClientSession() as session:
        status, body = await call(session, standin, "getChatMember", chat_id=GROUP.id, user_id=ALICE.id)
        assert status == 200 and isinstance(ChatMember.de_json(body["result"], None), ChatMemberMember)
        status, body = await call(session, standin, "getChatMember", chat_id=GROUP.id, user_id=777)
        assert status == 200 and isinstance(ChatMember.de_json(body["result"], None), ChatMemberLeft)
        standin.leave(GROUP, bob, banned=True)
        status, body = await call(session, standin, "getChatMember", chat_id=GROUP.id, user_id=bob.id)
        banned = ChatMember.de_json(body["result"], None)
        assert isinstance(banned, ChatMemberBanned) and body["result"]["until_date"] == 0
        status, body = await call(session, standin, "getChatMember", chat_id=GROUP.id)
        assert status == 400 and "user_id" in body["description"]
        status, body = await call(session, standin, "getChatMember", chat_id=-999, user_id=ALICE.id)
        assert status == 400 and body["description"] == "Bad Request: chat not found"
        status, body = await call(session, standin, "getChatMember", chat_id=GROUP.id, user_id="alice")
        assert status == 400 and "invalid user_id" in body["description"]
    with pytest.raises(AssertionError, match="cannot act there"):
        standin.user_message(GROUP, bob, "back?")  # a banned user cannot write in the group
