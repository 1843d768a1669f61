"""Helpers of the TV page's tests: a free port, the link /tv sent privately, and a server-sent-events reader
that keeps every byte it received (for the leak scan)."""

from __future__ import annotations

import asyncio
import json
import re
import socket
from dataclasses import dataclass, field
from typing import Any

import aiohttp

from core.messages import Actor, Response

LINK = re.compile(r"https?://\S+/tv/[A-Za-z0-9_-]+")


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def private_link(r: Response, user_id: str) -> str:
    """The TV link in the private answer to `user_id` (and it is in no group message)."""
    found = [m for m in r.messages if isinstance(m.to, Actor) and m.to.user_id == user_id and LINK.search(m.text)]
    assert found, f"no private TV link in {r}"
    for m in r.messages:
        if not isinstance(m.to, Actor):
            assert not LINK.search(m.text), f"a TV link in a group: {m.text}"
        if m.fallback is not None:
            assert not LINK.search(m.fallback.text), "a TV link in the group fallback"
    match = LINK.search(found[0].text)
    assert match is not None
    return match.group(0)


@dataclass
class Events:
    """One open event stream of a TV page."""

    response: aiohttp.ClientResponse
    raw: list[str] = field(default_factory=list)  # every line received, comments included
    _pending: asyncio.Queue[tuple[str, Any]] = field(default_factory=asyncio.Queue)
    _reader: asyncio.Task[None] | None = None

    def start(self) -> None:
        self._reader = asyncio.create_task(self._read())

    async def _read(self) -> None:
        kind, data = "message", list[str]()
        async for line_bytes in self.response.content:
            line = line_bytes.decode().rstrip("\r\n")
            self.raw.append(line)
            if not line:
                if data:
                    await self._pending.put((kind, json.loads("\n".join(data))))
                kind, data = "message", []
            elif line.startswith("event:"):
                kind = line[6:].strip()
            elif line.startswith("data:"):
                data.append(line[5:].lstrip())
        await self._pending.put(("closed", None))

    async def next(self, timeout: float = 10.0) -> tuple[str, Any]:
        return await asyncio.wait_for(self._pending.get(), timeout)

    async def until(self, kind: str, test: Any = None, timeout: float = 10.0) -> Any:
        """The first event of `kind` (whose data passes `test`), skipping others."""
        loop = asyncio.get_running_loop()
        end = loop.time() + timeout
        while True:
            got, data = await self.next(max(0.01, end - loop.time()))
            if got == kind and (test is None or test(data)):
                return data
            if got == "closed":
                raise AssertionError(f"the stream closed before a {kind} event")

    def seen(self) -> list[tuple[str, Any]]:
        """The events already received and not yet taken."""
        out = []
        while not self._pending.empty():
            out.append(self._pending.get_nowait())
        return out

    async def close(self) -> None:
        if self._reader is not None:
            self._reader.cancel()
        self.response.close()


async def open_events(session: aiohttp.ClientSession, link: str) -> Events:
    response = await session.get(link + "/events", timeout=aiohttp.ClientTimeout(total=None, sock_read=None))
    assert response.status == 200, response.status
    assert response.headers["Content-Type"].startswith("text/event-stream")
    events = Events(response)
    events.start()
    return events


def numbers(view: dict[str, Any]) -> dict[str, str]:
    """The members' numbers a view shows, by name."""
    return {m["name"]: m["number"] for m in view["game"]["members"]}
