"""The TV page's links: one unguessable token per chat (table `tv_links`), made on the first /tv, replaced
by /tv new (the old token then names no chat: its page is a 404 at once)."""

from __future__ import annotations

import secrets
from typing import NamedTuple

from bot.storage.base import Store
from bot.storage.sql import Query, Tx

TOKEN_BYTES = 24  # 192 random bits, 32 URL-safe characters: unguessable, short enough for a TV's address bar

TOKEN_OF = Query("SELECT token FROM tv_links WHERE platform = :platform AND chat_id = :chat_id")
CHAT_OF = Query("SELECT platform, chat_id FROM tv_links WHERE token = :token")
INSERT = Query("INSERT INTO tv_links (platform, chat_id, token, created) VALUES (:platform, :chat_id, :token, :now)"
               " ON CONFLICT (platform, chat_id) DO NOTHING")
REPLACE = Query("INSERT INTO tv_links (platform, chat_id, token, created) VALUES (:platform, :chat_id, :token, :now)"
                " ON CONFLICT (platform, chat_id) DO UPDATE SET token = excluded.token, created = excluded.created")


class Link:
    """A TV page's address as a message parameter: shown exactly as it is, never as user text (a platform that
    formats text would escape its `_` and break the link: Discord's markdown). It is made here, from the
    configured address and a token of [A-Za-z0-9_-] only, so there is nothing in it to escape."""

    __slots__ = ("url",)

    def __init__(self, url: str) -> None:
        self.url = url

    def __format__(self, spec: str) -> str:
        return self.url

    def __str__(self) -> str:
        return self.url


class ChatRef(NamedTuple):
    """The chat a token names."""

    platform: str
    chat_id: str


def new_token() -> str:
    return secrets.token_urlsafe(TOKEN_BYTES)


async def token_for(store: Store, platform: str, chat_id: str, now: float, rotate: bool = False) -> str:
    """The chat's token, made on first use; `rotate`: a new one in place of the old (which stops at once).
    Two /tv at once on two processes agree on one token (the insert keeps the first, both read it back)."""
    token = new_token()

    async def job(tx: Tx) -> str:
        await tx.execute(REPLACE if rotate else INSERT, platform=platform, chat_id=chat_id, token=token, now=now)
        stored: str = await tx.fetchval(TOKEN_OF, platform=platform, chat_id=chat_id)
        return stored

    stored: str = await store.run(job)
    return stored


async def chat_of(store: Store, token: str) -> ChatRef | None:
    """The chat whose current token this is, or None (a wrong, old or malformed one)."""
    if not token or len(token) > 64:
        return None
    rows = await store.fetch(CHAT_OF, token=token)
    return ChatRef(str(rows[0][0]), str(rows[0][1])) if rows else None


async def current_token(store: Store, platform: str, chat_id: str) -> str | None:
    rows = await store.fetch(TOKEN_OF, platform=platform, chat_id=chat_id)
    return str(rows[0][0]) if rows else None
