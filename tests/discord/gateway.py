"""The stand-in Discord's gateway: the websocket session, intents, RESUME and dispatched events.

IDENTIFY (refused with 4014 for a privileged intent the application lacks, 4004 for a wrong token)
is answered with READY and GUILD_CREATE; every event sent is kept per session, so a RESUME after
`drop_gateway` replays the events the session missed. Thread events are dispatched from here too.
"""

from __future__ import annotations

import asyncio
import itertools
import json
from typing import Any

from aiohttp import WSMsgType, web

from .guild import Guild
from .model import APP_ID, BOT_TOKEN, GUILD_ID, PRIVATE_THREAD, PUBLIC_THREAD


class Gateway(Guild):
    """Gateway connections and their sessions; `dispatch` sends an event to the bot."""

    def __init__(self) -> None:
        super().__init__()
        self.identified: list[dict[str, Any]] = []
        self.heartbeats = 0
        self._sockets: list[web.WebSocketResponse] = []
        self._seq = itertools.count(1)
        self._sessions: dict[str, list[dict[str, Any]]] = {}  # session id -> every event sent
        self._socket_session: dict[int, str] = {}  # id(ws) -> its session
        self._last_session: str | None = None
        self._reconnect = asyncio.Event()
        self._reconnect.set()
        self.resumes = 0
        self.refused_intents = 0  # privileged intents not enabled for the application (4014)
        self.identifies_refused = 0

    # ------------------------------------------------------------- sessions
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

    # ------------------------------------------------- thread events (see guild.py)
    # The bot, not invited to a private thread, is not told of it (THREAD_CREATE is "sent when a thread
    # is created, relevant to the current user, or when the current user is added to a thread",
    # https://discord.com/developers/docs/events/gateway-events#thread-create). A deleted thread:
    # THREAD_DELETE (https://discord.com/developers/docs/events/gateway-events#thread-delete: id,
    # guild_id, parent_id, type).
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
