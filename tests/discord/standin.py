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

Its layers, each a module beside this one: model.py (ids, bits, `User`, `Call`), state.py
(users, messages, recorded calls, refusals), guild.py (channels, threads, permissions),
gateway.py (websocket sessions, intents, events), interactions.py (interactions and their
answers), traffic.py (rate limits, outages), rest.py (the REST routes). `StandIn` here serves
them and lets users post and edit messages.
"""

from __future__ import annotations

import asyncio
import re
from collections.abc import Callable
from typing import Any

from aiohttp import web

from .model import MESSAGE_CONTENT, User
from .rest import Rest


class StandIn(Rest):
    """Stand-in Discord server: REST + gateway on 127.0.0.1, random port."""

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

    # ------------------------------------------------------------ users act
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

    def messages_by_content(self, content: str) -> int:
        """The id of the newest message with exactly this content."""
        return max(mid for mid, msg in self.messages.items() if msg["content"] == content)

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
