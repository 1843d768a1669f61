"""The stand-in Discord's REST API under /api/v10: its routes and their checks, in Discord's order.

Every call is authorised, counted against the rate limits, perhaps answered by an injected outage,
then routed: users and DMs, channel messages (permissions, message checks, nonces), deleting
messages, interaction callbacks and webhooks, guild members (only with the members intent), and
application commands (checked as Discord checks them). Each call is recorded as a `Call`.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
from typing import Any

from aiohttp import web

from . import limits
from .interactions import Interactions
from .model import APP_ID, BOT_TOKEN, GUILD_MEMBERS, Call, json_response
from .traffic import GLOBAL_LIMIT, Traffic


class Rest(Interactions, Traffic):
    """The REST routes; `_rest` is the one aiohttp handler for /api/v10."""

    def __init__(self) -> None:
        super().__init__()
        self.commands: dict[str, list[dict[str, Any]]] = {}  # "global" | guild id -> payload
        self._nonces: dict[tuple[int, str], int] = {}  # (channel, nonce) -> message id

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
                return json_response(self.bot.payload())
            case ("GET", ["oauth2", "applications", "@me"]):
                return json_response({
                    "id": str(APP_ID), "name": "GameBot", "description": "", "icon": None,
                    "bot_public": True, "bot_require_code_grant": False,
                    "verify_key": "00", "flags": 0, "owner": {**self.bot.payload(), "bot": False},
                    "team": None, "summary": "", "rpc_origins": [],
                })
            case ("GET", ["gateway", "bot"]):
                return json_response({
                    "url": self.gateway_url, "shards": 1,
                    "session_start_limit": {"total": 1000, "remaining": 999,
                                            "reset_after": 0, "max_concurrency": 1},
                })
            case ("GET", ["gateway"]):
                return json_response({"url": self.gateway_url})
            case ("POST", ["users", "@me", "channels"]):
                uid = int(body["recipient_id"])
                user = self.users.get(uid)
                if user is None:
                    return self._error(400, 50033, "Invalid Recipient(s)")
                cid = self.dm_channels.setdefault(uid, self.next_id())
                self.dm_owner[cid] = uid
                return json_response({
                    "id": str(cid), "type": 1, "last_message_id": None,
                    "recipients": [user.payload()],
                })
            case ("GET", ["channels", cid]):
                cid_i = int(cid)
                if cid_i in self.dm_owner:
                    return json_response({"id": cid, "type": 1, "recipients": [
                        self.users[self.dm_owner[cid_i]].payload()]})
                return json_response(self._channel_payload(cid_i))
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
                    return json_response(self.messages[self._nonces[(cid_i, nonce)]])
                msg = self._message(cid_i, body, files)
                if nonce:
                    self._nonces[(cid_i, nonce)] = int(msg["id"])
                return json_response(msg)
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
                return json_response(old)
            case ("DELETE", ["channels", cid, "messages", mid]):
                call.channel_id = int(cid)
                msg = self.messages.get(int(mid))
                if msg is None:
                    return self._error(404, 10008, "Unknown Message")
                if msg["author"]["id"] != str(APP_ID) and (refused := self._may_not_delete(int(cid))) is not None:
                    return refused  # tg-ops: another's message needs Manage Messages (guild.py)
                self.messages.pop(int(mid), None)
                return web.Response(status=204)
            case ("POST", ["interactions", _iid, token, "callback"]):
                return self._callback(token, body, files, call)
            case ("POST", ["webhooks", _app, token]):
                return self._followup(token, body, files, call)
            case ("PATCH", ["webhooks", _app, token, "messages", mid]):
                return self._edit_reply(token, mid, body, files, call)
            case ("DELETE", ["webhooks", _app, token, "messages", mid]):
                return self._delete_reply(token, mid, call)
            case ("GET", ["webhooks", _app, token, "messages", "@original"]):
                return self._original(token)
            case ("GET", ["guilds", _gid, "members"]):
                intents = int(self.identified[-1].get("intents", 0)) if self.identified else 0
                if not intents & GUILD_MEMBERS:
                    return self._error(403, 50001, "Missing Access")
                return json_response([u.member() for u in (self.bot, *self.users.values())])
            case ("PUT", ["applications", _app, "commands"]):
                return self._refuse(call, limits.command_errors(body)) or json_response(
                    self._store_commands("global", body))
            case ("PUT", ["applications", _app, "guilds", gid, "commands"]):
                return self._refuse(call, limits.command_errors(body)) or json_response(
                    self._store_commands(gid, body))
            case ("GET", ["applications", _app, "commands"]):
                return json_response(self.commands.get("global", []))
        return self._error(404, 0, "404: Not Found (stand-in)")

    def _store_commands(self, key: str, payload: list[dict[str, Any]]) -> list[dict[str, Any]]:
        out = []
        for cmd in payload:
            out.append({**cmd, "id": str(self.next_id()), "application_id": str(APP_ID),
                        "version": "1", "default_member_permissions": None, "type": 1})
        self.commands[key] = out
        return out
