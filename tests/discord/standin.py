"""A local stand-in Discord: REST under /api/v10 and the gateway websocket.

The real discord.py client connects to it over loopback, so the adapter is
proven against the library's own HTTP and gateway code instead of mocked
`Interaction` objects. Tests speak as users (`say`, `slash`, `press`,
`submit_modal`) and assert on the recorded REST calls (`calls`, `wait_for`).

Outages: `break_next` (5xx), `rate_limit_next` (a 429 burst, as Discord sends
it) and `stall_next` (a slow answer) hit the next calls that send or edit a
message or answer an interaction; every such call is recorded with `fault` set.

Lifecycle, as Discord keeps it: an interaction's initial response comes within
`response_window` (3 s; later: 404 10062 "Unknown interaction"), only once (400
40060), with a type its interaction allows (a modal only for a command or a
component, (deferred) update-message only for a component or a modal submit from
one: else 400 50035); followups and edits of the response only after it and only
for `token_lifetime` (15 min; then 401 50027). Permissions: `deny(channel, ...)`
takes the bot's View Channel / Send Messages there (posting → 403 50001 "Missing
Access" / 50013 "Missing Permissions"; interaction replies need neither). Rate
limits: 5 messages per channel per 5 s and 50 requests per second in all, times
`rate_scale` (small by default, so ordinary tests stay fast), answered with 429,
`retry_after` and the X-RateLimit headers discord.py reads (on every answer).
No member list without the members intent. A RESUME replays the events the
session missed since its last sequence number (`drop_gateway`/`allow_reconnect`).
"""

from __future__ import annotations

import asyncio
import contextlib
import itertools
import json
import math
import re
import time
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from typing import Any

import aiohttp
from aiohttp import WSMsgType, web

from . import limits

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
SEND_MESSAGES_IN_THREADS = 1 << 38  # threads and forum posts need this one, not SEND_MESSAGES (see threads below)
PERMISSION_BITS = {"view_channel": VIEW_CHANNEL, "send_messages": SEND_MESSAGES,
                   "send_messages_in_threads": SEND_MESSAGES_IN_THREADS}
FORUM, PUBLIC_THREAD, PRIVATE_THREAD = 15, 11, 12  # channel types
OWNER_ID = 940_000_000_000_000_001  # the guild's owner: not the bot (an owner has every permission)
MANAGE_MESSAGES = 1 << 13  # tg-ops: deleting others' messages (not in BOT_PERMISSIONS)
GRANTABLE = {"manage_messages": MANAGE_MESSAGES}  # tg-ops: what `grant` gives
# the response types each interaction type allows (2 command, 3 component, 5 modal submit)
RESPONSE_TYPES = {2: {4, 5, 9}, 3: {4, 5, 6, 7, 9}, 5: {4, 5, 6, 7}}
CHANNEL_LIMIT = (5, 5.0)  # messages per channel: 5 per 5 s (times rate_scale)
GLOBAL_LIMIT = (50, 1.0)  # all requests: 50 per second (times rate_scale)
# the REST calls outages hit: sending and editing messages, answering interactions
SENDING = frozenset({"message", "edit", "callback", "followup", "followup_edit", "followup_delete"})


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


def _json(data: Any, status: int = 200) -> web.Response:
    """A JSON response with Discord's exact content type (discord.py compares it verbatim)."""
    return web.Response(
        body=json.dumps(data).encode(), status=status, headers={"Content-Type": "application/json"}
    )


class StandIn:
    """Stand-in Discord server: REST + gateway on 127.0.0.1, random port."""

    def __init__(self) -> None:
        self._ids = itertools.count(930_000_000_000_000_001)
        self.bot = User(APP_ID, "GameBot", bot=True)
        self.users: dict[int, User] = {}
        self.guild_locale = "en-US"
        self.calls: list[Call] = []
        self.messages: dict[int, dict[str, Any]] = {}  # message id -> payload
        self.dm_channels: dict[int, int] = {}  # user id -> DM channel id
        self.dm_owner: dict[int, int] = {}  # DM channel id -> user id
        self.interactions: dict[str, dict[str, Any]] = {}  # token -> state
        self.commands: dict[str, list[dict[str, Any]]] = {}  # "global" | guild id -> payload
        self.identified: list[dict[str, Any]] = []
        self.heartbeats = 0
        self._sockets: list[web.WebSocketResponse] = []
        self._seq = itertools.count(1)
        self._runner: web.AppRunner | None = None
        self._changed = asyncio.Event()
        self._closing = asyncio.Event()
        self._faults: list[tuple[str, float]] = []  # ("5xx", status) | ("429", retry_after) | ("stall", s)
        self._fault_kinds: frozenset[str] = SENDING
        self._nonces: dict[tuple[int, str], int] = {}  # (channel, nonce) -> message id
        self.invalid: list[Call] = []  # calls refused as Discord refuses them (400 50035 / 50006)
        self.last_errors: dict[str, Any] = {}  # the error tree of the last 50035
        self.expect_invalid = False  # a test that provokes refusals sets it (else teardown fails)
        self.port = 0
        self.response_window = 3.0  # seconds for an interaction's initial response
        self.token_lifetime = 15 * 60.0  # seconds an interaction token serves followups and edits
        self.rate_scale = 0.02  # rate limit windows times this (1.0: Discord's own)
        self.denied: dict[int, set[str]] = {}  # channel -> the bot's permissions taken there
        self.granted: dict[int, set[str]] = {}  # tg-ops: channel -> permissions given to the bot there
        self._buckets: dict[str, tuple[float, int]] = {}  # bucket -> (reset at, used)
        self._sessions: dict[str, list[dict[str, Any]]] = {}  # session id -> every event sent
        self._socket_session: dict[int, str] = {}  # id(ws) -> its session
        self._last_session: str | None = None
        self._reconnect = asyncio.Event()
        self._reconnect.set()
        self.resumes = 0
        self.refused_intents = 0  # privileged intents not enabled for the application (4014)
        self.threads: dict[int, dict[str, Any]] = {}  # thread id -> parent, name, type (see threads below)
        self.forums: dict[int, str] = {}  # forum channel id -> name
        # private threads the bot was added to, and threads deleted (issue 35; see threads below)
        self.bot_in_thread: set[int] = set()
        self.deleted_threads: set[int] = set()
        self.identifies_refused = 0

    # ----------------------------------------------------------- lifecycle
    async def start(self) -> None:
        app = web.Application(client_max_size=32 * 1024 * 1024)
        app.router.add_get("/gateway", self._gateway)
        app.router.add_route("*", "/api/v10/{tail:.*}", self._rest)
        self._runner = web.AppRunner(app, handle_signals=False)
        await self._runner.setup()
        site = web.TCPSite(self._runner, "127.0.0.1", 0)
        await site.start()
        server = site._server
        assert isinstance(server, asyncio.Server)
        self.port = int(server.sockets[0].getsockname()[1])

    async def stop(self) -> None:
        self._closing.set()  # stalled answers end now
        for ws in list(self._sockets):
            await ws.close()
        if self._runner is not None:
            await self._runner.cleanup()
            self._runner = None

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

    # ---------------------------------------------------------- rate limits
    def _bucket(self, method: str, parts: list[str]) -> tuple[str, int, float] | None:
        if len(parts) >= 3 and parts[0] == "channels" and parts[2] == "messages" and method in ("POST", "PATCH"):
            limit, per = CHANNEL_LIMIT
            return f"channel-{parts[1]}", limit, per * self.rate_scale
        return None

    def _take(self, key: str, limit: int, per: float) -> tuple[bool, int, float]:
        """One request in bucket `key`: (allowed, remaining, seconds to reset)."""
        now = time.monotonic()
        reset, used = self._buckets.get(key, (0.0, 0))
        if now >= reset:
            reset, used = now + per, 0
        if used >= limit:
            return False, 0, reset - now
        self._buckets[key] = (reset, used + 1)
        return True, limit - used - 1, reset - now

    def bucket_remaining(self, channel: int) -> int:
        limit, _ = CHANNEL_LIMIT
        reset, used = self._buckets.get(f"channel-{channel}", (0.0, 0))
        return limit if time.monotonic() >= reset else limit - used

    @staticmethod
    def _limit_headers(key: str, limit: int, remaining: int, reset_after: float) -> dict[str, str]:
        return {
            "X-RateLimit-Limit": str(limit),
            "X-RateLimit-Remaining": str(remaining),
            "X-RateLimit-Reset": f"{time.time() + reset_after:.3f}",
            "X-RateLimit-Reset-After": f"{reset_after:.3f}",
            "X-RateLimit-Bucket": key,
        }

    def _limited(self, key: str, limit: int, retry_after: float, *, scope: str) -> web.Response:
        headers = {
            "Content-Type": "application/json",
            "Via": "1.1 google",  # discord.py treats a 429 without it as a Cloudflare ban
            "Retry-After": str(math.ceil(retry_after)),
            "X-RateLimit-Scope": scope,
            **self._limit_headers(key, limit, 0, retry_after),
        }
        if scope == "global":
            headers["X-RateLimit-Global"] = "true"
        return web.Response(status=429, headers=headers, body=json.dumps({
            "message": "You are being rate limited.", "retry_after": retry_after,
            "global": scope == "global"}).encode())

    async def raw_post(self, path: str, body: dict[str, Any]) -> Any:
        """POST past discord.py (which would wait out a 429): the raw aiohttp response, read."""
        async with aiohttp.ClientSession() as session, session.post(
                f"{self.api_base}{path}", json=body, headers={"Authorization": f"Bot {BOT_TOKEN}"}) as resp:
            await resp.read()
            return resp

    # -------------------------------------------------------------- outages
    def break_next(self, n: int, status: int = 502, kinds: Iterable[str] = SENDING) -> None:
        """Answer the next `n` sending calls (of `kinds`) with HTTP `status`: an outage."""
        self._inject([("5xx", float(status))] * n, kinds)

    def rate_limit_next(self, n: int, retry_after: float = 0.05, kinds: Iterable[str] = SENDING) -> None:
        """Answer the next `n` sending calls with 429, headers and body as Discord sends them."""
        self._inject([("429", retry_after)] * n, kinds)

    def stall_next(self, n: int, seconds: float = 2.0, kinds: Iterable[str] = SENDING) -> None:
        """Carry out the next `n` sending calls but answer only after `seconds` (a timeout)."""
        self._inject([("stall", seconds)] * n, kinds)

    def _inject(self, faults: list[tuple[str, float]], kinds: Iterable[str]) -> None:
        self._faults = faults
        self._fault_kinds = frozenset(kinds)

    def faults(self, fault: str | None = None) -> list[Call]:
        """The calls an injected outage answered (of one `fault` kind, or all)."""
        return [c for c in self.calls if c.fault is not None and fault in (None, c.fault)]

    @staticmethod
    def _kind(method: str, parts: list[str]) -> str | None:
        match (method, parts):
            case ("POST", ["channels", _, "messages"]):
                return "message"
            case ("PATCH", ["channels", _, "messages", _]):
                return "edit"
            case ("POST", ["interactions", _, _, "callback"]):
                return "callback"
            case ("POST", ["webhooks", _, _]):
                return "followup"
            case ("PATCH", ["webhooks", _, _, "messages", _]):
                return "followup_edit"
            case ("DELETE", ["webhooks", _, _, "messages", _]):
                return "followup_delete"
        return None

    def _fault_response(self, fault: str, value: float) -> web.Response:
        if fault == "5xx":
            status = int(value)
            return self._error(status, 0, f"{status}: stand-in outage")
        reset = time.time() + value
        return web.Response(
            status=429,
            body=json.dumps({"message": "You are being rate limited.", "retry_after": value,
                             "global": False}).encode(),
            headers={
                "Content-Type": "application/json",
                "Via": "1.1 google",  # discord.py treats a 429 without it as a Cloudflare ban
                "Retry-After": str(math.ceil(value)),
                "X-RateLimit-Limit": "5",
                "X-RateLimit-Remaining": "0",
                "X-RateLimit-Reset": f"{reset:.3f}",
                "X-RateLimit-Reset-After": f"{value:.3f}",
                "X-RateLimit-Bucket": "stand-in-bucket",
                "X-RateLimit-Scope": "user",
            },
        )

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

    def ephemerals_for(self, user: User, after: int = 0) -> list[Call]:
        tokens = {t for t, s in self.interactions.items() if s["user"] == user.id}
        return [
            c
            for c in self.calls[after:]
            if c.interaction_token in tokens and c.ephemeral and c.method in ("POST", "PATCH")
        ]

    # ----------------------------------------------------------------- REST
    async def _read(self, request: web.Request) -> tuple[Any, list[tuple[str, bytes]]]:
        if request.content_type.startswith("multipart/"):
            body: Any = None
            files: list[tuple[str, bytes]] = []
            reader = await request.multipart()
            while (part := await reader.next()) is not None:
                data = await part.read()  # type: ignore[union-attr]
                if part.name == "payload_json":  # type: ignore[union-attr]
                    body = json.loads(data)
                else:
                    files.append((part.filename or "", bytes(data)))  # type: ignore[union-attr]
            return body, files
        if request.can_read_body:
            raw = await request.read()
            return (json.loads(raw) if raw else None), []
        return None, []

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
        return _json({"code": code, "message": message}, status=status)

    def _refuse(self, call: Call, tree: dict[str, Any], *, empty: bool = False) -> web.Response | None:
        """Discord's answer to a body it refuses: 400 with 50035 and the error tree (or 50006)."""
        if tree:
            self.invalid.append(call)
            self.last_errors = tree
            return _json({"code": limits.INVALID_FORM_BODY, "errors": tree, "message": "Invalid Form Body"},
                         status=400)
        if empty:
            self.invalid.append(call)
            return self._error(400, limits.EMPTY_MESSAGE, "Cannot send an empty message")
        return None

    def _check_message(self, call: Call, body: dict[str, Any], files: list[tuple[str, bytes]],
                       *, new: bool) -> web.Response | None:
        return self._refuse(call, limits.message_errors(body, new=new, files=len(files)),
                            empty=new and limits.is_empty(body, len(files)))

    async def _rest(self, request: web.Request) -> web.StreamResponse:
        path = "/" + request.match_info["tail"]
        method = request.method
        body, files = await self._read(request)
        parts = path.strip("/").split("/")
        call = Call(method, path, body, files)

        if request.headers.get("Authorization") not in (f"Bot {BOT_TOKEN}", None):
            call.status = 401
            self._record(call)
            return self._error(401, 0, "401: Unauthorized")

        glimit, gper = GLOBAL_LIMIT
        allowed, _, reset_after = self._take("global", glimit, gper * self.rate_scale)
        if not allowed:
            call.status = 429
            call.fault = "global"
            self._record(call)
            return self._limited("global", glimit, reset_after, scope="global")
        bucket = self._bucket(method, parts)
        headers: dict[str, str] = {}
        if bucket is not None:
            key, limit, per = bucket
            allowed, remaining, reset_after = self._take(key, limit, per)
            if not allowed:
                call.status = 429
                call.fault = "limited"
                self._record(call)
                return self._limited(key, limit, reset_after, scope="user")
            headers = self._limit_headers(key, limit, remaining, reset_after)

        resp: web.StreamResponse
        if self._faults and self._kind(method, parts) in self._fault_kinds:
            fault, value = self._faults.pop(0)
            call.fault = fault
            if fault != "stall":
                resp = self._fault_response(fault, value)
                call.status = resp.status
                self._record(call)
                return resp
        resp = await self._route(method, parts, body, files, call)
        resp.headers.update(headers)
        call.status = resp.status
        self._record(call)
        if call.fault == "stall":  # carried out, but the answer comes late (or never)
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self._closing.wait(), timeout=value)
        return resp

    async def _route(
        self, method: str, parts: list[str], body: Any, files: list[tuple[str, bytes]], call: Call
    ) -> web.StreamResponse:
        body = body if body is not None else {}
        msg: dict[str, Any] | None
        match (method, parts):
            case ("GET", ["users", "@me"]):
                return _json(self.bot.payload())
            case ("GET", ["oauth2", "applications", "@me"]):
                return _json({
                    "id": str(APP_ID), "name": "GameBot", "description": "", "icon": None,
                    "bot_public": True, "bot_require_code_grant": False,
                    "verify_key": "00", "flags": 0, "owner": {**self.bot.payload(), "bot": False},
                    "team": None, "summary": "", "rpc_origins": [],
                })
            case ("GET", ["gateway", "bot"]):
                return _json({
                    "url": self.gateway_url, "shards": 1,
                    "session_start_limit": {"total": 1000, "remaining": 999,
                                            "reset_after": 0, "max_concurrency": 1},
                })
            case ("GET", ["gateway"]):
                return _json({"url": self.gateway_url})
            case ("POST", ["users", "@me", "channels"]):
                uid = int(body["recipient_id"])
                user = self.users.get(uid)
                if user is None:
                    return self._error(400, 50033, "Invalid Recipient(s)")
                cid = self.dm_channels.setdefault(uid, self.next_id())
                self.dm_owner[cid] = uid
                return _json({
                    "id": str(cid), "type": 1, "last_message_id": None,
                    "recipients": [user.payload()],
                })
            case ("GET", ["channels", cid]):
                cid_i = int(cid)
                if cid_i in self.dm_owner:
                    return _json({"id": cid, "type": 1, "recipients": [
                        self.users[self.dm_owner[cid_i]].payload()]})
                return _json(self._channel_payload(cid_i))
            case ("POST", ["channels", cid, "messages"]):
                cid_i = int(cid)
                call.channel_id = cid_i
                owner = self.dm_owner.get(cid_i)
                if owner is not None and self.users[owner].dms_closed:
                    return self._error(403, 50007, "Cannot send messages to this user")
                if (forbidden := self._forbidden(cid_i, send=True)) is not None:
                    return forbidden
                if (refused := self._check_message(call, body, files, new=True)) is not None:
                    return refused
                nonce = str(body.get("nonce") or "")
                if nonce and body.get("enforce_nonce") and (cid_i, nonce) in self._nonces:
                    call.replayed = True  # Discord answers a resend with the first message
                    return _json(self.messages[self._nonces[(cid_i, nonce)]])
                msg = self._message(cid_i, body, files)
                if nonce:
                    self._nonces[(cid_i, nonce)] = int(msg["id"])
                return _json(msg)
            case ("PATCH", ["channels", cid, "messages", mid]):
                call.channel_id = int(cid)
                if (forbidden := self._forbidden(int(cid), send=False)) is not None:
                    return forbidden
                old = self.messages.get(int(mid))
                if old is None:
                    return self._error(404, 10008, "Unknown Message")
                if (refused := self._check_message(call, body, files, new=False)) is not None:
                    return refused
                old.update({k: v for k, v in body.items() if k in ("content", "components")})
                return _json(old)
            case ("DELETE", ["channels", cid, "messages", mid]):
                call.channel_id = int(cid)
                msg = self.messages.get(int(mid))
                if msg is None:
                    return self._error(404, 10008, "Unknown Message")
                if msg["author"]["id"] != str(APP_ID) and (refused := self._may_not_delete(int(cid))) is not None:
                    return refused  # tg-ops: another's message needs Manage Messages (below)
                self.messages.pop(int(mid), None)
                return web.Response(status=204)
            case ("POST", ["interactions", _iid, token, "callback"]):
                return self._callback(token, body, files, call)
            case ("POST", ["webhooks", _app, token]):
                call.interaction_token = token
                state = self.interactions.get(token)
                if (refused := self._webhook_refusal(state)) is not None:
                    return refused
                assert state is not None
                call.shown_in = state["channel"]
                call.ephemeral = bool(int(body.get("flags") or 0) & EPHEMERAL)
                if (refused := self._check_message(call, body, files, new=True)) is not None:
                    return refused
                replaces = state["responded"] == 5 and state["original"] is None and not state["deleted_original"]
                if replaces:
                    # the first followup of a defer replaces the "thinking" message, as public or
                    # ephemeral as the defer was (its own flag does not count)
                    call.ephemeral = state["deferred_ephemeral"]
                body = {**body, "flags": (int(body.get("flags") or 0) & ~EPHEMERAL)}
                msg = self._message(state["channel"], body, files,
                                    flags=EPHEMERAL if call.ephemeral else 0)
                if replaces:
                    state["original"] = int(msg["id"])
                state["followups"].append(int(msg["id"]))
                return _json(msg)
            case ("PATCH", ["webhooks", _app, token, "messages", mid]):
                call.interaction_token = token
                state = self.interactions.get(token)
                if (refused := self._webhook_refusal(state)) is not None:
                    return refused
                assert state is not None
                call.shown_in = state["channel"]
                if (refused := self._check_message(call, body, files, new=False)) is not None:
                    return refused
                if mid == "@original":
                    call.ephemeral = state["deferred_ephemeral"]
                    if state["original"] is None:
                        msg = self._message(state["channel"], body, files,
                                            flags=EPHEMERAL if call.ephemeral else 0)
                        state["original"] = int(msg["id"])
                        return _json(msg)
                    mid = str(state["original"])
                msg = self.messages.get(int(mid))
                if msg is None:
                    return self._error(404, 10008, "Unknown Message")
                call.ephemeral = bool(msg["flags"] & EPHEMERAL)
                msg.update({k: v for k, v in body.items() if k in ("content", "components")})
                return _json(msg)
            case ("DELETE", ["webhooks", _app, token, "messages", mid]):
                call.interaction_token = token
                state = self.interactions.get(token)
                if (refused := self._webhook_refusal(state)) is not None:
                    return refused
                assert state is not None
                call.shown_in = state["channel"]
                if mid == "@original":
                    state["deleted_original"] = True
                    if state["original"] is not None:
                        self.messages.pop(state["original"], None)
                else:
                    self.messages.pop(int(mid), None)
                return web.Response(status=204)
            case ("GET", ["webhooks", _app, token, "messages", "@original"]):
                state = self.interactions.get(token)
                if state is None or state["original"] is None:
                    return self._error(404, 10008, "Unknown Message")
                return _json(self.messages[state["original"]])
            case ("GET", ["guilds", _gid, "members"]):
                intents = int(self.identified[-1].get("intents", 0)) if self.identified else 0
                if not intents & GUILD_MEMBERS:
                    return self._error(403, 50001, "Missing Access")
                return _json([u.member() for u in (self.bot, *self.users.values())])
            case ("PUT", ["applications", _app, "commands"]):
                return self._refuse(call, limits.command_errors(body)) or _json(self._store_commands("global", body))
            case ("PUT", ["applications", _app, "guilds", gid, "commands"]):
                return self._refuse(call, limits.command_errors(body)) or _json(self._store_commands(gid, body))
            case ("GET", ["applications", _app, "commands"]):
                return _json(self.commands.get("global", []))
        return self._error(404, 0, "404: Not Found (stand-in)")

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

    async def edit(self, channel: int | None, user: User, message: dict[str, Any], text: str) -> dict[str, Any]:
        """`user` edits their message to `text`: MESSAGE_UPDATE with the whole message and its
        `edited_timestamp` (https://discord.com/developers/docs/events/gateway-events#message-update)."""
        assert message["author"]["id"] == str(user.id), "only its author edits a message"
        stored = self.messages[int(message["id"])]
        stored["content"] = text
        stored["edited_timestamp"] = f"2024-01-01T00:{self.next_id() % 60:02d}:00+00:00"
        update = {**stored, "mentions": message.get("mentions", [])}
        if "member" in message:
            update["member"] = message["member"]
        await self.dispatch("MESSAGE_UPDATE", update)
        return update

    # -- end tg-ops ---------------------------------------------------------------------------------

    def _store_commands(self, key: str, payload: list[dict[str, Any]]) -> list[dict[str, Any]]:
        out = []
        for cmd in payload:
            out.append({**cmd, "id": str(self.next_id()), "application_id": str(APP_ID),
                        "version": "1", "default_member_permissions": None, "type": 1})
        self.commands[key] = out
        return out

    def _webhook_refusal(self, state: dict[str, Any] | None) -> web.Response | None:
        """Followups and edits exist once the interaction was answered, for `token_lifetime`."""
        if state is None or state["responded"] is None:
            return self._error(404, 10015, "Unknown Webhook")
        if time.monotonic() - state["created"] > self.token_lifetime:
            return self._error(401, 50027, "Invalid Webhook Token")
        return None

    def _callback(
        self, token: str, body: dict[str, Any], files: list[tuple[str, bytes]], call: Call
    ) -> web.Response:
        call.interaction_token = token
        state = self.interactions.get(token)
        if state is None or time.monotonic() - state["created"] > self.response_window:
            return self._error(404, 10062, "Unknown interaction")
        if state["responded"] is not None:
            return self._error(400, 40060, "Interaction has already been acknowledged.")
        kind = int(body.get("type", 0))
        data = body.get("data") or {}
        flags = int(data.get("flags") or 0)
        allowed = RESPONSE_TYPES.get(state["type"], set())
        if kind in (6, 7) and state["type"] == 5 and not state["from_message"]:
            allowed = allowed - {6, 7}  # a modal submit updates a message only when a component opened it
        if kind not in allowed:
            refusal = self._refuse(call, {"type": {"_errors": [{
                "code": "INTERACTION_RESPONSE_TYPE_INVALID",
                "message": f"Interaction response type {kind} is not valid for interaction type {state['type']}"}]}})
            assert refusal is not None  # a non-empty error tree is always refused
            return refusal
        if kind == 9:
            refused = self._refuse(call, limits.modal_errors(data))
        elif kind in (4, 7):
            refused = self._check_message(call, data, files, new=kind == 4)
        else:
            refused = None
        if refused is not None:
            return refused
        state["responded"] = kind
        state["responded_at"] = time.monotonic()
        call.shown_in = state["channel"]
        call.ephemeral = bool(flags & EPHEMERAL)
        interaction: dict[str, Any] = {"id": state["id"], "type": state["type"]}
        resource: dict[str, Any] = {"type": kind}
        if kind == 5:
            state["deferred_ephemeral"] = call.ephemeral
            interaction["response_message_loading"] = True
            interaction["response_message_ephemeral"] = call.ephemeral
        elif kind == 4:
            msg = self._message(state["channel"], data, files, flags=flags)
            state["original"] = int(msg["id"])
            interaction["response_message_id"] = msg["id"]
            interaction["response_message_ephemeral"] = call.ephemeral
            resource["message"] = msg
        elif kind == 9:
            state["modal"] = data
        return _json({"interaction": interaction, "resource": resource})

    # -------------------------------------------------------------- gateway
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

    async def _gateway(self, request: web.Request) -> web.WebSocketResponse:
        await self._reconnect.wait()  # held back by `drop_gateway` until `allow_reconnect`
        ws = web.WebSocketResponse(autoping=True)
        await ws.prepare(request)
        self._sockets.append(ws)
        try:
            await ws.send_json({"op": 10, "d": {"heartbeat_interval": 41250}, "s": None, "t": None})
            async for msg in ws:
                if msg.type != WSMsgType.TEXT:
                    continue
                payload = json.loads(msg.data)
                op = payload.get("op")
                if op == 1:
                    self.heartbeats += 1
                    await ws.send_json({"op": 11, "d": None, "s": None, "t": None})
                elif op == 2:
                    if payload["d"].get("token") != BOT_TOKEN:
                        await ws.close(code=4004, message=b"Authentication failed")
                        break
                    if self._disallowed(payload["d"]):
                        await ws.close(code=4014, message=b"Disallowed intent(s).")
                        break
                    self.identified.append(payload["d"])
                    session = f"standin-session-{len(self.identified)}"
                    self._sessions[session] = []
                    self._socket_session[id(ws)] = self._last_session = session
                    await self._send(ws, "READY", {
                        "v": 10, "user": self.bot.payload(), "session_id": session,
                        "resume_gateway_url": self.gateway_url,
                        "guilds": [{"id": str(GUILD_ID), "unavailable": True}],
                        "shard": payload["d"].get("shard", [0, 1]),
                        "application": {"id": str(APP_ID), "flags": 0},
                        "private_channels": [], "relationships": [],
                    })
                    await self._send(ws, "GUILD_CREATE", self._guild_payload())
                elif op == 6:
                    d = payload["d"]
                    session = d.get("session_id")
                    if d.get("token") != BOT_TOKEN or session not in self._sessions:
                        await ws.send_json({"op": 9, "d": False, "s": None, "t": None})  # invalid session
                        continue
                    self.resumes += 1
                    self._socket_session[id(ws)] = self._last_session = session
                    last = int(d.get("seq") or 0)
                    for event in [e for e in self._sessions[session] if e["s"] > last]:
                        await ws.send_json(event)  # the events missed, with their own numbers
                    await self._send(ws, "RESUMED", {})
        finally:
            if ws in self._sockets:
                self._sockets.remove(ws)
        return ws

    async def _send(self, ws: web.WebSocketResponse, event: str, data: dict[str, Any]) -> None:
        payload = {"op": 0, "t": event, "s": next(self._seq), "d": data}
        session = self._socket_session.get(id(ws))
        if session is not None:
            self._sessions[session].append(payload)
        await ws.send_json(payload)

    async def dispatch(self, event: str, data: dict[str, Any]) -> None:
        """Send a dispatch event to every connected shard; while the connection is down, keep it
        for the session's RESUME."""
        if not self._sockets:
            if self._last_session is None or self._reconnect.is_set():
                raise AssertionError("no gateway connection")
            self._sessions[self._last_session].append(
                {"op": 0, "t": event, "s": next(self._seq), "d": data})
            return
        for ws in list(self._sockets):
            await self._send(ws, event, data)

    async def drop_gateway(self) -> None:
        """Break every gateway connection (close code 4000: the client resumes) and hold back
        reconnects until `allow_reconnect`."""
        self._reconnect.clear()
        for ws in list(self._sockets):
            await ws.close(code=4000, message=b"stand-in: connection dropped")
        while self._sockets:
            await asyncio.sleep(0.01)

    def allow_reconnect(self) -> None:
        self._reconnect.set()

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
    # (https://discord.com/developers/docs/topics/threads): the bot, not invited, is not told of it
    # (THREAD_CREATE is "sent when a thread is created, relevant to the current user, or when the current
    # user is added to a thread", https://discord.com/developers/docs/events/gateway-events#thread-create)
    # and posting there is refused with 403 50001 "Missing Access"; a slash command typed there still
    # reaches it (interactions need no access). A deleted thread: THREAD_DELETE
    # (#thread-delete: id, guild_id, parent_id, type), then 404 10003 "Unknown Channel"
    # (https://discord.com/developers/docs/topics/opcodes-and-status-codes#json-json-error-codes).
    async def open_thread(self, parent: int, name: str, *, private: bool = False, with_bot: bool = True) -> int:
        """A user opens a thread in `parent` (a post, if `parent` is a forum); → its channel id. A private
        thread is opened with the bot invited unless `with_bot` is False."""
        assert not (private and parent in self.forums), "forum posts are public threads"
        tid = self.next_id()
        self.threads[tid] = {"parent": parent, "name": name, "type": PRIVATE_THREAD if private else PUBLIC_THREAD}
        if private and with_bot:
            self.bot_in_thread.add(tid)
        if self._sockets and not self.hidden_from_bot(tid):
            await self.dispatch("THREAD_CREATE", {**self._thread_payload(tid), "newly_created": True})
        return tid

    def hidden_from_bot(self, channel: int) -> bool:
        """A private thread the bot was not invited to (and it cannot manage threads)."""
        thread = self.threads.get(channel)
        return (thread is not None and thread["type"] == PRIVATE_THREAD and channel not in self.bot_in_thread
                and "manage_threads" not in self.granted.get(channel, ()))

    async def remove_bot_from_thread(self, tid: int) -> None:
        """The thread's owner removes the bot from a private thread (the bot is told nothing here)."""
        self.bot_in_thread.discard(tid)

    async def delete_thread(self, tid: int, *, tell: bool = True) -> None:
        """A moderator deletes the thread: THREAD_DELETE (unless `tell` is False: the bot was offline)."""
        thread = self.threads.pop(tid)
        self.deleted_threads.add(tid)
        if tell and self._sockets:
            await self.dispatch("THREAD_DELETE", {"id": str(tid), "guild_id": str(GUILD_ID),
                                                  "parent_id": str(thread["parent"]), "type": thread["type"]})

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

    def _overwrites(self, cid: int) -> list[dict[str, Any]]:
        bits = sum(PERMISSION_BITS[name] for name in self.denied.get(cid, ()))
        return [{"id": str(APP_ID), "type": 1, "allow": "0", "deny": str(bits)}] if bits else []

    # ------------------------------------------------- intents (issue 22, item 8)
    # Privileged intents are enabled per application in the Developer Portal; an IDENTIFY asking for
    # one that is not is refused with close code 4014 "Disallowed intent(s)", which the client must
    # not resume or retry (https://discord.com/developers/docs/topics/opcodes-and-status-codes
    # #gateway-gateway-close-event-codes; https://discord.com/developers/docs/events/gateway
    # #privileged-intents). discord.py raises PrivilegedIntentsRequired for it.
    def refuse_intents(self, *intents: int) -> None:
        """The portal has not enabled these privileged intents (MESSAGE_CONTENT, GUILD_MEMBERS …)."""
        self.refused_intents |= sum(intents)

    def _disallowed(self, identify: dict[str, Any]) -> bool:
        asked = int(identify.get("intents", 0))
        self.identifies_refused += bool(asked & self.refused_intents)
        return bool(asked & self.refused_intents)

    # ------------------------------------------------------- user helpers
    def _dm_channel_for(self, user: User) -> int:
        cid = self.dm_channels.setdefault(user.id, self.next_id())
        self.dm_owner[cid] = user.id
        return cid

    async def say(self, channel: int | None, user: User, text: str) -> dict[str, Any]:
        """`user` posts `text` in `channel` (None: in their DM with the bot)."""
        cid = self._dm_channel_for(user) if channel is None else channel
        msg = self._message(cid, {"content": text}, [], author=user)
        known = {**self.users, self.bot.id: self.bot}
        # as Discord resolves a user's mentions: user objects, in a server each "with an additional partial
        # member field" (https://discord.com/developers/docs/resources/message#message-object, `mentions`)
        msg["mentions"] = [
            {**known[int(i)].payload(),
             **({"member": {k: v for k, v in known[int(i)].member().items() if k != "user"}}
                if channel is not None and int(i) in self.users else {})}
            for i in dict.fromkeys(re.findall(r"<@!?(\d+)>", text)) if int(i) in known]
        intents = int(self.identified[-1].get("intents", 0)) if self.identified else 0
        if channel is not None and not intents & MESSAGE_CONTENT and self.bot.mention not in text:
            msg["content"] = ""  # as Discord does without the message content intent
        if channel is not None:
            msg["member"] = {k: v for k, v in user.member().items() if k != "user"}
        await self.dispatch("MESSAGE_CREATE", msg)
        return msg

    def _interaction(
        self, kind: int, channel: int | None, user: User, data: dict[str, Any],
        message: dict[str, Any] | None = None,
    ) -> dict[str, Any]:
        iid = self.next_id()
        token = f"interaction-token-{iid}"
        cid = self._dm_channel_for(user) if channel is None else channel
        payload: dict[str, Any] = {
            "id": str(iid), "application_id": str(APP_ID), "type": kind, "data": data,
            "token": token, "version": 1, "attachment_size_limit": 8 * 1024 * 1024,
            "locale": user.locale, "app_permissions": str(self.app_permissions(cid)),
            "channel_id": str(cid), "entitlements": [],
        }
        if channel is None:
            payload["channel"] = {"id": str(cid), "type": 1, "recipients": [user.payload()]}
            payload["user"] = user.payload()
            payload["context"] = 1
        else:
            payload["channel"] = self._channel_payload(cid)
            payload["guild_id"] = str(GUILD_ID)
            payload["guild_locale"] = self.guild_locale
            payload["member"] = user.member()
            payload["context"] = 0
        if message is not None:
            payload["message"] = message
        self.interactions[token] = {
            "id": str(iid), "type": kind, "user": user.id, "channel": cid, "responded": None,
            "responded_at": None, "created": time.monotonic(), "deferred_ephemeral": False,
            "original": None, "followups": [], "modal": None, "deleted_original": False,
            "from_message": message is not None,
        }
        return payload

    async def slash(
        self, channel: int | None, user: User, name: str, options: dict[str, Any] | None = None
    ) -> str:
        """`user` runs `/name` with `options` (User values become user options); → token."""
        opts = []
        resolved: dict[str, dict[str, Any]] = {"users": {}, "members": {}}
        for key, value in (options or {}).items():
            if isinstance(value, User):
                opts.append({"name": key, "type": 6, "value": str(value.id)})
                resolved["users"][str(value.id)] = value.payload()
                member = {k: v for k, v in value.member().items() if k != "user"}
                resolved["members"][str(value.id)] = member
            elif isinstance(value, bool):
                opts.append({"name": key, "type": 5, "value": value})
            elif isinstance(value, int):
                opts.append({"name": key, "type": 4, "value": value})
            else:
                opts.append({"name": key, "type": 3, "value": str(value)})
        data: dict[str, Any] = {"id": str(self.next_id()), "name": name, "type": 1, "options": opts}
        if resolved["users"]:
            data["resolved"] = resolved
        payload = self._interaction(2, channel, user, data)
        await self.dispatch("INTERACTION_CREATE", payload)
        return str(payload["token"])

    async def press(self, channel: int | None, user: User, message_id: int, custom_id: str) -> str:
        """`user` presses the button `custom_id` on the bot's message `message_id`."""
        message = self.messages[message_id]
        payload = self._interaction(
            3, channel, user, {"custom_id": custom_id, "component_type": 2}, message=message
        )
        await self.dispatch("INTERACTION_CREATE", payload)
        return str(payload["token"])

    async def choose(self, channel: int | None, user: User, message_id: int, custom_id: str, value: str) -> str:
        """`user` picks `value` in the select menu `custom_id` on the bot's message `message_id`."""
        message = self.messages[message_id]
        payload = self._interaction(
            3, channel, user, {"custom_id": custom_id, "component_type": 3, "values": [value]}, message=message
        )
        await self.dispatch("INTERACTION_CREATE", payload)
        return str(payload["token"])

    def messages_by_content(self, content: str) -> int:
        """The id of the newest message with exactly this content."""
        return max(mid for mid, msg in self.messages.items() if msg["content"] == content)

    async def submit_modal(
        self, channel: int | None, user: User, modal: dict[str, Any], value: str,
        message_id: int | None = None,
    ) -> str:
        """`user` types `value` into the first text input of `modal` (a type-9 callback's data)."""
        inputs: list[dict[str, Any]] = []
        for row in modal.get("components", []):
            inner = row.get("components") or ([row["component"]] if "component" in row else [])
            inputs.extend(c for c in inner if c.get("type") == 4)
        first = inputs[0]
        data = {
            "custom_id": modal["custom_id"],
            "components": [{"type": 1, "components": [
                {"type": 4, "custom_id": first["custom_id"], "value": value}]}],
        }
        message = self.messages.get(message_id) if message_id is not None else None
        payload = self._interaction(5, channel, user, data, message=message)
        await self.dispatch("INTERACTION_CREATE", payload)
        return str(payload["token"])

    async def answered(self, token: str, timeout: float = 5.0) -> dict[str, Any]:
        """Wait until interaction `token` got its initial response; return its state."""
        deadline = time.monotonic() + timeout
        while self.interactions[token]["responded"] is None:
            if time.monotonic() > deadline:
                raise AssertionError(f"interaction {token} never answered")
            await asyncio.sleep(0.01)
        return self.interactions[token]

    def message_with_button(self, pred: Callable[[str], bool]) -> tuple[int, str]:
        """The newest bot message with a button whose custom id matches `pred`."""
        for mid in sorted(self.messages, reverse=True):
            msg = self.messages[mid]
            for row in msg.get("components") or []:
                for comp in row.get("components") or []:
                    cid = comp.get("custom_id")
                    if cid and pred(cid):
                        return mid, cid
        raise AssertionError("no message with such a button")
