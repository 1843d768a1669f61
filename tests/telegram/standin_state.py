"""What the stand-in Bot API keeps (chats, users, messages, queued updates, the calls the bot made) and
how a test waits on those calls: the base of the `StandIn` (tests/telegram/standin.py), whose parts
(standin_updates.py, standin_users.py, standin_messages.py) build on it."""

from __future__ import annotations

import asyncio
import itertools
from collections.abc import Callable, Coroutine
from typing import Any

import aiohttp
from aiohttp import web
from telegram import TelegramObject

from tests.telegram import botapi_rules as rules
from tests.telegram import forum
from tests.telegram.standin_calls import SENDING, Call, Limits, Window
from tests.telegram.standin_objects import BOT_ID, BOT_USERNAME, TOKEN, Chat, User


class State:
    """The stand-in's state and the primitives every part of it uses."""

    def __init__(self, token: str = TOKEN, keep_calls: bool = True, needle: str = "",
                 limits: Limits | None = None) -> None:
        self.token = token
        self.limits = limits or Limits()
        self.drift: list[str] = []  # emitted objects PTB would not read back faithfully
        self._windows: dict[int | str, Window] = {}
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
        # -- tg-ops: the bot's rights and the updates it asked for (standin_messages.py, standin_updates.py) --
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

    def _register(self, chat: Chat) -> None:
        self.chats[chat.id] = chat
        self._message_ids.setdefault(chat.id, itertools.count(1))

    def _next_message_id(self, chat_id: int) -> int:
        return next(self._message_ids.setdefault(chat_id, itertools.count(1)))

    def _spawn(self, coro: Coroutine[Any, Any, Any]) -> None:
        """Run in the background, tracked so that stop() can wait for it."""
        task = asyncio.get_running_loop().create_task(coro)
        self._pushes.add(task)
        task.add_done_callback(self._pushes.discard)

    def _check_shape(self, cls: type[TelegramObject], data: dict[str, Any]) -> None:
        problems = rules.drift(cls, data)
        if problems:
            self.drift.extend(problems)
            raise AssertionError(f"the stand-in emitted what PTB would not read back: {problems}")

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
