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
service message ("closed"), or Telegram refusing a send there — "TOPIC_CLOSED" for a closed topic
(General included, which admins may close too, or hide: hideGeneralForumTopic "automatically closes"
it, https://core.telegram.org/bots/api#hidegeneralforumtopic, and `general_forum_topic_hidden` says
so), "message thread not found" for a deleted one (which sends no service message). A group the bot
was removed from or muted in is told alike, for the whole group ("removed", "muted", `gone`).
"""

from __future__ import annotations

from telegram import Chat as TgChat
from telegram import Message
from telegram.error import BadRequest, Forbidden, TelegramError

from core.messages import TABLE_SEP, Actor, Chat, group_of

PLATFORM = "telegram"
TITLE_SEP = " › "  # "Kegelclub › 1A2B": a topic's title, its group's and its own name


def topic_of(message: Message) -> int | None:
    """The forum topic a message was sent in; None in General, in a group that is no forum, in private."""
    if message.is_topic_message and message.message_thread_id:
        return message.message_thread_id
    return None


class TopicNames:
    """The topics' names this adapter has seen (memory, at most `limit`): a topic's name is on its
    `forum_topic_created` (and `forum_topic_edited`) message only, which a message in the topic shows
    when it answers nothing else — so a topic is titled by its name once one of its messages showed it."""

    def __init__(self, limit: int = 100_000) -> None:
        self.limit = limit
        self._names: dict[tuple[int, int], str] = {}

    def learn(self, message: Message, topic: int) -> str | None:
        """The topic's name: as a rename (`forum_topic_edited`) said it, else as its creation message
        (which keeps the first name) shows it, else as seen before."""
        key = (message.chat.id, topic)
        for shown in (message, message.reply_to_message):
            if shown is None or (topic_of(shown) != topic and shown.message_id != topic):  # its creation: the id
                continue
            if shown.forum_topic_edited is not None and shown.forum_topic_edited.name:
                self._keep(key, shown.forum_topic_edited.name)
            elif shown.forum_topic_created is not None and key not in self._names:
                self._keep(key, shown.forum_topic_created.name)
        return self._names.get(key)

    def _keep(self, key: tuple[int, int], name: str) -> None:
        if len(self._names) >= self.limit:
            self._names.clear()
        self._names[key] = name


def chat_of_message(message: Message, names: TopicNames | None = None) -> Chat:
    """The neutral chat a message belongs to: its topic's own id in a forum topic, else its chat's. A
    topic is titled "<group> › <topic>" once its name is known (`TopicNames`), else as its group."""
    chat: TgChat = message.chat
    private = chat.type == TgChat.PRIVATE
    title = None if private else chat.title
    topic = None if private else topic_of(message)
    if topic is None:
        return Chat(platform=PLATFORM, chat_id=str(chat.id), private=private, title=title)
    name = names.learn(message, topic) if names is not None else None
    if title and name:
        title = f"{title}{TITLE_SEP}{name}"
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


# how Telegram says the bot may not send into a group (400): muted, or its rights to send taken
_MUTED = ("not enough rights to send", "have no rights to send", "chat_write_forbidden", "need administrator rights")


def gone(exc: TelegramError) -> str | None:
    """Why Telegram refused a send to a group or topic, if because it can no longer be written to:
    "closed" (TOPIC_CLOSED) or "deleted" (message thread not found) for a topic; for the whole group
    "removed" (403: "bot was kicked from the … chat", "bot is not a member of the … chat") or "muted"
    (400: "not enough rights to send text messages to the chat", python-telegram-bot#3956); else None."""
    if isinstance(exc, Forbidden):
        said = exc.message.lower()
        return "removed" if "kicked" in said or "not a member" in said else None
    if not isinstance(exc, BadRequest):
        return None
    text = exc.message.lower()
    if any(words in text for words in _MUTED):
        return "muted"
    if "topic_closed" in text:
        return "closed"
    if "message thread not found" in text:
        return "deleted"
    return None
