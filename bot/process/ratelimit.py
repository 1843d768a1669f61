"""Per-user flood control: a token bucket per (platform, user) on an injected clock.

A user who floods gets one polite notice when the bucket first runs dry, and then silence
until it refills; nobody else is slowed down.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass


@dataclass
class _Bucket:
    tokens: float
    stamp: float
    warned: bool = False


class RateLimiter:
    def __init__(self, rate: float, burst: int, clock: Callable[[], float], max_users: int = 100_000) -> None:
        """`rate` inbounds per second on average, `burst` at once; rate <= 0 turns it off."""
        self.rate = rate
        self.burst = burst
        self.clock = clock
        self.max_users = max_users
        self._buckets: dict[tuple[str, str], _Bucket] = {}

    def check(self, platform: str, user_id: str) -> str:
        """"ok", "warn" (the first refusal: tell the user once) or "drop" (ignore silently)."""
        if self.rate <= 0:
            return "ok"
        now = self.clock()
        key = (platform, user_id)
        b = self._buckets.get(key)
        if b is None:
            if len(self._buckets) >= self.max_users:
                self._forget_full(now)
            b = self._buckets[key] = _Bucket(float(self.burst), now)
        b.tokens = min(float(self.burst), b.tokens + (now - b.stamp) * self.rate)
        b.stamp = now
        if b.tokens >= 1.0:
            b.tokens -= 1.0
            b.warned = False
            return "ok"
        if b.warned:
            return "drop"
        b.warned = True
        return "warn"

    def _forget_full(self, now: float) -> None:
        """Drop buckets that have refilled completely: they hold no information."""
        full = [k for k, b in self._buckets.items() if b.tokens + (now - b.stamp) * self.rate >= self.burst]
        for k in full:
            del self._buckets[k]
        if len(self._buckets) >= self.max_users:
            self._buckets.clear()
