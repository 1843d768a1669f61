"""The stand-in's forum supergroups: topics, their service messages, and sending into them.

Modelled as the Bot API documents it (https://core.telegram.org/bots/api):

- `Chat.is_forum`: "True, if the supergroup chat is a forum (has topics enabled)" (#chat).
- A topic is created by a `forum_topic_created` service message (`name`, `icon_color`: #forumtopiccreated);
  the topic's `message_thread_id` is that message's id (#forumtopic: "Unique identifier of the forum
  topic"; https://core.telegram.org/api/forum: "topics with id != 1 are just the message thread of the
  messageActionTopicCreate service message that created that topic").
- Every message in a topic carries `message_thread_id` and `is_topic_message: true` (#message: "True, if
  the message is sent to a forum topic"); one that answers no other message is a reply to the topic's
  `forum_topic_created` message (core.telegram.org/api/forum; python-telegram-bot#3648,
  aiogram#1511). A message in General carries neither field (tdlib/telegram-bot-api#356); a reply in
  a supergroup carries the `message_thread_id` of the replied-to thread without `is_topic_message`
  (tdlib/telegram-bot-api#447).
- `forum_topic_edited` (a topic renamed: its new `name`), `forum_topic_closed` and `forum_topic_reopened`
  service messages (#forumtopicclosed,
  #forumtopicreopened: "contains no information") are sent in the topic. Deleting a topic sends none.
- Sending with `message_thread_id` (sendMessage, sendPhoto, sendDocument … "Unique identifier for the
  target message thread (topic) of the forum; for forum supergroups only"): into a topic that does
  not exist, was deleted, or to General's id 1, Telegram answers 400 "Bad Request: message thread not
  found" (tdlib/telegram-bot-api#854, #798); into a closed topic 400 "Bad Request: TOPIC_CLOSED"
  (telegramdesktop/tdesktop#30476) unless the bot may manage topics (`can_manage_topics`, which the
  stand-in's bot never has). The message sent lands in the topic and says so. A message is edited by
  chat and message id alone (editMessageText takes no thread).
- General can be closed too (#closegeneralforumtopic): a send without `message_thread_id` is then refused
  with "TOPIC_CLOSED" (telegramdesktop/tdesktop#30476).
- A member can no longer write in a closed topic (only admins who may manage topics can), nor in a
  deleted one.
"""

from __future__ import annotations

import itertools
import time
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from tests.telegram.standin import StandIn
    from tests.telegram.standin_objects import Chat, User
    from tests.telegram.standin_state import State

THREAD_NOT_FOUND = "Bad Request: message thread not found"
TOPIC_CLOSED = "Bad Request: TOPIC_CLOSED"
ICON_COLOR = 0x6FB9F0  # one of the six colours the Bot API allows (#createforumtopic)


@dataclass
class Topic:
    """One topic of a forum: its creation message and whether it is closed or deleted."""

    name: str
    created: dict[str, Any]
    closed: bool = False
    deleted: bool = False


class ApiRefusal(Exception):
    """A send the Bot API refuses (status, description); the stand-in turns it into its error answer."""

    def __init__(self, status: int, description: str) -> None:
        super().__init__(description)
        self.status = status
        self.description = description


def _service(server: StandIn, chat: Chat, user: User, thread: int | None, **content: Any) -> dict[str, Any]:
    message_id = server._next_message_id(chat.id)
    message: dict[str, Any] = {"message_id": message_id, "date": int(time.time()), "chat": chat.to_dict(),
                               "from": user.to_dict(), **content}
    thread = thread if thread is not None else message_id
    message["message_thread_id"] = thread
    message["is_topic_message"] = True
    return message


def create_topic(server: StandIn, chat: Chat, user: User, name: str) -> int:
    """`user` creates a topic `name` in the forum `chat`: its service message; returns the topic's id."""
    assert chat.is_forum, "only a forum supergroup has topics"
    server._message_ids.setdefault(chat.id, itertools.count(2))  # 1 is General's id, no topic's (#798)
    server._register(chat)
    server._seen_in(chat, user)
    message = _service(server, chat, user, None, forum_topic_created={"name": name, "icon_color": ICON_COLOR})
    thread = int(message["message_id"])
    server.messages[(chat.id, thread)] = message
    server.topics[(chat.id, thread)] = Topic(name, message)
    server._push({"message": message})
    return thread


def close_topic(server: StandIn, chat: Chat, user: User, thread: int) -> None:
    """`user` (an admin) closes the topic: its `forum_topic_closed` service message."""
    topic = server.topics[(chat.id, thread)]
    topic.closed = True
    message = _service(server, chat, user, thread, forum_topic_closed={})
    server.messages[(chat.id, message["message_id"])] = message
    server._push({"message": message})


def rename_topic(server: StandIn, chat: Chat, user: User, thread: int, name: str) -> None:
    """`user` renames the topic: its `forum_topic_edited` service message (#forumtopicedited: the new
    `name`); the creation message keeps the old one."""
    server.topics[(chat.id, thread)].name = name
    message = _service(server, chat, user, thread, forum_topic_edited={"name": name})
    server.messages[(chat.id, message["message_id"])] = message
    server._push({"message": message})


def reopen_topic(server: StandIn, chat: Chat, user: User, thread: int) -> None:
    """`user` (an admin) reopens it: its `forum_topic_reopened` service message."""
    topic = server.topics[(chat.id, thread)]
    topic.closed = False
    message = _service(server, chat, user, thread, forum_topic_reopened={})
    server.messages[(chat.id, message["message_id"])] = message
    server._push({"message": message})


def close_general(server: StandIn, chat: Chat) -> None:
    """An admin closes General (closeGeneralForumTopic): the bot's messages there are refused."""
    server.general_closed.add(chat.id)


def delete_topic(server: StandIn, chat: Chat, thread: int) -> None:
    """An admin deletes the topic with its messages: Telegram tells the bot nothing."""
    server.topics[(chat.id, thread)].deleted = True
    for key in [k for k, m in server.messages.items() if k[0] == chat.id and m.get("message_thread_id") == thread
                and m.get("is_topic_message")]:
        del server.messages[key]


def into_topic(server: State, chat: Chat, thread: int | None, message: dict[str, Any]) -> None:
    """A user's message written in topic `thread` (None: General, or a group without topics): the
    fields the Bot API gives it there. A member cannot write in a closed or deleted topic."""
    if thread is None:
        replied = message.get("reply_to_message")
        if replied is not None and chat.type == "supergroup":  # a thread of replies, no topic (#447)
            message["message_thread_id"] = replied.get("message_thread_id") or replied["message_id"]
        return
    topic = server.topics.get((chat.id, thread))
    assert topic is not None and not topic.deleted, f"no topic {thread} in chat {chat.id}"
    assert not topic.closed, f"topic {thread} is closed: members cannot write in it"
    message["message_thread_id"] = thread
    message["is_topic_message"] = True
    if "reply_to_message" not in message:
        message["reply_to_message"] = dict(topic.created)


def thread_fields(server: State, chat_id: int, params: dict[str, Any]) -> dict[str, Any]:
    """What a bot's send with `message_thread_id` may do (module docstring): the fields of the message
    it makes, or the Bot API's refusal."""
    thread = params.get("message_thread_id")
    chat = server.chats.get(chat_id)
    if thread is None:
        if chat is not None and chat.is_forum and chat_id in server.general_closed:
            raise ApiRefusal(400, TOPIC_CLOSED)  # General closed (closeGeneralForumTopic; tdesktop#30476)
        return {}
    topic = server.topics.get((chat_id, int(thread)))
    if chat is None or not chat.is_forum or topic is None or topic.deleted:
        raise ApiRefusal(400, THREAD_NOT_FOUND)
    if topic.closed:
        raise ApiRefusal(400, TOPIC_CLOSED)
    return {"message_thread_id": int(thread), "is_topic_message": True}


def in_topic(message: dict[str, Any]) -> int | None:
    """The topic a message is in (None: General or no forum)."""
    return int(message["message_thread_id"]) if message.get("is_topic_message") else None
