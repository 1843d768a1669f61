"""Forum topics piece by piece: the stand-in's topics as the Bot API documents them, the adapter's
topic chats and destinations, deep links and pacing of topics."""

from __future__ import annotations

from typing import Any

import aiohttp
from telegram import Message, Update
from telegram.error import BadRequest

from adapters.telegram.deeplink import DeepLinks, key_for, linked_chat
from adapters.telegram.inbound import from_update
from adapters.telegram.outbox import Pacer, Pacing
from adapters.telegram.topics import TopicNames, chat_of_message, gone, target
from bot.games.registry import link_prefixes
from core.messages import Actor, Chat, Inbound, Outbound, Response, group_of
from tests.telegram import forum
from tests.telegram.standin import StandIn
from tests.telegram.standin_objects import Chat as TgChat
from tests.telegram.standin_objects import User

ALICE = User(id=1, first_name="Alice")
FORUM = TgChat(id=-1001, type="supergroup", title="Club", is_forum=True)
PLAIN = TgChat(id=-1002, type="supergroup", title="Office")


async def call(standin: StandIn, method: str, **params: Any) -> tuple[int, dict[str, Any]]:
    async with aiohttp.ClientSession() as session, session.post(
            f"{standin.base_url}{standin.token}/{method}", json=params) as resp:
        return resp.status, await resp.json()


def last_message(standin: StandIn) -> Message:
    update = Update.de_json(standin._updates[-1], None)
    assert update is not None and update.message is not None
    return update.message


async def test_the_standin_sends_into_open_topics_only(standin: StandIn) -> None:
    topic = forum.create_topic(standin, FORUM, ALICE, "1A2B")
    status, body = await call(standin, "sendMessage", chat_id=FORUM.id, text="hi", message_thread_id=topic)
    assert status == 200 and body["result"]["message_thread_id"] == topic and body["result"]["is_topic_message"]
    status, body = await call(standin, "sendMessage", chat_id=FORUM.id, text="hi")  # General
    assert status == 200 and "message_thread_id" not in body["result"]
    for chat, thread in ((FORUM.id, 999), (FORUM.id, 1), (PLAIN.id, topic)):  # unknown, General's id, no forum
        standin._register(PLAIN)
        status, body = await call(standin, "sendMessage", chat_id=chat, text="hi", message_thread_id=thread)
        assert (status, body.get("description")) == (400, forum.THREAD_NOT_FOUND), (chat, thread, body)
    forum.close_topic(standin, FORUM, ALICE, topic)
    status, body = await call(standin, "sendMessage", chat_id=FORUM.id, text="hi", message_thread_id=topic)
    assert (status, body["description"]) == (400, forum.TOPIC_CLOSED)
    forum.reopen_topic(standin, FORUM, ALICE, topic)
    status, _ = await call(standin, "sendMessage", chat_id=FORUM.id, text="hi", message_thread_id=topic)
    assert status == 200
    forum.delete_topic(standin, FORUM, topic)
    status, body = await call(standin, "sendMessage", chat_id=FORUM.id, text="hi", message_thread_id=topic)
    assert (status, body["description"]) == (400, forum.THREAD_NOT_FOUND)


async def test_topic_messages_read_as_a_chat_of_their_own(standin: StandIn) -> None:
    topic = forum.create_topic(standin, FORUM, ALICE, "1A2B")
    created = last_message(standin)
    assert created.forum_topic_created is not None and created.message_thread_id == created.message_id == topic
    assert from_update(Update.de_json(standin._updates[-1], None), "ClubGameBot") is None  # nothing to do

    standin.user_message(FORUM, ALICE, "/practice", topic=topic)
    message = last_message(standin)
    assert message.is_topic_message and message.reply_to_message is not None  # to the topic's creation
    chat = chat_of_message(message)
    assert (chat.chat_id, chat.group, chat.private, chat.title) == (f"{FORUM.id}/{topic}", str(FORUM.id), False,
                                                                    "Club")
    standin.user_message(FORUM, ALICE, "/practice")  # General
    assert chat_of_message(last_message(standin)).chat_id == str(FORUM.id)

    # titled by the topic's name once a message showed it, also on a reply that shows it not
    names = TopicNames()
    assert chat_of_message(message, names).title == "Club › 1A2B"
    first = message.message_id
    standin.user_message(FORUM, ALICE, "1234", topic=topic, reply_to=first)
    reply = last_message(standin)
    assert reply.reply_to_message is not None and reply.reply_to_message.forum_topic_created is None
    assert chat_of_message(reply, names).title == "Club › 1A2B" and chat_of_message(reply).title == "Club"

    forum.close_topic(standin, FORUM, ALICE, topic)
    inbound = from_update(Update.de_json(standin._updates[-1], None), "ClubGameBot")
    assert inbound is not None and inbound.closed == "closed" and inbound.chat.chat_id == f"{FORUM.id}/{topic}"
    forum.reopen_topic(standin, FORUM, ALICE, topic)
    assert from_update(Update.de_json(standin._updates[-1], None), "ClubGameBot") is None


async def test_a_reply_in_a_supergroup_is_no_topic(standin: StandIn) -> None:
    first = standin.user_message(PLAIN, ALICE, "hello")
    standin.user_message(PLAIN, ALICE, "1234", reply_to=first["message_id"])
    message = last_message(standin)
    assert message.message_thread_id == first["message_id"] and not message.is_topic_message
    assert chat_of_message(message).chat_id == str(PLAIN.id)


def test_destinations_and_groups() -> None:
    assert target(Chat("telegram", "-1001/45", False)) == (-1001, 45)
    assert target(Chat("telegram", "-1001", False)) == (-1001, None)
    assert target(Actor("telegram", "7", "A")) == (7, None)
    assert target(Chat("telegram", "@club", False)) == ("@club", None)
    assert group_of("-1001/45") == "-1001" and group_of("-1001") == "-1001" and group_of("u:7") == "u:7"
    assert gone(BadRequest("Topic_closed")) == "closed"
    assert gone(BadRequest("Message thread not found")) == "deleted"
    assert gone(BadRequest("Chat not found")) is None


def test_daily_links_of_a_topic() -> None:
    links = DeepLinks(key_for("123:secret-token-of-this-installation"), link_prefixes())
    token = links.encode("daily:-1001234567890/4567:ab12")
    assert token is not None and len(token) <= 64 and "/" not in token
    assert links.decode(token) == "daily:-1001234567890/4567:ab12"
    assert links.decode(token.replace("t4567", "t4568")) is None  # another topic: not signed
    assert linked_chat("daily:-1001234567890/4567:ab12") == -1001234567890  # membership: of the group


def test_a_topic_waits_for_its_group() -> None:
    pacer = Pacer(Pacing(group_limit=2, group_burst=1))
    for _ in range(2):
        pacer._record(-1001, 100.0)
    assert pacer.delay("-1001/45", now=100.0) == pacer.delay(-1001, now=100.0) > 0


async def test_a_busy_forum_topics_replies_are_paced_as_the_groups_and_joined_per_topic(
        standin: StandIn, make_adapter: Any) -> None:
    """The real outbox: quick replies in two topics go to their own topic (joined only with their own
    topic's), and both topics together keep the group's limit (no 429)."""
    a = forum.create_topic(standin, FORUM, ALICE, "1A2B")
    b = forum.create_topic(standin, FORUM, ALICE, "Kegeln")

    async def handle(inbound: Inbound) -> Response:
        return Response(messages=(Outbound(inbound.chat, f"answer {inbound.text}"),))

    await make_adapter(handle, rate_limiter=None, pacing=Pacing(time_scale=0.001))
    n = 60
    for k in range(n):
        standin.user_message(FORUM, ALICE, f"{'a' if k % 2 else 'b'}{k:02d}", topic=a if k % 2 else b)
    await standin.wait_for(lambda c: c.ok and "answer" in c.text and f"{n - 1:02d}" in c.text, timeout=20)
    await standin.wait_for(lambda c: c.ok and "answer" in c.text and f"{n - 2:02d}" in c.text, timeout=20)
    sends = [c for c in standin.calls if c.method == "sendMessage" and c.chat_id == FORUM.id]
    assert not [c for c in standin.calls if c.status == 429]
    for topic, mark in ((a, "a"), (b, "b")):
        texts = "\n".join(c.text for c in sends if c.params.get("message_thread_id") == topic)
        mine = [f"answer {mark}{k:02d}" for k in range(n) if (k % 2 == 1) == (mark == "a")]
        assert [line for line in texts.splitlines() if line] == mine
    assert len(sends) < n, "replies that piled up went as one message"


async def test_a_refused_message_said_plainly_stays_in_its_topic(standin: StandIn, make_adapter: Any) -> None:
    topic = forum.create_topic(standin, FORUM, ALICE, "1A2B")

    async def handle(inbound: Inbound) -> Response:
        return Response(messages=(Outbound(inbound.chat, "your board", image=b"not a picture"),))

    await make_adapter(handle)
    standin.refuse_next(1, "Bad Request: IMAGE_PROCESS_FAILED", methods=("sendPhoto",))
    standin.user_message(FORUM, ALICE, "/board", topic=topic)
    (plain,) = await standin.wait_for(lambda c: c.ok and c.method == "sendMessage" and c.text == "your board")
    assert plain.params.get("message_thread_id") == topic and plain.result["is_topic_message"] is True


def test_a_topics_name_from_a_creation_message_that_names_no_thread() -> None:
    """However Telegram nests the creation message in a reply (with or without its thread fields), its
    id is the topic's: the name is taken."""
    data = {"message_id": 9, "date": 1, "chat": FORUM.to_dict(), "text": "1234", "message_thread_id": 5,
            "is_topic_message": True, "reply_to_message": {
                "message_id": 5, "date": 1, "chat": FORUM.to_dict(),
                "forum_topic_created": {"name": "Kegeln", "icon_color": forum.ICON_COLOR}}}
    message = Message.de_json(data, None)
    assert message is not None
    assert chat_of_message(message, TopicNames()).title == "Club › Kegeln"


async def test_a_renamed_topic_is_titled_by_its_new_name(standin: StandIn) -> None:
    topic = forum.create_topic(standin, FORUM, ALICE, "1A2B")
    names = TopicNames()
    standin.user_message(FORUM, ALICE, "/board", topic=topic)
    assert chat_of_message(last_message(standin), names).title == "Club › 1A2B"
    forum.rename_topic(standin, FORUM, ALICE, topic, "Zahlenraten")
    renamed = last_message(standin)
    assert renamed.forum_topic_edited is not None
    assert from_update(Update.de_json(standin._updates[-1], None), "ClubGameBot") is None  # nothing to answer
    assert chat_of_message(renamed, names).title == "Club › Zahlenraten"
    standin.user_message(FORUM, ALICE, "1234", topic=topic, reply_to=renamed.message_id)
    assert chat_of_message(last_message(standin), names).title == "Club › Zahlenraten"
    standin.user_message(FORUM, ALICE, "5678", topic=topic)  # answers the creation, which keeps the first name
    assert last_message(standin).reply_to_message.forum_topic_created.name == "1A2B"  # type: ignore[union-attr]
    assert chat_of_message(last_message(standin), names).title == "Club › Zahlenraten"
