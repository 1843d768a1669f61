"""The TV page's server-sent stream read as the page reads it: one parser for the benches (bench/tv.py,
bench/tv_flood.py) — no App, so that a bench's parent process stays without the bot."""

from __future__ import annotations

import json
from collections.abc import AsyncIterator
from typing import Any

import aiohttp


async def states(resp: aiohttp.ClientResponse) -> AsyncIterator[dict[str, Any]]:
    """Each `state` event of a page's server-sent stream, as the page reads it (one parser for the benches)."""
    kind, data = "", ""
    async for raw in resp.content:
        line = raw.decode().rstrip("\r\n")
        if line.startswith("event:"):
            kind = line[6:].strip()
        elif line.startswith("data:"):
            data = line[5:].strip()
        elif not line and kind == "state":
            state: dict[str, Any] = json.loads(data)
            yield state
            kind = data = ""
