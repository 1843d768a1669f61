"""The stand-in Discord's core: its users and messages, the calls it records and how it refuses.

The base of the stand-in's layers (guild, gateway, interactions, traffic, REST): what every layer
reads — users, DM channels, stored messages, the recorded calls tests wait for — and Discord's
answers to a refused call (an error code, or 400 50035 with the error tree).
"""

from __future__ import annotations

import asyncio
import contextlib
import itertools
import re
import time
from collections.abc import Callable
from typing import Any

from aiohttp import web

from . import limits
from .model import APP_ID, GUILD_ID, Call, User, json_response


class State:
    """The stand-in's users, messages and recorded calls; the layers above add their own state."""

    def __init__(self) -> None:
        self._ids = itertools.count(930_000_000_000_000_001)
        self.bot = User(APP_ID, "GameBot", bot=True)
        self.users: dict[int, User] = {}
        self.guild_locale = "en-US"
        self.calls: list[Call] = []
        self.messages: dict[int, dict[str, Any]] = {}  # message id -> payload
        self.dm_channels: dict[int, int] = {}  # user id -> DM channel id
        self.dm_owner: dict[int, int] = {}  # DM channel id -> user id
        self._runner: web.AppRunner | None = None
        self._changed = asyncio.Event()
        self._closing = asyncio.Event()
        self.invalid: list[Call] = []  # calls refused as Discord refuses them (400 50035 / 50006)
        self.last_errors: dict[str, Any] = {}  # the error tree of the last 50035
        self.expect_invalid = False  # a test that provokes refusals sets it (else teardown fails)
        self.port = 0

    @property
    def api_base(self) -> str:
        return f"http://127.0.0.1:{self.port}/api/v10"

    @property
    def gateway_url(self) -> str:
        return f"ws://127.0.0.1:{self.port}/gateway"

    def next_id(self) -> int:
        return next(self._ids)

    def add_user(self, name: str, *, locale: str = "en-US", dms_closed: bool = False,
                 permissions: str = User.permissions, nick: str | None = None) -> User:
        user = User(self.next_id(), name, locale=locale, dms_closed=dms_closed, permissions=permissions, nick=nick)
        self.users[user.id] = user
        return user

    def _dm_channel_for(self, user: User) -> int:
        cid = self.dm_channels.setdefault(user.id, self.next_id())
        self.dm_owner[cid] = user.id
        return cid

    # ------------------------------------------------------------ recording
    def _record(self, call: Call) -> None:
        self.calls.append(call)
        self._changed.set()

    async def wait_for(
        self, pred: Callable[[Call], bool], *, timeout: float = 5.0, after: int = 0
    ) -> Call:
        """Wait until the bot made a call matching `pred` (index >= `after`)."""
        deadline = time.monotonic() + timeout
        while True:
            for call in self.calls[after:]:
                if pred(call):
                    return call
            left = deadline - time.monotonic()
            if left <= 0:
                raise AssertionError(
                    "no matching call; seen:\n"
                    + "\n".join(f"{c.method} {c.path} {c.content!r}" for c in self.calls[after:])
                )
            self._changed.clear()
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self._changed.wait(), timeout=min(left, 0.2))

    async def settle(self, quiet: float = 0.15, timeout: float = 5.0) -> None:
        """Wait until no new call arrived for `quiet` seconds."""
        deadline = time.monotonic() + timeout
        count = -1
        while time.monotonic() < deadline:
            if len(self.calls) == count:
                return
            count = len(self.calls)
            await asyncio.sleep(quiet)

    def channel_calls(self, after: int = 0) -> list[Call]:
        """Calls visible in a guild channel: channel messages and public interaction replies."""
        return [
            c
            for c in self.calls[after:]
            if (c.channel_id is not None and c.channel_id not in self.dm_owner)
            or (c.interaction_token is not None and not c.ephemeral and c.method != "DELETE")
        ]

    def dms_to(self, user: User, after: int = 0) -> list[Call]:
        channel = self.dm_channels.get(user.id)
        return [
            c
            for c in self.calls[after:]
            if channel is not None and c.channel_id == channel and c.status < 300
        ]

    # ------------------------------------------------ messages and refusals
    def _message(
        self, channel_id: int, body: dict[str, Any], files: list[tuple[str, bytes]],
        *, author: User | None = None, flags: int = 0, mid: int | None = None,
    ) -> dict[str, Any]:
        mid = mid or self.next_id()
        author = author or self.bot
        msg: dict[str, Any] = {
            "id": str(mid),
            "channel_id": str(channel_id),
            "type": 0,
            "content": body.get("content") or "",
            "author": author.payload(),
            "attachments": [
                {"id": str(self.next_id()), "filename": name, "size": len(data),
                 "url": f"http://127.0.0.1/{name}", "proxy_url": f"http://127.0.0.1/{name}"}
                for name, data in files
            ],
            "embeds": body.get("embeds") or [],
            "mentions": [],
            "mention_roles": [],
            "mention_everyone": False,
            "pinned": False,
            "tts": False,
            "timestamp": "2024-01-01T00:00:00+00:00",
            "edited_timestamp": None,
            "flags": flags | int(body.get("flags") or 0),
            "components": body.get("components") or [],
        }
        if channel_id not in self.dm_owner:
            msg["guild_id"] = str(GUILD_ID)
        if author is self.bot:
            msg["mentions"] = [self.users[u].payload() for u in self.notified(body) if u in self.users]
        self.messages[mid] = msg
        return msg

    @staticmethod
    def notified(body: dict[str, Any]) -> list[int]:
        """The users a new message of the bot pings: those mentioned in its content (`<@id>`) whom its
        `allowed_mentions` allows — "parse: An array of allowed mention types to parse from the content",
        "users: Array of user_ids to mention", and without the field every mention in the content is
        parsed (https://discord.com/developers/docs/resources/message#allowed-mentions-object)."""
        named = [int(i) for i in re.findall(r"<@!?(\d+)>", str(body.get("content") or ""))]
        allowed = body.get("allowed_mentions")
        if allowed is None or "users" in (allowed.get("parse") or []):
            return list(dict.fromkeys(named))
        users = {int(u) for u in allowed.get("users") or []}
        return list(dict.fromkeys(u for u in named if u in users))

    def _error(self, status: int, code: int, message: str) -> web.Response:
        return json_response({"code": code, "message": message}, status=status)

    def _refuse(self, call: Call, tree: dict[str, Any], *, empty: bool = False) -> web.Response | None:
        """Discord's answer to a body it refuses: 400 with 50035 and the error tree (or 50006)."""
        if tree:
            self.invalid.append(call)
            self.last_errors = tree
            return json_response({"code": limits.INVALID_FORM_BODY, "errors": tree, "message": "Invalid Form Body"},
                         status=400)
        if empty:
            self.invalid.append(call)
            return self._error(400, limits.EMPTY_MESSAGE, "Cannot send an empty message")
        return None

    def _check_message(self, call: Call, body: dict[str, Any], files: list[tuple[str, bytes]],
                       *, new: bool) -> web.Response | None:
        return self._refuse(call, limits.message_errors(body, new=new, files=len(files)),
                            empty=new and limits.is_empty(body, len(files)))
