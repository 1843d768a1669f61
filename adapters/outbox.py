"""Busy chats within a platform's rate limits: the platform-neutral parts both adapters share.

Telegram (adapters/telegram/outbox.py) and Discord (adapters/discord/pacing.py) each keep their
platform's limits in a pacer of their own; what they share lives here and knows no platform:

- `spread_ready`: when a chat with `limit` sends per period may send next, spreading a busy
  chat's sends over the period (a send every few seconds rather than all at once and then a
  silent stretch).
- `take` and `Outbox`: one queue per chat, worked in order by one task per busy chat. While the
  next send waits for its slot, the replies that come meanwhile wait with it and go out as one
  message: plain texts are joined (up to the platform's length limit), and one message with
  buttons may close such a run (its keyboard stays under the whole text, so no button is lost).
  Pictures, files, over-long texts and messages with an `edit_key` go alone; a board (`edit_key`)
  pending twice is sent once, in its newest form, since it replaces itself anyway. Nothing is
  dropped.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections import deque
from collections.abc import Awaitable, Callable, Hashable, Sequence
from typing import Any, Protocol

from core.messages import Chat, Outbound

log = logging.getLogger(__name__)
Job = Callable[[], Awaitable[object]]  # a call that is not a message (e.g. a keyboard taken off)
Item = Outbound | Job
Entry = tuple[Item, "asyncio.Future[object]"]
Size = Callable[[Outbound], int]  # a message's length as the platform counts it
MERGE_SEPARATOR = "\n\n"
LOW_WAIT = 30.0  # seconds a low item (a keyboard taken off) waits at most for a group's replies


def spread_ready(times: Sequence[float], span: float, limit: int, burst: int) -> float:
    """When a chat may send next, given its sends in the last `span` seconds (oldest first):
    never more than `limit` in a span; with fewer than `burst` at once; past the burst the sends
    left in the span are spread over the time until its oldest send leaves it (and never closer
    than span / limit)."""
    n = len(times)
    if n >= limit:
        return times[n - limit] + span
    if n < burst:
        return 0.0
    gap = max(span / limit, (times[0] + span - times[-1]) / (limit - n + 1))
    return times[-1] + gap


def text_size(out: Outbound) -> int:
    return len(out.text)


def plain(out: Outbound, max_length: int, size: Size = text_size) -> bool:
    """A text alone to a chat: it may be joined with its neighbours."""
    return (isinstance(out.to, Chat) and not out.buttons and out.image is None and out.file is None
            and out.edit_key is None and out.fallback is None and 0 < size(out) <= max_length
            and bool(out.text.strip()))


def closes_run(out: Outbound, max_length: int, size: Size = text_size) -> bool:
    """A text with buttons (no picture, file or edit_key): it may end a run of joined texts, its
    keyboard under the whole message."""
    return (isinstance(out.to, Chat) and bool(out.buttons) and out.image is None
            and out.file is None and out.edit_key is None and 0 < size(out) <= max_length
            and bool(out.text.strip()))


def _joined_marked(run: list[Outbound]) -> str | None:
    """The joined messages' marked texts (core/messages.py), when any of them has one."""
    if all(o.marked is None for o in run):
        return None
    return MERGE_SEPARATOR.join(o.marked if o.marked is not None else o.text for o in run)


def take(queue: deque[Entry], max_length: int,
         size: Size = text_size) -> tuple[Item | None, list[asyncio.Future[object]]]:
    """The next send from the head of `queue` and the entries it answers: a run of plain texts to
    the same chat joined into one (ended by at most one text with buttons), or the head alone.
    None: the head was a board replaced by a newer version further back (nothing to send)."""
    head, future = queue.popleft()
    futures = [future]
    if not isinstance(head, Outbound):
        return head, futures
    if head.edit_key is not None:
        newer = any(isinstance(o, Outbound) and o.edit_key == head.edit_key and o.to == head.to
                    for o, _ in queue)
        return (None if newer else head), futures
    if not plain(head, max_length, size):
        return head, futures
    run = [head]
    total = size(head)
    buttons: tuple[tuple[Any, ...], ...] = ()
    while queue and not buttons:
        nxt, nxt_future = queue[0]
        if not isinstance(nxt, Outbound) or nxt.to != head.to or not (
                plain(nxt, max_length, size) or closes_run(nxt, max_length, size)):
            break
        grown = total + len(MERGE_SEPARATOR) + size(nxt)
        if grown > max_length:
            break
        queue.popleft()
        run.append(nxt)
        total = grown
        buttons = nxt.buttons
        futures.append(nxt_future)
    if len(run) == 1:
        return head, futures
    mention = tuple(dict.fromkeys(u for o in run for u in o.mention))  # all who must act
    named = {u: n for o in run for u, n in zip(o.mention, o.mention_names, strict=False)}
    return Outbound(to=head.to, text=MERGE_SEPARATOR.join(o.text for o in run), buttons=buttons,
                    marked=_joined_marked(run), mention=mention,
                    mention_names=tuple(named[u] for u in mention) if all(u in named for u in mention) else ()), futures


class Schedule(Protocol):
    """A platform's pacer, as the outbox asks it: seconds until `key` may send (0: now)."""

    def delay(self, key: Any) -> float: ...


def _same(chat_id: Hashable) -> Hashable:
    return chat_id


class Outbox:
    """One queue per chat, worked in order by one task per busy *group* of chats (module docstring).

    A group is the chats that share one budget (`group_of`: a Telegram group's forum topics are its; on
    Discord every channel is a group of its own). Its task serves the group's chats in turns, round robin:
    each chat that has something queued sends its next message (joined, as `take` joins) and goes to the
    back of the line — so in a busy forum no topic waits for another's backlog, and each gets the same
    share of the group's 20 messages a minute. Items posted `low` (a keyboard taken off) wait until none
    of the group's chats has a message queued, or `low_wait` seconds at most: they spend the budget the
    replies leave over.

    `post` returns at once with a future that resolves once the item has been sent (True when the
    message reached the chat). `close` lets what is queued go out, for at most `timeout`."""

    def __init__(self, deliver: Callable[[Outbound], Awaitable[bool]], pacer: Schedule, *,
                 max_length: int, size: Size = text_size, platform: str = "",
                 joins: Callable[[Hashable], bool] = lambda chat_id: True,
                 group_of: Callable[[Hashable], Hashable] = _same, low_wait: float = LOW_WAIT,
                 shown: Callable[[Hashable], str] = str) -> None:
        self._deliver = deliver
        self._shown = shown  # a chat as the log names it (a private chat's id is a person's: adapters/logged.py)
        self._joins = joins  # whether a chat's queued texts may go out as one message
        self._group_of = group_of
        self._low_wait = low_wait
        self.pacer = pacer
        self._max_length = max_length
        self._size = size
        self._platform = platform
        self._queues: dict[Hashable, deque[Entry]] = {}  # chat -> its queued messages (never empty)
        self._turns: dict[Hashable, deque[Hashable]] = {}  # group -> its chats with messages queued, in turn
        self._low: dict[Hashable, deque[tuple[Hashable, Entry, float]]] = {}  # group -> (chat, low item, when)
        self._workers: dict[Hashable, asyncio.Task[None]] = {}
        self.sends = 0  # messages or calls actually made
        self.items = 0  # items posted

    def post(self, chat_id: Hashable, item: Item, *, low: bool = False) -> asyncio.Future[object]:
        loop = asyncio.get_running_loop()
        future: asyncio.Future[object] = loop.create_future()
        group = self._group_of(chat_id)
        if low:
            self._low.setdefault(group, deque()).append((chat_id, (item, future), loop.time()))
        else:
            queue = self._queues.get(chat_id)
            if queue is None:
                queue = self._queues[chat_id] = deque()
                self._turns.setdefault(group, deque()).append(chat_id)
            queue.append((item, future))
        self.items += 1
        if group not in self._workers:
            self._workers[group] = loop.create_task(self._work(group))
        return future

    def pending(self) -> int:
        return sum(len(q) for q in self._queues.values()) + sum(len(q) for q in self._low.values())

    def _own_delay(self, chat_id: Hashable) -> float:
        """The chat's (its group's) own limits; a pacer that shares a bot-wide budget out in turns itself
        says so (`own_delay`) and is waited for there."""
        own = getattr(self.pacer, "own_delay", None)
        return float(own(chat_id)) if callable(own) else self.pacer.delay(chat_id)

    def _next(self, group: Hashable) -> tuple[Hashable, Item | None, list[asyncio.Future[object]]]:
        """The group's next send: a low item when nothing else waits (or it waited long enough), else the
        next chat in turn's next message; that chat goes to the back of the line if more is queued."""
        turns, low = self._turns.get(group, deque()), self._low.get(group, deque())
        if low and (not turns or asyncio.get_running_loop().time() - low[0][2] >= self._low_wait):
            chat_id, (item, future), _ = low.popleft()
            return chat_id, item, [future]
        chat_id = turns.popleft()
        queue = self._queues[chat_id]
        taken, futures = (take(queue, self._max_length, self._size) if self._joins(chat_id)
                          else take(queue, 0, self._size))  # nothing is plain at length 0
        if queue:
            turns.append(chat_id)
        else:
            del self._queues[chat_id]
        return chat_id, taken, futures

    async def _work(self, group: Hashable) -> None:
        try:
            while self._turns.get(group) or self._low.get(group):
                turns, low = self._turns.get(group), self._low.get(group)
                head = turns[0] if turns else low[0][0]  # type: ignore[index]
                while (wait := self._own_delay(head)) > 0:
                    await asyncio.sleep(wait)  # replies coming meanwhile join the queues
                chat_id, item, futures = self._next(group)
                result: object = True
                if item is not None:
                    self.sends += 1
                    try:
                        result = await (self._deliver(item) if isinstance(item, Outbound) else item())
                    except Exception as exc:  # the renderer survives failures; this is a bug
                        log.error("%s outbox send to chat %s failed: %s", self._platform, self._shown(chat_id),
                                  type(exc).__name__, exc_info=exc)
                        result = False
                for future in futures:
                    if not future.done():
                        future.set_result(result)
        finally:
            self._workers.pop(group, None)
            for chat_id in self._turns.pop(group, deque()):
                for _, future in self._queues.pop(chat_id, deque()):
                    future.cancel()
            for _, (_, future), _ in self._low.pop(group, deque()):
                future.cancel()

    async def close(self, timeout: float) -> None:
        """Send what is queued (at most `timeout` seconds), then stop."""
        workers = list(self._workers.values())
        if workers:
            _, late = await asyncio.wait(workers, timeout=timeout)
            if late:
                log.warning("%s outbox: %d messages not sent at shutdown", self._platform,
                            self.pending())
                for task in late:
                    task.cancel()
                with contextlib.suppress(asyncio.CancelledError):
                    await asyncio.gather(*late, return_exceptions=True)
