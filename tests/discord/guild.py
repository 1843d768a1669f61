"""The stand-in Discord's guild: its channels, forums and threads, and the bot's permissions there.

The GUILD_CREATE payload the gateway sends, channel payloads for REST and interactions, which
channels the bot may see and post in (denials, grants, private threads), and Discord's refusals
when it may not (403 50001 / 50013, 404 10003 for a deleted thread).
"""

from __future__ import annotations

from typing import Any

from aiohttp import web

from .model import (
    APP_ID,
    BOT_PERMISSIONS,
    CHANNEL_ID,
    FORUM,
    GRANTABLE,
    GUILD_ID,
    MANAGE_MESSAGES,
    OTHER_CHANNEL_ID,
    OWNER_ID,
    PERMISSION_BITS,
    PRIVATE_THREAD,
)
from .state import State


class Guild(State):
    """The one guild's channels, threads and the bot's permissions in them."""

    def __init__(self) -> None:
        super().__init__()
        self.denied: dict[int, set[str]] = {}  # channel -> the bot's permissions taken there
        self.granted: dict[int, set[str]] = {}  # tg-ops: channel -> permissions given to the bot there
        self.threads: dict[int, dict[str, Any]] = {}  # thread id -> parent, name, type (see threads below)
        self.forums: dict[int, str] = {}  # forum channel id -> name
        # private threads the bot was added to, and threads deleted (issue 35; see threads below)
        self.bot_in_thread: set[int] = set()
        self.deleted_threads: set[int] = set()

    # ---------------------------------------------------------- permissions
    def deny(self, channel: int, *permissions: str) -> None:
        """Take the bot's `permissions` ("view_channel", "send_messages", "send_messages_in_threads")
        in `channel` and its threads, before the bot connects (GUILD_CREATE carries the overwrite)."""
        assert all(p in PERMISSION_BITS for p in permissions), permissions
        assert channel not in self.threads, "a thread has no overwrites of its own: deny on its parent"
        self.denied.setdefault(channel, set()).update(permissions)

    def app_permissions(self, channel: int) -> int:
        bits = BOT_PERMISSIONS
        for name in self.granted.get(channel, ()):  # tg-ops
            bits |= GRANTABLE[name]
        for name in self.denied.get(self.parent_of(channel), ()):  # a thread has its parent's
            bits &= ~PERMISSION_BITS[name]
        return bits

    def _forbidden(self, channel: int, *, send: bool) -> web.Response | None:
        if channel in self.deleted_threads:
            return self._error(404, 10003, "Unknown Channel")
        if self.hidden_from_bot(channel):
            return self._error(403, 50001, "Missing Access")
        denied = self.denied.get(self.parent_of(channel), set())
        if "view_channel" in denied:
            return self._error(403, 50001, "Missing Access")
        needed = "send_messages_in_threads" if channel in self.threads else "send_messages"
        if send and needed in denied:
            return self._error(403, 50013, "Missing Permissions")
        return None

    def _overwrites(self, cid: int) -> list[dict[str, Any]]:
        bits = sum(PERMISSION_BITS[name] for name in self.denied.get(cid, ()))
        return [{"id": str(APP_ID), "type": 1, "allow": "0", "deny": str(bits)}] if bits else []

    no_manage_messages = False  # set True to refuse deleting users' messages

    # -- tg-ops: deleting another's message ---------------------------------------------------------
    # https://discord.com/developers/docs/resources/message#delete-message: "If operating on a guild
    # channel and trying to delete a message that was not sent by the current user, this endpoint
    # requires the MANAGE_MESSAGES permission" (1 << 13, https://discord.com/developers/docs/topics/
    # permissions): without it 403 50013 "Missing Permissions"; in a DM another's message cannot be
    # deleted at all: 403 50003 "Cannot execute action on a DM channel". The bot's role here
    # (BOT_PERMISSIONS) lacks it until `grant(channel, "manage_messages")`.

    def grant(self, channel: int, *permissions: str) -> None:
        """Give the bot `permissions` ("manage_messages") in `channel` (a channel overwrite)."""
        assert all(p in GRANTABLE for p in permissions), permissions
        self.granted.setdefault(channel, set()).update(permissions)

    def _may_not_delete(self, channel: int) -> web.Response | None:
        if channel in self.dm_owner:
            return self._error(403, 50003, "Cannot execute action on a DM channel")
        if self.no_manage_messages or not self.app_permissions(channel) & MANAGE_MESSAGES:
            return self._error(403, 50013, "Missing Permissions")
        return None

    # -- end tg-ops ---------------------------------------------------------------------------------

    # ------------------------------------ threads and forum posts (issue 22, item 9)
    # A thread is a channel of its own (its own id; type 11 public, 12 private) whose parent is a text
    # channel or a forum (type 15, which holds nothing but posts, and every post is a thread):
    # https://discord.com/developers/docs/resources/channel#channel-object-channel-types,
    # https://discord.com/developers/docs/topics/threads#forums. Threads have no overwrites of their
    # own: they inherit the parent's permissions, and posting in one needs SEND_MESSAGES_IN_THREADS
    # (1 << 38), while SEND_MESSAGES "does not allow sending messages in threads"
    # (https://discord.com/developers/docs/topics/permissions#permissions-bitwise-permission-flags,
    # https://discord.com/developers/docs/topics/threads#permissions). Missing it: 403 with JSON code
    # 50013 "Missing Permissions" (https://discord.com/developers/docs/topics/opcodes-and-status-codes
    # #json-json-error-codes). The guild's active threads come in GUILD_CREATE `threads`, a new one in
    # THREAD_CREATE (https://discord.com/developers/docs/events/gateway-events#thread-create).
    # A denial (`deny`) is a member overwrite for the bot on the parent channel, as the gateway sends it.
    def add_forum(self, name: str = "tournaments") -> int:
        """A forum channel (before the bot connects: it comes in GUILD_CREATE)."""
        cid = self.next_id()
        self.forums[cid] = name
        return cid

    # A private thread "is only viewable by those invited and those with the MANAGE_THREADS permission"
    # (https://discord.com/developers/docs/topics/threads): posting there without an invitation is refused
    # with 403 50001 "Missing Access"; a slash command typed there still reaches the bot (interactions
    # need no access). A deleted thread (THREAD_DELETE, gateway.py) answers 404 10003 "Unknown Channel"
    # (https://discord.com/developers/docs/topics/opcodes-and-status-codes#json-json-error-codes).
    def hidden_from_bot(self, channel: int) -> bool:
        """A private thread the bot was not invited to (and it cannot manage threads)."""
        thread = self.threads.get(channel)
        return (thread is not None and thread["type"] == PRIVATE_THREAD and channel not in self.bot_in_thread
                and "manage_threads" not in self.granted.get(channel, ()))

    def parent_of(self, channel: int) -> int:
        """A thread's parent channel, else the channel itself: where permissions are set."""
        thread = self.threads.get(channel)
        return int(thread["parent"]) if thread is not None else channel

    def _thread_payload(self, tid: int) -> dict[str, Any]:
        thread = self.threads[tid]
        return {
            "id": str(tid), "type": thread["type"], "guild_id": str(GUILD_ID), "name": thread["name"],
            "parent_id": str(thread["parent"]), "owner_id": str(OWNER_ID), "last_message_id": None,
            "rate_limit_per_user": 0, "message_count": 0, "member_count": 1, "flags": 0,
            "applied_tags": [], "total_message_sent": 0,
            "thread_metadata": {"archived": False, "auto_archive_duration": 1440, "locked": False,
                                "archive_timestamp": "2024-01-01T00:00:00+00:00"},
        }

    # ------------------------------------------------------------- payloads
    def _channel_payload(self, cid: int) -> dict[str, Any]:
        if cid in self.threads:
            return self._thread_payload(cid)
        payload: dict[str, Any] = {
            "id": str(cid), "type": 0, "guild_id": str(GUILD_ID), "name": f"game-{cid % 10}",
            "position": 0, "permission_overwrites": self._overwrites(cid), "nsfw": False, "parent_id": None,
            "topic": None, "last_message_id": None, "rate_limit_per_user": 0,
        }
        if cid in self.forums:
            payload.update(type=FORUM, name=self.forums[cid], available_tags=[], default_reaction_emoji=None,
                           default_sort_order=None, default_forum_layout=0, flags=0)
        return payload

    def _guild_payload(self) -> dict[str, Any]:
        members = [self.bot, *self.users.values()]
        return {
            "id": str(GUILD_ID), "name": "Game Club", "icon": None, "owner_id": str(OWNER_ID),
            "preferred_locale": self.guild_locale, "features": [], "roles": [{
                "id": str(GUILD_ID), "name": "@everyone", "color": 0, "hoist": False,
                "position": 0, "permissions": "2248473465835073", "managed": False,
                "mentionable": False, "flags": 0,
            }],
            "emojis": [], "stickers": [], "member_count": len(members), "large": False,
            "unavailable": False, "verification_level": 0, "default_message_notifications": 0,
            "explicit_content_filter": 0, "mfa_level": 0, "system_channel_flags": 0,
            "premium_tier": 0, "nsfw_level": 0, "afk_timeout": 300,
            "joined_at": "2024-01-01T00:00:00+00:00",
            "channels": [self._channel_payload(c) for c in (CHANNEL_ID, OTHER_CHANNEL_ID, *self.forums)],
            "members": [u.member() for u in members], "presences": [],
            # the guild's active threads the bot can see
            "threads": [self._thread_payload(t) for t in self.threads if not self.hidden_from_bot(t)],
            "voice_states": [], "stage_instances": [], "guild_scheduled_events": [],
        }
