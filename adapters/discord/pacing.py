"""Busy channels within Discord's rate limits: pacing every channel post, one outbox per channel.

Discord lets a bot post (or edit) about 5 messages in 5 seconds in one channel; beyond that it
answers 429 and discord.py waits the bucket out, so in a channel where a few players guess
quickly (a reply per guess) every reply waits longer and longer. Two parts keep replies prompt:

- `Pacer` spaces the posts and edits in each channel (a DM is a channel too): at most 5 in any
  5 s (plus a margin for clocks and the network), spread so that a busy channel gets a post about
  every second rather than 5 at once and then a silent stretch; after a quiet spell the first few
  go at once. The renderer takes a slot before every channel call; discord.py still waits out a
  429 that comes anyway (e.g. another process posting as the bot) and the renderer's retries
  stay as they are (render.py).
- `Outbox` (adapters/outbox.py, shared with Telegram) sends a channel's messages in order from
  one queue. While the next post waits for its slot, the replies that come meanwhile wait with it
  and go out as one message: plain texts are joined (up to Discord's 2,000 characters), and one
  message with buttons may close such a run (its buttons stay under the whole text). Pictures,
  files, over-long texts and boards (`edit_key`) go alone; a board pending twice is sent once, in
  its newest form. Nothing is dropped.

Interaction responses and followups (slash commands, ephemeral answers) are not channel posts:
they go out at once, unpaced and never joined.
"""

from __future__ import annotations

import asyncio
import time
from collections import OrderedDict, deque
from collections.abc import Awaitable, Callable
from dataclasses import dataclass

from adapters import outbox as shared
from core.messages import Outbound

from .markdown import MAX_CONTENT, content

MAX_CHANNELS = 10_000  # channels whose recent posts are remembered


@dataclass(frozen=True)
class Pacing:
    """Discord's channel limit as the bot keeps it. `time_scale` shrinks every period (tests)."""

    channel_limit: int = 5  # posts and edits per channel ...
    channel_period: float = 5.0  # ... in any this many seconds
    burst: int = 3  # a channel with fewer posts than this in the period may post at once
    margin: float = 0.02  # every period taken this much longer (clocks) ...
    slack: float = 0.1  # ... plus this many seconds, not scaled (network jitter)
    time_scale: float = 1.0

    @property
    def span(self) -> float:
        return self.channel_period * (1.0 + self.margin) * self.time_scale + self.slack


class Pacer:
    """Spaces each channel's posts by Discord's rate limit (module docstring)."""

    def __init__(self, pacing: Pacing | None = None) -> None:
        self.pacing = pacing or Pacing()
        self._sent: OrderedDict[int, deque[float]] = OrderedDict()  # channel -> recent post times

    def delay(self, channel_id: int, now: float | None = None) -> float:
        """Seconds until one more post to `channel_id` keeps the limit (0: now)."""
        now = time.monotonic() if now is None else now
        times = self._recent(channel_id, now)
        if not times:
            return 0.0
        p = self.pacing
        return max(0.0, shared.spread_ready(times, p.span, p.channel_limit, p.burst) - now)

    def _recent(self, channel_id: int, now: float) -> deque[float]:
        times = self._sent.get(channel_id)
        if times is None:
            return deque()
        span = self.pacing.span
        while times and times[0] <= now - span:
            times.popleft()
        return times

    def record(self, channel_id: int, now: float) -> None:
        times = self._sent.get(channel_id)
        if times is None:
            times = self._sent[channel_id] = deque()
            while len(self._sent) > MAX_CHANNELS:
                self._sent.popitem(last=False)
        self._sent.move_to_end(channel_id)
        times.append(now)

    async def acquire(self, channel_id: int) -> None:
        """Wait for a slot to post in `channel_id` and take it."""
        while (wait := self.delay(channel_id)) > 0:
            await asyncio.sleep(wait)
        self.record(channel_id, time.monotonic())


def size(out: Outbound) -> int:
    """A message's length as Discord counts it: its content, parameters made safe (markdown.py)."""
    return len(content(out))


class Outbox(shared.Outbox):
    """One queue per channel, worked in order by one task per busy channel (module docstring)."""

    def __init__(self, deliver: Callable[[Outbound], Awaitable[bool]], pacer: Pacer) -> None:
        super().__init__(deliver, pacer, max_length=MAX_CONTENT, size=size, platform="Discord")
