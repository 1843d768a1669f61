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

Its parts: what it keeps and the waits on the recorded calls (standin_state.py, standin_calls.py: `Call`,
`Limits`), the objects it speaks in (standin_objects.py: `User`, `Chat`), updates and the webhook
(standin_updates.py), users and groups (standin_users.py, standin_identity.py, standin_membership.py,
forum.py), the bot's messages (standin_messages.py). This module is the HTTP server: its lifecycle,
the knobs of a test, and the dispatch of every call.
"""

from __future__ import annotations

import asyncio
import gc
import json
import re
import sys
from collections.abc import Callable, Iterable
from typing import Any

from aiohttp import web
from telegram import Message

from tests.telegram import botapi_rules as rules
from tests.telegram import standin_identity as identity
from tests.telegram import standin_membership as membership
from tests.telegram.botapi_rules import Refused
from tests.telegram.standin_calls import SENDING, Call, Limits, flood_wait
from tests.telegram.standin_messages import Messages
from tests.telegram.standin_objects import Chat, User
from tests.telegram.standin_users import Users

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


def _parse(key: str, value: Any) -> Any:
    if isinstance(value, str) and key in _JSON_PARAMS:
        try:
            return json.loads(value)
        except ValueError:
            return value
    return value


class StandIn(Users, Messages):
    """The fake Bot API server. `await start()`, use, `await stop()`."""

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
            retry_after = flood_wait(self._windows, self.limits, params.get("chat_id"))
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
        except Refused as exc:
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

    async def _api_getMe(self, params: dict[str, Any]) -> Any:
        return {**self.bot, "can_read_all_group_messages": not self.privacy}

    async def _api_setMyCommands(self, params: dict[str, Any]) -> Any:
        """As Telegram checks it: at most 100 commands, each named [a-z0-9_]{1,32} with a description of
        1–256 characters; a language code of two letters (or none)."""
        commands = params.get("commands")
        if isinstance(commands, str):
            commands = json.loads(commands)
        if not isinstance(commands, list) or len(commands) > 100:
            raise Refused(400, "Bad Request: too many commands")
        for cmd in commands:
            name, text = cmd.get("command", ""), cmd.get("description", "")
            if not re.fullmatch(r"[a-z0-9_]{1,32}", str(name)):
                raise Refused(400, "Bad Request: BOT_COMMAND_INVALID")
            if not 1 <= len(str(text)) <= 256:
                raise Refused(400, "Bad Request: BOT_COMMAND_DESCRIPTION_INVALID")
        lang = params.get("language_code") or ""
        if lang and not re.fullmatch(r"[a-z]{2}", str(lang)):
            raise Refused(400, "Bad Request: invalid language code")
        return True

    async def _api_close(self, params: dict[str, Any]) -> Any:
        return True

    async def _api_logOut(self, params: dict[str, Any]) -> Any:
        return True


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
