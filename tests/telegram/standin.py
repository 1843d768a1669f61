"""A local stand-in for the Telegram Bot API, for driving the real PTB Application.

aiohttp on 127.0.0.1 (random port) serving `/bot{token}/{method}`. It keeps
just enough state to behave like Telegram towards one bot: an update queue
with offset confirmation and long polling, messages per chat (for edits,
deletes and button presses), a webhook if one is set. It records every call,
answers 403 for users who never started the bot (`blocked`) and 429 with
`retry_after` when told to (`fail_next`). Tests speak as users through
`user_message` / `press` and wait for the bot with `wait_for`.

It is as strict as Telegram (tests/telegram/botapi_rules.py): it refuses, with the Bot API's own
error codes and descriptions, what Telegram refuses — texts over 4,096 characters, callback data
over 64 bytes, markup that does not parse, an edit that changes nothing, a callback query answered
twice or too late — and it enforces the flood limits (`Limits`: 20 messages a minute per group,
30 a second overall, 1 a second per private chat) with 429 and `retry_after`. Tests that need
speed shrink the limits' time windows with `Limits.time_scale`. Every method must be one
`telegram.Bot` has, with parameters its signature takes, and every object the stand-in emits must
round-trip through PTB's classes (`drift` collects what does not; the fixture fails on it).
"""

from __future__ import annotations

import asyncio
import gc
import itertools
import json
import math
import re
import sys
import time
from collections import deque
from collections.abc import Callable, Coroutine, Iterable
from dataclasses import dataclass, field
from typing import Any

import aiohttp
from aiohttp import web
from telegram import ChatMember, Message, TelegramObject, Update

from tests.telegram import botapi_rules as rules
from tests.telegram import forum
from tests.telegram import standin_identity as identity
from tests.telegram import standin_membership as membership
from tests.telegram.botapi_rules import Refused

TOKEN = "123456:TEST-standin-token-AbCdEfGhIjKlMnOp"
BOT_ID = 123456
BOT_USERNAME = "ClubGameBot"

# Parameters PTB sends JSON-encoded inside form bodies; everything else is a plain string
# (texts must stay strings: "1234" is a code, not a number).
_JSON_PARAMS = {
    "chat_id", "message_id", "reply_markup", "show_alert", "offset", "limit", "timeout",
    "allowed_updates", "commands", "scope", "reply_parameters", "drop_pending_updates",
    "cache_time", "max_connections", "link_preview_options", "disable_notification",
    "protect_content", "user_id", "reply_to_message_id", "allow_sending_without_reply",
    "entities", "caption_entities", "from_chat_id", "message_ids", "revoke_messages",
    "message_thread_id",  # forum topics (tests/telegram/forum.py)
}
TERMINATED = "Conflict: terminated by other getUpdates request; make sure that only one bot instance is running"
WEBHOOK_ACTIVE = ("Conflict: can't use getUpdates method while webhook is active; "
                  "use deleteWebhook to delete the webhook first")
DELETE_WINDOW = 48 * 3600  # seconds a message can still be deleted (https://core.telegram.org/bots/api#deletemessage)
SENDING = frozenset({"sendMessage", "sendPhoto", "sendDocument", "editMessageText", "editMessageReplyMarkup"})


@dataclass
class Limits:
    """Telegram's flood limits on sending (sends and edits count). `time_scale` shrinks every
    window: 0.001 keeps the counts but makes "a minute" 60 ms, for tests that need speed.
    `callback_lifetime` (real seconds): how long a callback query may still be answered."""

    group_per_minute: int = 20
    overall_per_second: int = 30
    private_per_second: int = 1
    time_scale: float = 1.0
    callback_lifetime: float = 15.0
    enforce: bool = True


class _Window:
    """Sliding window of send times: at most `limit` in `span` seconds."""

    def __init__(self) -> None:
        self.times: deque[float] = deque()

    def wait(self, now: float, limit: int, span: float) -> float:
        """0 if one more send fits now, else the seconds until it would."""
        while self.times and self.times[0] <= now - span:
            self.times.popleft()
        if len(self.times) < limit:
            return 0.0
        return self.times[0] + span - now


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
_MENTION_RE = re.compile(r"(?<![A-Za-z0-9_@])@[A-Za-z0-9_]{5,32}(?![A-Za-z0-9_])")


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


@dataclass(eq=False)
class Call:
    """One request the bot made, as the stand-in understood it."""

    method: str
    params: dict[str, Any]
    status: int = 200
    result: Any = None
    at: float = field(default_factory=time.monotonic)
    files: dict[str, tuple[str, bytes]] = field(default_factory=dict)  # multipart field -> (name, bytes)

    @property
    def ok(self) -> bool:
        return self.status == 200

    @property
    def chat_id(self) -> int | str | None:
        return self.params.get("chat_id")

    @property
    def text(self) -> str:
        return str(self.params.get("text") or self.params.get("caption") or "")

    @property
    def buttons(self) -> list[dict[str, Any]]:
        markup = self.params.get("reply_markup") or {}
        return [b for row in markup.get("inline_keyboard", []) for b in row]

    def everything(self) -> str:
        """All the text a user could see in this call (text and button labels/urls/data)."""
        return json.dumps(self.params, ensure_ascii=False)


def _parse(key: str, value: Any) -> Any:
    if isinstance(value, str) and key in _JSON_PARAMS:
        try:
            return json.loads(value)
        except ValueError:
            return value
    return value


class StandIn:
    """The fake Bot API server. `await start()`, use, `await stop()`."""

    def __init__(self, token: str = TOKEN, keep_calls: bool = True, needle: str = "",
                 limits: Limits | None = None) -> None:
        self.token = token
        self.limits = limits or Limits()
        self.drift: list[str] = []  # emitted objects PTB would not read back faithfully
        self._windows: dict[int | str, _Window] = {}
        self._queries: dict[str, tuple[float, bool]] = {}  # callback query id -> (born, answered)
        self._refusals: list[tuple[frozenset[str], Callable[[dict[str, Any]], bool], int, str]] = []
        self.keep_calls = keep_calls  # a long benchmark only counts them (and those carrying `needle`)
        self.needle = needle
        self.counted = self.matching = 0
        self.bot = {
            "id": BOT_ID, "is_bot": True, "first_name": "Club Bot", "username": BOT_USERNAME,
            "can_join_groups": True, "can_read_all_group_messages": True,  # getMe: `not self.privacy`
            "supports_inline_queries": False,
        }
        self.calls: list[Call] = []
        self.oversized: list[Call] = []  # sends refused for a keyboard too long or a row too wide (botapi_rules)
        self.blocked: set[int] = set()  # users who never started the bot
        self.no_delete: set[int] = set()  # chats where the bot may not delete messages
        # -- tg-ops: the bot's rights and the updates it asked for (see "the bot's rights" below) --
        self.bot_rights: dict[int, bool] = {}  # group -> the bot is an admin there: with can_delete_messages?
        self.allowed_updates: list[str] | None = None  # as the last getUpdates / setWebhook asked (None: not yet)
        self._poll_gen = 0  # getUpdates calls so far: a waiting one sees a newer one came (409)
        self.conflicts: list[str] = []  # the 409 descriptions getUpdates was answered with
        # -- end tg-ops --
        self.failing_methods: dict[str, tuple[int, str]] = {}  # method -> (status, description)
        # method -> seconds each call of it takes before Telegram answers (a large upload over a slow link;
        # the Bot API answers a send only once the file is uploaded, https://core.telegram.org/bots/api#sending-files)
        self.slow: dict[str, float] = {}
        self.messages: dict[tuple[int, int], dict[str, Any]] = {}
        self.chats: dict[int, Chat] = {}
        self.topics: dict[tuple[int, int], forum.Topic] = {}  # (forum, topic id) -> topic (tests/telegram/forum.py)
        self.general_closed: set[int] = set()  # forums whose General is closed (tests/telegram/forum.py)
        self.admins: dict[int, list[User]] = {}  # group -> its administrators, the creator first
        # group -> user -> "member" | "left" | "kicked": writing or pressing in a group makes a member
        # (as only a member can); `join` / `leave` say so for users the test does not speak as there
        self.members: dict[int, dict[int, str]] = {}
        self._users: dict[int, User] = {}  # every user the test has spoken as (getChatMember names them)
        self.webhook_url: str = ""
        self.webhook_secret: str | None = None
        self._updates: list[dict[str, Any]] = []
        self._update_ids = itertools.count(1)
        self._message_ids: dict[int, itertools.count[int]] = {}
        self._callback_ids = itertools.count(1)
        self._fail: list[int] = []  # pending 429s: retry_after of each
        self._fail_methods: frozenset[str] = SENDING
        self._cond: asyncio.Condition | None = None
        self._closing = False
        self._runner: web.AppRunner | None = None
        self._pushes: set[asyncio.Task[Any]] = set()
        self.webhook_deliveries: list[tuple[int, int | str]] = []  # (update_id, HTTP status)
        # -- privacy mode, posts on behalf of chats, supergroup upgrades (tests/telegram/standin_identity.py)
        self.privacy = False  # BotFather's "Group Privacy": on, groups deliver only what addresses the bot
        self.bot_admin: set[int] = set()  # groups where the bot is an administrator (it then gets everything)
        self.last_bot: dict[int, int] = {}  # group -> the bot that sent the group's latest bot message
        self.unheard: list[dict[str, Any]] = []  # group messages privacy mode kept from the bot
        self.upgraded: dict[int, int] = {}  # group -> the supergroup it became (sends to it are refused)
        # -- the bot removed or muted (tests/telegram/standin_membership.py)
        self.removed: dict[int, str] = {}  # group -> "kicked" or "left": every call there refused with 403
        self.muted: set[int] = set()  # groups where the bot may not send messages (400 "not enough rights")
        # --
        self._session: aiohttp.ClientSession | None = None
        self.port = 0

    # -- lifecycle ---------------------------------------------------------------

    @property
    def base_url(self) -> str:
        """What the adapter takes as base_url (PTB appends the token)."""
        return f"http://127.0.0.1:{self.port}/bot"

    async def start(self) -> None:
        self._cond = asyncio.Condition()
        app = web.Application()
        app.router.add_post("/bot{token}/{method}", self._dispatch)
        app.router.add_get("/bot{token}/{method}", self._dispatch)
        app.router.add_post("/_control/message", self._control_message)
        app.router.add_get("/_control/count", self._control_count)
        self._runner = web.AppRunner(
            app, shutdown_timeout=1.0, handler_cancellation=True, access_log=None
        )
        await self._runner.setup()
        site = web.TCPSite(self._runner, "127.0.0.1", 0)
        await site.start()
        server = site._server
        assert isinstance(server, asyncio.Server) and server.sockets
        self.port = int(server.sockets[0].getsockname()[1])

    async def stop(self) -> None:
        self._closing = True
        await self._notify()
        for task in list(self._pushes):
            task.cancel()
        await asyncio.gather(*self._pushes, return_exceptions=True)
        if self._session is not None:
            await self._session.close()
        if self._runner is not None:
            await self._runner.cleanup()

    # -- knobs -------------------------------------------------------------------

    def fail_next(self, n: int, retry_after: int = 1, methods: Iterable[str] = SENDING) -> None:
        """Answer the next n calls of `methods` with 429 Too Many Requests."""
        self._fail = [retry_after] * n
        self._fail_methods = frozenset(methods)

    def refuse_next(
        self, n: int, description: str = "Bad Request: can't parse entities", status: int = 400,
        methods: Iterable[str] = ("sendMessage",),
        when: Callable[[dict[str, Any]], bool] = lambda params: True,
    ) -> None:
        """Refuse the next n calls of `methods` whose parameters satisfy `when`, as Telegram refuses
        a form it does not take (e.g. only those carrying a keyboard)."""
        self._refusals.extend([(frozenset(methods), when, status, description)] * n)

    def break_next(self, n: int, status: int = 502, methods: Iterable[str] = SENDING) -> None:
        """Answer the next n calls of `methods` with a server error (an outage of the Bot API)."""
        self._broken = [status] * n
        self._fail_methods = frozenset(methods)

    # -- speaking as users -------------------------------------------------------

    def _register(self, chat: Chat) -> None:
        self.chats[chat.id] = chat
        self._message_ids.setdefault(chat.id, itertools.count(1))

    def _seen_in(self, chat: Chat, user: User) -> None:
        """Only a member writes or presses in a group (a user who left or was banned cannot)."""
        self._users[user.id] = user
        if chat.type != "private":
            status = self.members.setdefault(chat.id, {}).setdefault(user.id, "member")
            assert status == "member", f"user {user.id} is {status} in chat {chat.id}: they cannot act there"

    def join(self, chat: Chat, user: User) -> None:
        """`user` is a member of the group (joined earlier; they need not have written there)."""
        self._register(chat)
        self._users[user.id] = user
        self.members.setdefault(chat.id, {})[user.id] = "member"

    def leave(self, chat: Chat, user: User, banned: bool = False) -> None:
        """`user` leaves the group (or is banned from it): a `chat_member` update says so, as
        Telegram sends it to a bot that administers the group."""
        old = self.members.setdefault(chat.id, {}).get(user.id, "left")
        new = "kicked" if banned else "left"
        self.members[chat.id][user.id] = new
        self._push({"chat_member": {
            "chat": chat.to_dict(), "from": user.to_dict(), "date": int(time.time()),
            "old_chat_member": self._member_dict(chat, user, old),
            "new_chat_member": self._member_dict(chat, user, new),
        }})

    def _member_dict(self, chat: Chat, user: User, status: str) -> dict[str, Any]:
        """A ChatMember as the Bot API writes it: each status with exactly its own fields."""
        admins = self.admins.get(chat.id, [])
        if status == "member" and user in admins:
            return self._admin_dict(user, creator=admins.index(user) == 0)
        if status == "kicked":
            return {"status": "kicked", "user": user.to_dict(), "until_date": 0}  # 0: banned for ever
        return {"status": status, "user": user.to_dict()}

    @staticmethod
    def _admin_dict(user: User, creator: bool) -> dict[str, Any]:
        if creator:
            return {"status": "creator", "user": user.to_dict(), "is_anonymous": False}
        return {
            "status": "administrator", "user": user.to_dict(), "can_be_edited": False,
            "is_anonymous": False, "can_manage_chat": True, "can_delete_messages": True,
            "can_manage_video_chats": True, "can_restrict_members": True,
            "can_promote_members": False, "can_change_info": True, "can_invite_users": True,
            "can_post_stories": False, "can_edit_stories": False, "can_delete_stories": False,
            "can_pin_messages": True, "can_manage_topics": False,
        }

    def _next_message_id(self, chat_id: int) -> int:
        return next(self._message_ids.setdefault(chat_id, itertools.count(1)))

    def _spawn(self, coro: Coroutine[Any, Any, Any]) -> None:
        """Run in the background, tracked so that stop() can wait for it."""
        task = asyncio.get_running_loop().create_task(coro)
        self._pushes.add(task)
        task.add_done_callback(self._pushes.discard)

    def _push(self, update: dict[str, Any], check: bool = True) -> None:
        """Queue an update for getUpdates, or POST it to the webhook when one is set."""
        kind = next(k for k in update if k != "update_id")
        if not self._wanted(kind):
            return
        update["update_id"] = next(self._update_ids)
        if check:
            self._check_shape(Update, update)
        update = json.loads(json.dumps(update))  # later edits of a message do not rewrite history
        if self.webhook_url:
            self._spawn(self._deliver_webhook(update))
            return
        self._updates.append(update)
        self._spawn(self._notify())

    async def _deliver_webhook(self, update: dict[str, Any]) -> None:
        status: int | str
        try:
            status = await self._post_webhook(update)
        except aiohttp.ClientError as exc:
            status = f"unreachable: {exc}"
        self.webhook_deliveries.append((update["update_id"], status))

    async def _post_webhook(self, update: dict[str, Any], secret: str | None = None) -> int:
        if self._session is None:
            self._session = aiohttp.ClientSession()
        headers = {}
        token = secret if secret is not None else self.webhook_secret
        if token:
            headers["X-Telegram-Bot-Api-Secret-Token"] = token
        async with self._session.post(self.webhook_url, json=update, headers=headers) as resp:
            return resp.status

    def user_message(
        self, chat: Chat, user: User, text: str, reply_to: int | None = None,
        entities: list[dict[str, Any]] | None = None, topic: int | None = None, as_chat: Chat | None = None,
    ) -> dict[str, Any]:
        """`user` writes `text` in `chat`; returns the message (with its message_id).
        As the Bot API does, a leading /command gets its bot_command entity and every @username a
        mention entity (which names no user); `entities` adds more (e.g. `text_mention`); all are
        sorted by offset. A message of another bot account is kept (it can be replied to) but not
        delivered: Telegram never shows a bot the messages of other bots. `as_chat`: `user` posts on
        behalf of that chat (the group itself: as an anonymous admin; a channel: "send as channel"), and
        the bot sees the chat, not the user (`standin_identity.posted_as`). With `privacy` on, a group
        delivers only what privacy mode lets through (`standin_identity.delivered`)."""
        assert chat.id not in self.upgraded, f"group {chat.id} is a supergroup now: {self.upgraded.get(chat.id)}"
        self._register(chat)
        self._seen_in(chat, user)
        if chat.type == "private":
            self.blocked.discard(user.id)  # writing to the bot lets it answer
        message: dict[str, Any] = {
            "message_id": self._next_message_id(chat.id), "date": int(time.time()),
            "chat": chat.to_dict(), "from": user.to_dict(), "text": text,
        }
        if as_chat is not None:
            message.update(identity.posted_as(self, chat, user, as_chat))
        found: list[dict[str, Any]] = []
        if text.startswith("/"):
            found.append({"type": "bot_command", "offset": 0, "length": utf16(text.split()[0])})
        for match in _MENTION_RE.finditer(text):
            if not (text.startswith("/") and match.start() < len(text.split()[0])):  # not /cmd@Bot
                found.append({"type": "mention", "offset": utf16(text[:match.start()]),
                              "length": utf16(match.group())})
        found += entities or []
        if found:
            message["entities"] = sorted(found, key=lambda e: (e["offset"], -e["length"]))
        if reply_to is not None and (chat.id, reply_to) in self.messages:
            replied = dict(self.messages[(chat.id, reply_to)])
            replied.pop("reply_to_message", None)  # the Bot API nests one level only
            message["reply_to_message"] = replied
        forum.into_topic(self, chat, topic, message)  # `topic`: written in that forum topic
        self.messages[(chat.id, message["message_id"])] = message
        if not user.is_bot and membership.hears(self, chat) and identity.delivered(self, chat, message):
            self._push({"message": message})
        return message

    def press(self, chat: Chat, user: User, message_id: int, data: str) -> str:
        """`user` presses the button with callback `data` under message `message_id`."""
        self._seen_in(chat, user)
        message = self.messages.get((chat.id, message_id)) or {
            "message_id": message_id, "date": int(time.time()), "chat": chat.to_dict(),
        }
        query_id = f"cq{next(self._callback_ids)}"
        self._queries[query_id] = (time.monotonic(), False)
        self._push({"callback_query": {
            "id": query_id, "from": user.to_dict(), "message": message,
            "chat_instance": f"ci{chat.id}", "data": data,
        }})
        return query_id

    def demote(self, chat: Chat, by: User, user: User) -> None:
        """`by` takes `user`'s administrator rights in `chat`: the list changes and a `chat_member`
        update says so (Telegram sends it to a bot that administers the group)."""
        self.admins[chat.id] = [u for u in self.admins.get(chat.id, []) if u != user]
        member = {"user": user.to_dict()}
        self._push({"chat_member": {
            "chat": chat.to_dict(), "from": by.to_dict(), "date": int(time.time()),
            "old_chat_member": {**member, "status": "administrator", "can_be_edited": True,
                                "is_anonymous": False, "can_manage_chat": True,
                                "can_delete_messages": True, "can_manage_video_chats": True,
                                "can_restrict_members": True, "can_promote_members": False,
                                "can_change_info": True, "can_invite_users": True,
                                "can_post_stories": False, "can_edit_stories": False,
                                "can_delete_stories": False},
            "new_chat_member": {**member, "status": "member"},
        }})

    def migrate(self, chat: Chat, user: User, new_chat_id: int, announce: bool = True) -> Chat:
        """The group becomes a supergroup: the service messages in the old chat and in the new one
        (`announce` False: the bot missed both, e.g. it was down for longer than Telegram keeps
        updates); from now on the old id is refused (`standin_identity.upgraded_refusal`)."""
        self._register(chat)
        new = Chat(id=new_chat_id, type="supergroup", title=chat.title)
        self._register(new)
        identity.carry_over(self, chat, new)
        if announce:
            self._push({"message": {
                "message_id": self._next_message_id(chat.id), "date": int(time.time()),
                "chat": chat.to_dict(), "from": user.to_dict(), "migrate_to_chat_id": new_chat_id,
            }})
            self._push({"message": {
                "message_id": self._next_message_id(new.id), "date": int(time.time()),
                "chat": new.to_dict(), "from": user.to_dict(), "migrate_from_chat_id": chat.id,
            }})
        return new

    # -- tg-ops: the bot's rights, edits, and the updates the bot asked for ---------------------------
    # https://core.telegram.org/bots/api#deletemessage — "A message can only be deleted if it was sent
    # less than 48 hours ago"; "Bots can delete outgoing messages in private chats, groups, and
    # supergroups"; "Bots can delete incoming messages in private chats"; "If the bot is an
    # administrator of a group, it can delete any message there"; "If the bot has can_delete_messages
    # permission in a supergroup or a channel, it can delete any message there". Anything else is
    # refused with 400 "Bad Request: message can't be deleted" (the same text for a message too old).
    # A bot added to a group is a plain member until an admin promotes it: by default it deletes only
    # its own messages there.

    def promote_bot(self, chat: Chat, can_delete_messages: bool = True) -> None:
        """An admin makes the bot an administrator of `chat` (with or without "Delete messages"); a
        `my_chat_member` update tells the bot, as Telegram does."""
        self._register(chat)
        old = self._bot_member(chat.id)
        self.bot_rights[chat.id] = can_delete_messages
        self.bot_admin.add(chat.id)  # one bot admin status for both models (standin_identity: it gets everything)
        self._push({"my_chat_member": {
            "chat": chat.to_dict(), "from": {"id": 1, "is_bot": False, "first_name": "Admin"},
            "date": int(time.time()), "old_chat_member": old, "new_chat_member": self._bot_member(chat.id),
        }})

    def _bot_member(self, chat_id: int) -> dict[str, Any]:
        user = {k: self.bot[k] for k in ("id", "is_bot", "first_name", "username")}
        if chat_id not in self.bot_rights and chat_id in self.bot_admin:  # promoted by standin_identity
            return identity._bot_admin(self)
        if chat_id not in self.bot_rights:
            return {"status": "member", "user": user}
        rights = self._admin_dict(User(BOT_ID, "Club Bot"), creator=False)
        return {**rights, "user": user, "can_delete_messages": self.bot_rights[chat_id]}

    def age(self, chat: Chat, message_id: int, seconds: float) -> None:
        """The message was sent `seconds` earlier than it was (for the 48-hour window)."""
        self.messages[(chat.id, message_id)]["date"] -= int(seconds)

    def _may_delete(self, chat_id: int, message: dict[str, Any]) -> bool:
        if time.time() - message["date"] >= DELETE_WINDOW:
            return False
        chat = self.chats.get(chat_id)
        if chat is None or chat.type == "private" or message.get("from", {}).get("id") == BOT_ID:
            return True
        if chat_id not in self.bot_rights and chat_id not in self.bot_admin:
            return False
        # a supergroup needs can_delete_messages (standin_identity's admin bot has it)
        return chat.type == "group" or self.bot_rights.get(chat_id, True)

    def user_edit(self, chat: Chat, user: User, message_id: int, text: str) -> dict[str, Any]:
        """`user` edits their message `message_id` to `text`: an `edited_message` update with the
        message's own id and date and an `edit_date` (https://core.telegram.org/bots/api#update), sent
        only to a bot that asked for edits in `allowed_updates`."""
        message = self.messages[(chat.id, message_id)]
        assert message["from"]["id"] == user.id, "only its author edits a message"
        message["text"] = text
        message.pop("entities", None)
        if text.startswith("/"):
            message["entities"] = [{"type": "bot_command", "offset": 0, "length": utf16(text.split()[0])}]
        message["edit_date"] = max(int(time.time()), message["date"] + 1)
        self._push({"edited_message": message})
        return message

    def _wanted(self, kind: str) -> bool:
        """https://core.telegram.org/bots/api#getupdates `allowed_updates`: only the kinds listed; none
        listed: all but chat_member, message_reaction and message_reaction_count."""
        if self.allowed_updates is None:  # the bot has not asked yet: what a test pushes first is kept
            return True
        if not self.allowed_updates:
            return kind not in ("chat_member", "message_reaction", "message_reaction_count")
        return kind in self.allowed_updates

    def _note_allowed(self, params: dict[str, Any]) -> None:
        """"If not specified, the previous setting will be used" (getUpdates, setWebhook)."""
        if isinstance(params.get("allowed_updates"), list):
            self.allowed_updates = list(params["allowed_updates"])

    # -- end tg-ops ------------------------------------------------------------------------------------

    def push_raw(self, update: dict[str, Any]) -> int:
        """Queue an update exactly as given (e.g. one PTB cannot parse); its update id."""
        self._push(update, check=False)
        return int(update["update_id"])

    def drop_updates(self, update_ids: Iterable[int]) -> None:
        """Take queued updates back (a malformed one would otherwise be fetched again forever)."""
        gone = set(update_ids)
        self._updates = [u for u in self._updates if u["update_id"] not in gone]

    async def push_webhook_raw(self, update: dict[str, Any], secret: str | None) -> int:
        """POST an update to the bot's webhook with a chosen secret header; the HTTP status."""
        update.setdefault("update_id", next(self._update_ids))
        return await self._post_webhook(update, secret=secret if secret is not None else "")

    # -- inspecting what the bot did ---------------------------------------------

    async def _notify(self) -> None:
        if self._cond is None:
            return
        async with self._cond:
            self._cond.notify_all()

    async def wait_for(
        self, predicate: Callable[[Call], bool], timeout: float = 5.0, count: int = 1,
        after: int = 0,
    ) -> list[Call]:
        """Wait until `count` calls recorded from index `after` on match; returns them."""
        assert self._cond is not None

        def matching() -> list[Call]:
            return [c for c in self.calls[after:] if predicate(c)]

        try:
            async with self._cond:
                await asyncio.wait_for(
                    self._cond.wait_for(lambda: len(matching()) >= count), timeout
                )
        except TimeoutError:
            recent = [(c.method, c.chat_id, c.status, c.text[:60]) for c in self.calls[-15:]]
            raise AssertionError(f"bot did not do what was expected in {timeout}s; "
                                 f"last calls: {recent}") from None
        return matching()

    async def wait_sent(
        self, chat_id: int, contains: str = "", timeout: float = 5.0, after: int = 0
    ) -> Call:
        """Wait for a successful send/edit to `chat_id` whose text contains `contains`,
        among the calls recorded from index `after` on."""
        def pred(c: Call) -> bool:
            return c.ok and c.method in SENDING and c.chat_id == chat_id and contains in c.text
        return (await self.wait_for(pred, timeout, after=after))[0]

    def sent(self, chat_id: int | None = None, after: int = 0) -> list[Call]:
        """Successful sends/edits (optionally to one chat), from call index `after` on."""
        return [c for c in self.calls[after:]
                if c.ok and c.method in SENDING and (chat_id is None or c.chat_id == chat_id)]

    def of(self, method: str) -> list[Call]:
        return [c for c in self.calls if c.method == method]

    def mark(self) -> int:
        """An index into `calls`: pass as `after=` to look only at what comes next."""
        return len(self.calls)

    # -- control, for a driver in another process (bench/load.py --telegram) -------

    async def _control_message(self, request: web.Request) -> web.Response:
        """POST {"chat": {...}, "user": {...}, "text": ...}: `user_message`; answers its update id."""
        body = await request.json()
        chat, user = Chat(**body["chat"]), User(**body["user"])
        self.user_message(chat, user, body["text"])
        return web.json_response({"update_id": self._updates[-1]["update_id"]})

    async def _control_count(self, request: web.Request) -> web.Response:
        """GET: how many calls the bot made, and how many carried the `needle` of `serve`."""
        return web.json_response({"calls": self.counted, "matching": self.matching})

    # -- the Bot API ---------------------------------------------------------------

    async def _params(self, request: web.Request,
                      files: dict[str, tuple[str, bytes]] | None = None) -> dict[str, Any]:
        params: dict[str, Any] = dict(request.query)
        if request.content_type == "application/json":
            if request.can_read_body:
                params.update(await request.json())
            return params
        form = await request.post()
        for key, value in form.items():
            if isinstance(value, web.FileField):
                data = value.file.read()
                params[key] = {"file": value.filename, "size": len(data)}
                if files is not None:
                    files[key] = (value.filename, data)
            else:
                params[key] = _parse(key, value)
        return {k: _parse(k, v) for k, v in params.items()}

    async def _dispatch(self, request: web.Request) -> web.Response:
        if request.match_info["token"] != self.token:
            return _error(401, "Unauthorized")
        method = request.match_info["method"]
        files: dict[str, tuple[str, bytes]] = {}
        params = await self._params(request, files)
        call = Call(method, params, files=files)
        if self._fail and method in self._fail_methods:
            retry_after = self._fail.pop(0)
            call.status = 429
            await self._record(call)
            return _error(429, f"Too Many Requests: retry after {retry_after}",
                          parameters={"retry_after": retry_after})
        if getattr(self, "_broken", None) and method in self._fail_methods:
            call.status = self._broken.pop(0)
            await self._record(call)
            return _error(call.status, "Bad Gateway")
        if method in self.failing_methods:
            call.status, description = self.failing_methods[method]
            await self._record(call)
            return _error(call.status, description)
        barred = membership.refusal(self, method, params)
        if barred is not None:
            call.status = barred[0]
            await self._record(call)
            return _error(barred[0], barred[1])
        refusal = identity.upgraded_refusal(self, params)
        if refusal is not None:
            call.status = 400
            await self._record(call)
            return _error(400, refusal[0], parameters=refusal[1])
        for index, (methods, when, status, description) in enumerate(self._refusals):
            if method in methods and when(params):
                del self._refusals[index]
                call.status = status
                await self._record(call)
                return _error(status, description)
        handler = getattr(self, f"_api_{method}", None)
        try:
            rules.check_method(method, params)
            if handler is None:
                raise Refused(404, "Not Found")
        except Refused as exc:
            call.status = exc.status
            await self._record(call)
            return _error(exc.status, exc.description)
        if method in SENDING:
            retry_after = self._flood_wait(params.get("chat_id"))
            if retry_after:
                call.status = 429
                await self._record(call)
                return _error(429, f"Too Many Requests: retry after {retry_after}",
                              parameters={"retry_after": retry_after})
        if method != "getUpdates":
            await self._record(call)
        if self.slow.get(method):
            await asyncio.sleep(self.slow[method])
        try:
            result = await handler(params)
        except (Refused, _ApiError) as exc:
            call.status = exc.status
            if exc.description in (rules.TOO_LONG, rules.TOO_WIDE):
                self.oversized.append(call)
            await self._notify()
            return _error(exc.status, exc.description)
        if isinstance(result, dict) and "message_id" in result:
            self._check_shape(Message, result)
            result = json.loads(json.dumps(result))  # the bot gets a copy, like over the wire
        call.result = result
        if method == "getUpdates":
            await self._record(call)
        else:
            await self._notify()
        return web.json_response({"ok": True, "result": result})

    def _flood_wait(self, chat_id: Any) -> int:
        """Count a send against the flood limits; the whole seconds to wait if it breaks one."""
        limits = self.limits
        if not limits.enforce or not isinstance(chat_id, int):
            return 0
        now = time.monotonic()
        scale = limits.time_scale
        overall = self._windows.setdefault("*", _Window())
        chat = self._windows.setdefault(chat_id, _Window())
        if chat_id < 0:
            chat_wait = chat.wait(now, limits.group_per_minute, 60.0 * scale)
        else:
            chat_wait = chat.wait(now, limits.private_per_second, 1.0 * scale)
        wait = max(chat_wait, overall.wait(now, limits.overall_per_second, 1.0 * scale))
        if wait > 0:
            return max(1, math.ceil(wait))  # Telegram answers whole seconds
        chat.times.append(now)
        overall.times.append(now)
        return 0

    def _check_shape(self, cls: type[TelegramObject], data: dict[str, Any]) -> None:
        problems = rules.drift(cls, data)
        if problems:
            self.drift.extend(problems)
            raise AssertionError(f"the stand-in emitted what PTB would not read back: {problems}")

    def markup_of(self, chat_id: int, message_id: int) -> list[list[dict[str, Any]]]:
        """The inline keyboard the message shows now (after every edit); [] if none."""
        message = self.messages.get((chat_id, message_id)) or {}
        return list((message.get("reply_markup") or {}).get("inline_keyboard", []))

    async def _record(self, call: Call) -> None:
        self.counted += 1
        if self.needle and self.needle in call.text:
            self.matching += 1
        if self.keep_calls:
            self.calls.append(call)
        await self._notify()

    async def _api_getMe(self, params: dict[str, Any]) -> Any:
        return {**self.bot, "can_read_all_group_messages": not self.privacy}

    async def _api_getUpdates(self, params: dict[str, Any]) -> Any:
        # -- tg-ops: the two 409 conflicts (https://core.telegram.org/bots/api#getupdates: "This method will
        # not work if an outgoing webhook is set up"; a newer getUpdates ends the one still waiting)
        if self.webhook_url:
            self.conflicts.append(WEBHOOK_ACTIVE)
            raise _ApiError(409, WEBHOOK_ACTIVE)
        self._note_allowed(params)
        self._poll_gen += 1
        mine = self._poll_gen
        await self._notify()  # a getUpdates still waiting is terminated by this one
        # -- end tg-ops
        offset = int(params.get("offset") or 0)
        timeout = float(params.get("timeout") or 0)
        limit = int(params.get("limit") or 100)
        if offset > 0:  # confirms every update before it
            self._updates = [u for u in self._updates if u["update_id"] >= offset]
        assert self._cond is not None

        def ready() -> bool:
            return self._closing or self._poll_gen != mine or any(u["update_id"] >= offset for u in self._updates)

        if not ready() and timeout > 0:
            try:
                async with self._cond:
                    await asyncio.wait_for(self._cond.wait_for(ready), timeout)
            except TimeoutError:
                pass
        if self._poll_gen != mine and not self._closing:  # tg-ops: another getUpdates came meanwhile
            self.conflicts.append(TERMINATED)
            raise _ApiError(409, TERMINATED)
        return [u for u in self._updates if u["update_id"] >= offset][:limit]

    def _chat_dict(self, chat_id: int) -> dict[str, Any]:
        chat = self.chats.get(chat_id)
        if chat is None:
            chat = Chat(id=chat_id, type="private" if chat_id > 0 else "group")
        return chat.to_dict()

    def _new_bot_message(self, params: dict[str, Any], **content: Any) -> dict[str, Any]:
        chat_id = params["chat_id"]
        if not isinstance(chat_id, int):
            raise _ApiError(400, "Bad Request: chat not found")
        if chat_id in self.blocked:
            raise _ApiError(403, "Forbidden: bot can't initiate conversation with a user")
        try:
            topic = forum.thread_fields(self, chat_id, params)  # into a forum topic, if it may
        except forum.ApiRefusal as exc:
            raise _ApiError(exc.status, exc.description) from None
        message = {
            "message_id": self._next_message_id(chat_id), "date": int(time.time()),
            "chat": self._chat_dict(chat_id), "from": {
                k: self.bot[k] for k in ("id", "is_bot", "first_name", "username")},
            **content, **topic,
        }
        if _keyboard(params.get("reply_markup")):
            message["reply_markup"] = params["reply_markup"]
        self.messages[(chat_id, message["message_id"])] = message
        self.last_bot[chat_id] = BOT_ID
        return message

    async def _api_sendMessage(self, params: dict[str, Any]) -> Any:
        rules.check_text(params.get("text"), params.get("parse_mode"))
        rules.check_entities(params.get("text"), params.get("entities"), params.get("parse_mode"))
        rules.check_markup(params.get("reply_markup"))
        extra = {"entities": params["entities"]} if params.get("entities") else {}
        return self._new_bot_message(params, text=params["text"], **extra)

    async def _api_sendPhoto(self, params: dict[str, Any]) -> Any:
        rules.check_text(params.get("caption"), params.get("parse_mode"), caption=True)
        rules.check_markup(params.get("reply_markup"))
        photo = [{"file_id": "photo1", "file_unique_id": "u1", "width": 1, "height": 1}]
        extra = {"caption": params["caption"]} if params.get("caption") else {}
        return self._new_bot_message(params, photo=photo, **extra)

    async def _api_sendDocument(self, params: dict[str, Any]) -> Any:
        rules.check_text(params.get("caption"), params.get("parse_mode"), caption=True)
        rules.check_markup(params.get("reply_markup"))
        sent = params.get("document") or {}
        document = {"file_id": "doc1", "file_unique_id": "d1", "file_name": sent.get("file", ""),
                    "file_size": sent.get("size", 0)}
        extra = {"caption": params["caption"]} if params.get("caption") else {}
        return self._new_bot_message(params, document=document, **extra)

    def _existing(self, params: dict[str, Any]) -> dict[str, Any]:
        chat_id, message_id = params.get("chat_id"), params.get("message_id")
        message = None if chat_id is None or message_id is None else self.messages.get((chat_id, message_id))
        if message is None:
            raise _ApiError(400, "Bad Request: message to edit not found")
        return message

    async def _api_editMessageText(self, params: dict[str, Any]) -> Any:
        rules.check_text(params.get("text"), params.get("parse_mode"))
        rules.check_markup(params.get("reply_markup"))
        message = self._existing(params)
        markup = _keyboard(params.get("reply_markup"))
        if message.get("text") == params.get("text") and _keyboard(message.get("reply_markup")) == markup:
            raise Refused(400, rules.NOT_MODIFIED)
        message["text"] = params["text"]
        return self._edited(message, markup)

    async def _api_editMessageReplyMarkup(self, params: dict[str, Any]) -> Any:
        rules.check_markup(params.get("reply_markup"))
        message = self._existing(params)
        markup = _keyboard(params.get("reply_markup"))
        if _keyboard(message.get("reply_markup")) == markup:
            raise Refused(400, rules.NOT_MODIFIED)
        return self._edited(message, markup)

    def _edited(self, message: dict[str, Any], markup: dict[str, Any] | None) -> dict[str, Any]:
        message.pop("reply_markup", None)
        if markup:
            message["reply_markup"] = markup
        message["edit_date"] = int(time.time())
        return message

    async def _api_answerCallbackQuery(self, params: dict[str, Any]) -> Any:
        """Once per query, while the user's client still waits for it; an alert of 200 at most."""
        text = params.get("text")
        if text is not None and rules.length(str(text)) > rules.MAX_CALLBACK_ANSWER:
            raise rules.bad("MESSAGE_TOO_LONG")
        query_id = str(params.get("callback_query_id") or "")
        born, answered = self._queries.get(query_id, (0.0, True))
        if answered or time.monotonic() - born > self.limits.callback_lifetime:
            raise Refused(400, rules.TOO_OLD)
        self._queries[query_id] = (born, True)
        return True

    async def _api_deleteMessage(self, params: dict[str, Any]) -> Any:
        """As the Bot API's limits say (the block "the bot's rights" above)."""
        key = (params.get("chat_id"), params.get("message_id"))
        if key[0] in self.no_delete:
            raise _ApiError(400, "Bad Request: message can't be deleted")
        message = self.messages.get(key)  # type: ignore[arg-type]
        if message is None:
            raise _ApiError(400, "Bad Request: message to delete not found")
        if not self._may_delete(key[0], message):  # type: ignore[arg-type]
            raise _ApiError(400, "Bad Request: message can't be deleted")
        del self.messages[key]  # type: ignore[arg-type]
        return True

    async def _api_getChatAdministrators(self, params: dict[str, Any]) -> Any:
        """As the Bot API answers: the creator and the administrators of a group, this bot among them
        where it is one (`bot_admin`); a private chat has none."""
        chat_id = params.get("chat_id")
        chat = self.chats.get(chat_id) if isinstance(chat_id, int) else None
        if chat is None:
            raise _ApiError(400, "Bad Request: chat not found")
        if chat.type == "private":
            raise _ApiError(400, "Bad Request: there are no administrators in the private chat")
        admins = [self._admin_dict(user, index == 0) for index, user in enumerate(self.admins.get(chat.id, []))]
        return admins + identity.bot_admins(self, chat)

    async def _api_getChatMember(self, params: dict[str, Any]) -> Any:
        """As the Bot API answers: both parameters required; an unknown chat is "chat not found"; a
        user id that is no user is refused; in a group the user's status with exactly its fields —
        `left` for a user who is not (or no longer) in it, `kicked` (with `until_date`) for a banned
        one; in a private chat the user of that chat is a member."""
        chat_id, user_id = params.get("chat_id"), params.get("user_id")
        if chat_id is None:
            raise _ApiError(400, "Bad Request: chat_id is empty")
        if user_id is None:
            raise _ApiError(400, "Bad Request: user_id not specified")
        if not isinstance(user_id, int) or isinstance(user_id, bool) or user_id <= 0:
            raise _ApiError(400, "Bad Request: invalid user_id specified")
        chat = self.chats.get(chat_id) if isinstance(chat_id, int) else None
        if chat is None:
            raise _ApiError(400, "Bad Request: chat not found")
        user = self._users.get(user_id) or User(user_id, "User")
        if chat.type == "private":
            if chat.id != user_id:
                raise _ApiError(400, "Bad Request: member not found")
            member = {"status": "member", "user": user.to_dict()}
        elif user_id == BOT_ID:  # tg-ops: the bot itself, with its rights there
            member = self._bot_member(chat.id)
        else:
            member = self._member_dict(chat, user, self.members.get(chat.id, {}).get(user_id, "left"))
        self._check_shape(ChatMember, member)
        return member

    async def _api_setMyCommands(self, params: dict[str, Any]) -> Any:
        """As Telegram checks it: at most 100 commands, each named [a-z0-9_]{1,32} with a description of
        1–256 characters; a language code of two letters (or none)."""
        commands = params.get("commands")
        if isinstance(commands, str):
            commands = json.loads(commands)
        if not isinstance(commands, list) or len(commands) > 100:
            raise _ApiError(400, "Bad Request: too many commands")
        for cmd in commands:
            name, text = cmd.get("command", ""), cmd.get("description", "")
            if not re.fullmatch(r"[a-z0-9_]{1,32}", str(name)):
                raise _ApiError(400, "Bad Request: BOT_COMMAND_INVALID")
            if not 1 <= len(str(text)) <= 256:
                raise _ApiError(400, "Bad Request: BOT_COMMAND_DESCRIPTION_INVALID")
        lang = params.get("language_code") or ""
        if lang and not re.fullmatch(r"[a-z]{2}", str(lang)):
            raise _ApiError(400, "Bad Request: invalid language code")
        return True

    async def _api_deleteWebhook(self, params: dict[str, Any]) -> Any:
        self.webhook_url, self.webhook_secret = "", None
        return True

    async def _api_setWebhook(self, params: dict[str, Any]) -> Any:
        # tg-ops: https://core.telegram.org/bots/api#setwebhook secret_token "1-256 characters. Only characters
        # A-Z, a-z, 0-9, _ and - are allowed"; the refusal's text for other characters is Telegram's
        # (answered to many a bot), the one for a token too long is not documented anywhere: ours
        secret = params.get("secret_token")
        if secret is not None and len(str(secret)) > 256:
            raise _ApiError(400, "Bad Request: secret token is too long")
        if secret is not None and not re.fullmatch(r"[A-Za-z0-9_-]+", str(secret)):
            raise _ApiError(400, "Bad Request: secret token contains unallowed characters")
        self._note_allowed(params)
        self.webhook_url = str(params.get("url") or "")
        self.webhook_secret = params.get("secret_token")
        return True

    async def _api_getWebhookInfo(self, params: dict[str, Any]) -> Any:
        return {"url": self.webhook_url, "has_custom_certificate": False,
                "pending_update_count": len(self._updates)}

    async def _api_close(self, params: dict[str, Any]) -> Any:
        return True

    async def _api_logOut(self, params: dict[str, Any]) -> Any:
        return True


class _ApiError(Exception):
    def __init__(self, status: int, description: str) -> None:
        super().__init__(description)
        self.status = status
        self.description = description


def _keyboard(markup: Any) -> dict[str, Any] | None:
    """An inline keyboard with at least one button, else None (Telegram shows no empty keyboard)."""
    if isinstance(markup, dict) and any(markup.get("inline_keyboard") or []):
        return markup
    return None


def _error(status: int, description: str, **extra: Any) -> web.Response:
    body = {"ok": False, "error_code": status, "description": description, **extra}
    return web.json_response(body, status=status)


async def serve(needle: str, time_scale: float | None = None) -> None:
    """Run until stdin closes, printing "port N" once listening (bench/load.py --telegram runs the
    stand-in in its own process, so the bot's process holds the bot alone). Calls are counted, not
    kept, and the collector is off: this fake's own pauses must not count as the bot's latency.
    Flood limits are enforced only when a `time_scale` is given (1 = Telegram's real windows)."""
    gc.disable()
    limits = Limits(enforce=False) if time_scale is None else Limits(time_scale=time_scale)
    server = StandIn(keep_calls=False, needle=needle, limits=limits)
    await server.start()
    print(f"port {server.port}", flush=True)
    loop = asyncio.get_running_loop()
    try:
        await loop.run_in_executor(None, sys.stdin.read)
    finally:
        await server.stop()


if __name__ == "__main__":
    # python -m tests.telegram.standin [NEEDLE [TIME_SCALE]]
    asyncio.run(serve(sys.argv[1] if len(sys.argv) > 1 else "",
                      float(sys.argv[2]) if len(sys.argv) > 2 else None))
