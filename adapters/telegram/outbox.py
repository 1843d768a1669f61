"""Busy groups within Telegram's flood limits: pacing every send, and one outbox per group.

Telegram lets a bot send about 20 messages a minute to one group, one a second to one private
chat and 30 a second overall; beyond that it answers 429 with `retry_after`. A group where a few
players guess quickly asks for more than 20 replies a minute, and a reply per guess then waits
longer and longer. Two parts keep replies prompt without breaking the limits:

- `Pacer` (python-telegram-bot's rate limiter for the bot) spaces the sends: in a group at most
  20 in any minute (plus a small margin for clocks and the network), spread so that a busy group
  gets a send about every 3 seconds rather than 20 at once and then a silent minute; after a quiet
  minute the first few go at once. A private chat gets one a second, the bot 30 a second. A 429
  that comes anyway holds that chat back for the time Telegram asks and is retried.
- `Outbox` (shared with Discord: adapters/outbox.py) sends a group's messages in order from one
  queue. While the next send waits for its slot, the replies that come meanwhile wait with it and
  go out as one message: plain texts are joined (up to Telegram's 4,096 units), and one message
  with buttons may close such a run (its keyboard stays under the whole text, so no button is
  lost). Pictures, files, over-long texts and messages with an `edit_key` go alone; a board
  (`edit_key`) pending twice is sent once, in its newest form, since it replaces itself anyway.
  Nothing is dropped.
"""

from __future__ import annotations

import asyncio
import logging
import time
from collections import OrderedDict, deque
from collections.abc import Awaitable, Callable, Coroutine
from dataclasses import dataclass
from typing import Any

from telegram.error import RetryAfter
from telegram.ext import BaseRateLimiter

from adapters import outbox as shared
from adapters.outbox import Entry, Item, spread_ready
from adapters.telegram.logsafe import shown
from adapters.telegram.render import MAX_TEXT, length
from core.messages import TABLE_SEP, Outbound, group_of

log = logging.getLogger(__name__)
ChatKey = int | str
MAX_CHATS = 10_000  # chats whose recent sends are remembered
PACED_PREFIXES = ("send", "edit", "copy", "forward")  # Bot API methods that post or change a message


@dataclass(frozen=True)
class Pacing:
    """Telegram's flood limits as the bot keeps them. `time_scale` shrinks every period (tests)."""

    group_limit: int = 20  # messages per group ...
    group_period: float = 60.0  # ... in any this many seconds
    group_burst: int = 3  # a group with fewer sends than this in the period may send at once
    private_gap: float = 1.0  # seconds between two sends to one private chat
    overall_limit: int = 30  # messages of the whole bot ...
    overall_period: float = 1.0  # ... in any this many seconds
    margin: float = 0.01  # every period taken this much longer (clocks, network jitter)
    max_retries: int = 5  # 429s retried per call, each after the time Telegram asks for
    time_scale: float = 1.0

    def period(self, seconds: float) -> float:
        return seconds * (1.0 + self.margin) * self.time_scale


def is_group_key(chat_id: ChatKey) -> bool:
    """Groups and channels: negative ids and "@channel" names (as python-telegram-bot tells them)."""
    return isinstance(chat_id, str) or chat_id < 0


class Pacer(BaseRateLimiter[int]):
    """Spaces the bot's sends by Telegram's flood limits (module docstring); retries 429s."""

    def __init__(self, pacing: Pacing | None = None) -> None:
        self.pacing = pacing or Pacing()
        self._sent: OrderedDict[ChatKey, deque[float]] = OrderedDict()  # chat -> recent send times
        self._overall: deque[float] = deque()
        self._held: dict[ChatKey, float] = {}  # chat -> monotonic time a 429 holds it back until
        self._turns: asyncio.Lock | None = None  # the overall budget, taken in turns (`acquire`)

    async def initialize(self) -> None:
        """Nothing to set up."""

    async def shutdown(self) -> None:
        """Nothing to release."""

    # ------------------------------------------------------------ the schedule

    def delay(self, chat_id: ChatKey, now: float | None = None, overall: bool = True) -> float:
        """Seconds until one more send to `chat_id` keeps every limit (0: now); with `overall` False the
        chat's own limits only. A forum topic's outbox ("<group>/<topic>") waits for its group: Telegram
        counts a topic's messages as the group's."""
        if isinstance(chat_id, str) and TABLE_SEP in chat_id:
            chat_id = _chat_key(group_of(chat_id)) or chat_id
        now = time.monotonic() if now is None else now
        p = self.pacing
        ready = max(self._held.get(chat_id, 0.0), self._overall_ready(now) if overall else 0.0)
        times = self._recent(chat_id, now)
        if times:
            if is_group_key(chat_id):
                ready = max(ready, self._group_ready(times))
            else:
                ready = max(ready, times[-1] + p.period(p.private_gap))
        return max(0.0, ready - now)

    def _group_ready(self, times: deque[float]) -> float:
        """When a group may send next: never more than `group_limit` in a period; past the burst,
        the sends left in the period are spread over the time until its oldest send leaves it
        (and never closer than period / limit), so a busy group is answered every few seconds
        instead of all at once and then not for the rest of the minute."""
        p = self.pacing
        return spread_ready(times, p.period(p.group_period), p.group_limit, p.group_burst)

    def _overall_ready(self, now: float) -> float:
        p = self.pacing
        span = p.period(p.overall_period)
        while self._overall and self._overall[0] <= now - span:
            self._overall.popleft()
        if len(self._overall) >= p.overall_limit:
            return self._overall[len(self._overall) - p.overall_limit] + span
        return 0.0

    def _recent(self, chat_id: ChatKey, now: float) -> deque[float]:
        times = self._sent.get(chat_id)
        if times is None:
            return deque()
        p = self.pacing
        span = p.period(p.group_period if is_group_key(chat_id) else p.private_gap)
        while times and times[0] <= now - span:
            times.popleft()
        return times

    def _record(self, chat_id: ChatKey, now: float) -> None:
        times = self._sent.get(chat_id)
        if times is None:
            times = self._sent[chat_id] = deque()
            while len(self._sent) > MAX_CHATS:
                self._sent.popitem(last=False)
        self._sent.move_to_end(chat_id)
        times.append(now)
        self._overall.append(now)

    def own_delay(self, chat_id: ChatKey) -> float:
        """Seconds until the chat's own limits allow a send (the outbox waits for these; the bot's overall
        budget is shared out in turns by `acquire`)."""
        return self.delay(chat_id, overall=False)

    async def acquire(self, chat_id: ChatKey) -> None:
        """Wait for a slot to send to `chat_id` and take it: first the chat's own limits, then — in turns,
        first come first served (an asyncio.Lock wakes its waiters in order) — the bot's overall 30 a
        second, so that many busy groups share it fairly instead of racing for each free slot."""
        if self._turns is None:
            self._turns = asyncio.Lock()
        while True:
            while (wait := self.delay(chat_id, overall=False)) > 0:
                await asyncio.sleep(wait)  # the chat's own limits (and a 429's hold): nobody else waits for it
            async with self._turns:
                while self.delay(chat_id, overall=False) <= 0 and (wait := self.delay(chat_id)) > 0:
                    await asyncio.sleep(wait)  # the overall budget: the one in turn waits, the rest behind it
                if self.delay(chat_id, overall=False) <= 0:
                    self._record(chat_id, time.monotonic())
                    return
            # held meanwhile (a 429): leave the line to the others and wait outside it

    def hold(self, chat_id: ChatKey, seconds: float) -> None:
        """Telegram asked to wait (429): no send to `chat_id` before then."""
        until = time.monotonic() + seconds
        self._held[chat_id] = max(self._held.get(chat_id, 0.0), until)
        if len(self._held) > MAX_CHATS:
            now = time.monotonic()
            self._held = {k: v for k, v in self._held.items() if v > now}

    # ------------------------------------------------------------ python-telegram-bot's hook

    async def process_request(
        self,
        callback: Callable[..., Coroutine[Any, Any, Any]],
        args: Any,
        kwargs: dict[str, Any],
        endpoint: str,
        data: dict[str, Any],
        rate_limit_args: int | None,
    ) -> Any:
        chat_id = _chat_key(data.get("chat_id"))
        paced = chat_id is not None and endpoint.startswith(PACED_PREFIXES)
        retries = rate_limit_args if rate_limit_args is not None else self.pacing.max_retries
        for attempt in range(retries + 1):
            if paced:
                assert chat_id is not None
                await self.acquire(chat_id)
            try:
                return await callback(*args, **kwargs)
            except RetryAfter as exc:
                if attempt == retries:
                    log.error("Telegram flood control: %s to chat %s given up after %d retries",
                              endpoint, shown(chat_id), retries)
                    raise
                wait = exc._retry_after.total_seconds() + 0.1  # whole seconds, as Telegram sends
                log.info("Telegram flood control: %s to chat %s retried in %.1f s", endpoint, shown(chat_id), wait)
                if chat_id is not None:
                    self.hold(chat_id, wait)
                if not paced:
                    await asyncio.sleep(wait)
        raise AssertionError("unreachable")  # pragma: no cover


def _chat_key(raw: object) -> ChatKey | None:
    if raw is None:
        return None
    try:
        key: int = int(raw)  # type: ignore[call-overload]
        return key
    except (TypeError, ValueError):
        return str(raw)


# ---------------------------------------------------------------- coalescing (adapters/outbox.py)


def _size(out: Outbound) -> int:
    return length(out.text)  # UTF-16 code units, as Telegram counts


def plain(out: Outbound) -> bool:
    """A text alone to a chat: it may be joined with its neighbours."""
    return shared.plain(out, MAX_TEXT, _size)


def closes_run(out: Outbound) -> bool:
    """A text with buttons: it may end a run of joined texts, its keyboard under the whole message."""
    return shared.closes_run(out, MAX_TEXT, _size)


def take(queue: deque[Entry]) -> tuple[Item | None, list[asyncio.Future[object]]]:
    """The next send from the head of `queue` (adapters/outbox.py `take`, by Telegram's length)."""
    return shared.take(queue, MAX_TEXT, _size)


class Outbox(shared.Outbox):
    """One queue per group, worked in order by one task per busy group (module docstring)."""

    def __init__(self, deliver: Callable[[Outbound], Awaitable[bool]], pacer: Pacer) -> None:
        super().__init__(deliver, pacer, max_length=MAX_TEXT, size=_size, platform="Telegram",
                         joins=lambda chat_id: isinstance(chat_id, str) or int(str(chat_id)) < 0,
                         group_of=budget_of, shown=lambda chat_id: shown(str(chat_id)))


def budget_of(chat_id: object) -> object:
    """Whose budget a chat's sends spend: a forum topic's ("<group>/<topic>") is its group's (Telegram
    counts a topic's messages as the group's 20 a minute), the rest their own."""
    if isinstance(chat_id, str) and TABLE_SEP in chat_id:
        return _chat_key(group_of(chat_id)) or chat_id
    return chat_id
