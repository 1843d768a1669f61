"""Forum topics: a topic of a forum supergroup is a chat of its own for the App, "<group id>/<topic id>".

The Bot API (https://core.telegram.org/bots/api#message) marks a message sent in a forum topic with
`is_topic_message` and the topic's `message_thread_id` (the id of its `forum_topic_created` service
message); a message in General carries neither. A reply in a supergroup that is not a topic may carry a
`message_thread_id` too (the thread of replies it belongs to, tdlib/telegram-bot-api#356, #447): only
`is_topic_message` makes it a topic's. Sending to a topic takes `message_thread_id`; editing a message
needs none. The neutral id keeps General and every group that is no forum at its plain id, so what is
stored of them stays theirs; a topic's settings (language, time zone) are its group's
(`core.messages.group_of`).

A topic nobody can play in any more is told to the App as `Inbound.closed`: its `forum_topic_closed`
service message ("closed"), or Telegram refusing a send there — "TOPIC_CLOSED" for a closed topic,
"message thread not found" for a deleted one (which sends no service message).
"""

from __future__ import annotations

from telegram import Chat as TgChat
from telegram import Message
from telegram.error import BadRequest, TelegramError

from core.messages import TABLE_SEP, Actor, Chat, group_of

PLATFORM = "telegram"


def topic_of(message: Message) -> int | None:
    """The forum topic a message was sent in; None in General, in a group that is no forum, in private."""
    if message.is_topic_message and message.message_thread_id:
        return message.message_thread_id
    return None


def chat_of_message(message: Message) -> Chat:
    """The neutral chat a message belongs to: its topic's own id in a forum topic, else its chat's. A
    topic is titled as its group (its own name is on its `forum_topic_created` message only, which a
    message shows only when it answers nothing else: a title that came and went with each message)."""
    chat: TgChat = message.chat
    private = chat.type == TgChat.PRIVATE
    title = None if private else chat.title
    topic = None if private else topic_of(message)
    if topic is None:
        return Chat(platform=PLATFORM, chat_id=str(chat.id), private=private, title=title)
    return Chat(platform=PLATFORM, chat_id=f"{chat.id}{TABLE_SEP}{topic}", private=False, title=title)


def target(to: Chat | Actor) -> tuple[int | str, int | None]:
    """The Bot API chat_id and message_thread_id of a destination (numeric ids as int, "@channel"
    names as they are; no thread outside a topic)."""
    raw = to.user_id if isinstance(to, Actor) else to.chat_id
    group = group_of(raw)
    thread = int(raw[len(group) + 1:]) if raw != group else None
    try:
        return int(group), thread
    except ValueError:
        return group, thread


def gone(exc: TelegramError) -> str | None:
    """Why Telegram refused a send to a topic, if because the topic can no longer be written to:
    "closed" (TOPIC_CLOSED) or "deleted" (message thread not found); else None."""
    if not isinstance(exc, BadRequest):
        return None
    text = exc.message.lower()
    if "topic_closed" in text:
        return "closed"
    if "message thread not found" in text:
        return "deleted"
    return None
