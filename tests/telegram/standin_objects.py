"""The Telegram objects the stand-in Bot API (tests/telegram/standin.py) and its tests speak in: the bot's
account, users, chats, and the entities of a message's text."""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any

TOKEN = "123456:TEST-standin-token-AbCdEfGhIjKlMnOp"
BOT_ID = 123456
BOT_USERNAME = "ClubGameBot"


@dataclass(frozen=True)
class User:
    """A Telegram user the test speaks as."""

    id: int
    first_name: str
    username: str | None = None
    language_code: str | None = "en"
    is_bot: bool = False  # another bot account (the Bot API never gives a bot's language_code)

    def to_dict(self) -> dict[str, Any]:
        data: dict[str, Any] = {"id": self.id, "is_bot": self.is_bot, "first_name": self.first_name}
        if self.username:
            data["username"] = self.username
        if self.language_code and not self.is_bot:
            data["language_code"] = self.language_code
        return data


def utf16(text: str) -> int:
    """The Bot API's measure of entity offsets and lengths: UTF-16 code units."""
    return len(text.encode("utf-16-le")) // 2


def text_mention(text: str, shown: str, user: User) -> dict[str, Any]:
    """The entity of a mention by name (a user picked from the client's list, or linked by id):
    `shown` in `text`, carrying the user, as the Bot API sends it."""
    at = text.index(shown)
    return {"type": "text_mention", "offset": utf16(text[:at]), "length": utf16(shown),
            "user": user.to_dict()}


# What the Bot API marks as a `mention` in a text: @ and a username (5–32 of [A-Za-z0-9_]).
MENTION_RE = re.compile(r"(?<![A-Za-z0-9_@])@[A-Za-z0-9_]{5,32}(?![A-Za-z0-9_])")


@dataclass(frozen=True)
class Chat:
    """A chat: a group (negative id) or a user's private chat with the bot."""

    id: int
    type: str = "group"
    title: str | None = "Club"
    is_forum: bool = False  # a supergroup with topics (tests/telegram/forum.py)

    @classmethod
    def private(cls, user: User) -> Chat:
        return cls(id=user.id, type="private", title=None)

    def to_dict(self) -> dict[str, Any]:
        data: dict[str, Any] = {"id": self.id, "type": self.type}
        if self.title and self.type != "private":
            data["title"] = self.title
        if self.is_forum:  # https://core.telegram.org/bots/api#chat "is_forum": only when true
            data["is_forum"] = True
        return data
