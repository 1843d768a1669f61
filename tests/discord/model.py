"""The stand-in Discord's fixed ids and bits, its users and the REST calls it records.

`User` is a member of the stand-in's one guild (or a DM partner); `Call` is one REST call the bot
made, with helpers tests use to read what it showed (content, buttons, custom ids, visible text).
"""

from __future__ import annotations

import json
import time
from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any

from aiohttp import web

BOT_TOKEN = "stand-in-bot-token"
APP_ID = 900_000_000_000_000_001
GUILD_ID = 910_000_000_000_000_001
CHANNEL_ID = 920_000_000_000_000_001
OTHER_CHANNEL_ID = 920_000_000_000_000_002
EPHEMERAL = 1 << 6
MESSAGE_CONTENT = 1 << 15  # the privileged gateway intent
GUILD_MEMBERS = 1 << 1  # the privileged members intent
VIEW_CHANNEL = 1 << 10
SEND_MESSAGES = 1 << 11
BOT_PERMISSIONS = 2248473465835073  # the bot's permissions where nothing is denied
SEND_MESSAGES_IN_THREADS = 1 << 38  # threads and forum posts need this one, not SEND_MESSAGES (see guild.py)
PERMISSION_BITS = {"view_channel": VIEW_CHANNEL, "send_messages": SEND_MESSAGES,
                   "send_messages_in_threads": SEND_MESSAGES_IN_THREADS}
FORUM, PUBLIC_THREAD, PRIVATE_THREAD = 15, 11, 12  # channel types
OWNER_ID = 940_000_000_000_000_001  # the guild's owner: not the bot (an owner has every permission)
MANAGE_MESSAGES = 1 << 13  # tg-ops: deleting others' messages (not in BOT_PERMISSIONS)
GRANTABLE = {"manage_messages": MANAGE_MESSAGES}  # tg-ops: what `grant` gives


@dataclass
class User:
    """A user of the stand-in; `dms_closed` makes DMs to them fail with 50007."""

    id: int
    name: str
    locale: str = "en-US"
    dms_closed: bool = False
    bot: bool = False
    permissions: str = "2248473465835073"  # the member's permissions in the channel (no admin rights)
    # the member's server nickname: what Discord shows for them in this server (a guild member's `nick`,
    # https://discord.com/developers/docs/resources/guild#guild-member-object); discord.py's display_name
    nick: str | None = None

    @property
    def mention(self) -> str:
        return f"<@{self.id}>"

    def payload(self) -> dict[str, Any]:
        return {
            "id": str(self.id),
            "username": self.name.lower(),
            "global_name": self.name,
            "discriminator": "0",
            "avatar": None,
            "bot": self.bot,
            "public_flags": 0,
        }

    def member(self) -> dict[str, Any]:
        return {
            "user": self.payload(),
            "nick": self.nick,
            "roles": [],
            "joined_at": "2024-01-01T00:00:00+00:00",
            "deaf": False,
            "mute": False,
            "flags": 0,
            "permissions": self.permissions,
        }


@dataclass
class Call:
    """One REST call the bot made, with its decoded JSON body and files."""

    method: str
    path: str
    body: dict[str, Any] | list[Any] | None
    files: list[tuple[str, bytes]] = field(default_factory=list)
    status: int = 200
    channel_id: int | None = None  # a channel message (guild channel or DM channel)
    interaction_token: str | None = None  # an interaction callback / followup
    ephemeral: bool = False
    fault: str | None = None  # "5xx" | "429" | "stall": an injected outage answered this call
    replayed: bool = False  # a resend with an already used nonce: Discord returned the first message
    shown_in: int | None = None  # an interaction reply: the channel it shows in
    at: float = field(default_factory=time.monotonic)  # when the stand-in received it

    def in_channel(self, channel: int) -> bool:
        """Seen by everyone in `channel`: a channel message or a public interaction reply there."""
        return self.channel_id == channel or (self.shown_in == channel and not self.ephemeral
                                              and self.method != "DELETE")

    @property
    def message(self) -> dict[str, Any]:
        """The message this call sends or edits (an interaction callback's `data`)."""
        if not isinstance(self.body, dict):
            return {}
        data = self.body.get("data") if "type" in self.body and "data" in self.body else None
        return data if isinstance(data, dict) else self.body

    @property
    def content(self) -> str:
        if isinstance(self.body, dict):
            data = self.body.get("data") if "type" in self.body and "data" in self.body else None
            if isinstance(data, dict):
                return str(data.get("content") or "")
            return str(self.body.get("content") or "")
        return ""

    @property
    def components(self) -> list[dict[str, Any]]:
        if not isinstance(self.body, dict):
            return []
        body = self.body.get("data") if isinstance(self.body.get("data"), dict) else self.body
        return list(body.get("components") or []) if isinstance(body, dict) else []

    def custom_ids(self) -> list[str]:
        """Every custom id in this call's components (buttons, modal inputs)."""
        out: list[str] = []

        def walk(items: Iterable[dict[str, Any]]) -> None:
            for item in items:
                if "custom_id" in item:
                    out.append(item["custom_id"])
                walk(item.get("components") or [])
                if isinstance(item.get("component"), dict):
                    walk([item["component"]])

        walk(self.components)
        if isinstance(self.body, dict) and isinstance(self.body.get("data"), dict):
            cid = self.body["data"].get("custom_id")
            if cid:
                out.append(cid)
        return out

    def buttons(self) -> list[dict[str, Any]]:
        out: list[dict[str, Any]] = []
        for row in self.components:
            out.extend(c for c in row.get("components") or [] if c.get("type") == 2)
        return out

    def text(self) -> str:
        """All text a reader could see in this call (content + labels + modal titles) — not the
        client's random nonce, whose digits could contain a secret by chance."""
        body = {k: v for k, v in self.body.items() if k != "nonce"} if isinstance(self.body, dict) else self.body
        parts = [self.content, json.dumps(body, ensure_ascii=False) if body else ""]
        return "\n".join(parts)


def json_response(data: Any, status: int = 200) -> web.Response:
    """A JSON response with Discord's exact content type (discord.py compares it verbatim)."""
    return web.Response(
        body=json.dumps(data).encode(), status=status, headers={"Content-Type": "application/json"}
    )
