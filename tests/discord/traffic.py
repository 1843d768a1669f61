"""The stand-in Discord's traffic control: rate limits as Discord answers them, and injected outages.

Rate limits: 5 messages per channel per 5 s and 50 requests per second in all, times `rate_scale`,
answered with 429, `retry_after` and the X-RateLimit headers discord.py reads. Outages:
`break_next` (5xx), `rate_limit_next` (a 429 burst) and `stall_next` (a slow answer) hit the next
sending calls; the REST layer records each with `fault` set.
"""

from __future__ import annotations

import json
import math
import time
from collections.abc import Iterable
from typing import Any

import aiohttp
from aiohttp import web

from .model import BOT_TOKEN, Call
from .state import State

CHANNEL_LIMIT = (5, 5.0)  # messages per channel: 5 per 5 s (times rate_scale)
GLOBAL_LIMIT = (50, 1.0)  # all requests: 50 per second (times rate_scale)
# the REST calls outages hit: sending and editing messages, answering interactions
SENDING = frozenset({"message", "edit", "callback", "followup", "followup_edit", "followup_delete"})


class Traffic(State):
    """Rate limit buckets and the outages queued for the next sending calls."""

    def __init__(self) -> None:
        super().__init__()
        self._faults: list[tuple[str, float]] = []  # ("5xx", status) | ("429", retry_after) | ("stall", s)
        self._fault_kinds: frozenset[str] = SENDING
        self.rate_scale = 0.02  # rate limit windows times this (1.0: Discord's own)
        self._buckets: dict[str, tuple[float, int]] = {}  # bucket -> (reset at, used)

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
