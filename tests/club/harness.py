"""The club's roles in App tests: a chat admin ("chair") appoints a scorer through /verein, as a club does."""

from __future__ import annotations

import uuid

from bot.club import storage
from core.messages import Actor, Chat, Inbound
from tests.app.harness import GROUP, PLATFORM, Table, texts

CHAIR = Actor(PLATFORM, "chair", "Chair", "en", is_admin=True)  # the chat's admin


async def as_chair(t: Table, *args: str, chat: Chat = GROUP) -> str:
    """/verein ARGS… by the chat's admin; the reply's text."""
    r = await t.send(Inbound(CHAIR, chat, command="verein", args=args, event_id=uuid.uuid4().hex))
    return texts(r)


async def appoint(t: Table, name: str, chat: Chat = GROUP) -> None:
    """`name` becomes one of the club's scorers (having written here first: the role goes to someone who can act)."""
    await t.say(name, "hi", chat)
    uid = t.actor(name).user_id
    reply = await as_chair(t, "scorer", f"<@{uid}>", chat=chat)  # by mention: any table's ids
    held = await storage.holders(t.app.store, chat.platform, chat.chat_id, "scorer")
    assert uid in {h.user_id for h in held}, reply
