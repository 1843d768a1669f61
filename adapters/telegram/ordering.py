"""Updates of different chats and forum topics are handled at the same time; each one's strictly in order.

PTB either handles one update at a time (every chat waits for the slowest) or all at once (a
chat's replies can overtake each other). A topic's moves and answers must stay in order, but one
busy topic — or one slow update, or one Bot API retry pause — must not hold up any other topic,
chat or button press (issue 35).

- The order is kept per *topic*: a forum topic (its `message_thread_id`, where the Bot API marks the
  message `is_topic_message`) is a line of its own; General, a group without topics and a private chat
  are each one line. All of a group's topics are handled side by side.
- PTB holds its concurrency semaphore (`max_concurrent_updates`) around `do_process_update`. Here that
  call only puts the update at the end of its line and returns, so an update waiting for its
  predecessor holds no slot: a hundred updates queued behind one slow update of one chat keep no other
  chat waiting. At most `max_concurrent_updates` updates *run* at once (`_running`), each taken only
  when it is at the head of its line.
- Sending is not part of the line: the adapter hands every reply to its chat's outbox
  (adapters/telegram/outbox.py, adapters/outbox.py), which sends them in order — an upload of
  several seconds delays that chat's later replies, never its next update, nor anyone else's.
- Nor is heavy work: a handler left with slow work that needs no order (the solver's /analyse and
  /hint, having read the game they are about) steps aside (core/lines.py): its line moves on to the
  next update at once, and gives back its running slot, while that handler finishes by itself; its
  answer goes to the outbox when ready. So a guess typed right after an /analyse in the same topic
  is answered at its normal time.
"""

from __future__ import annotations

import asyncio
import contextlib
import inspect
import logging
from collections import deque
from collections.abc import Awaitable, Hashable
from typing import Any

from telegram import Message, Update
from telegram.ext import BaseUpdateProcessor

from adapters.telegram.topics import topic_of
from core.lines import LEAVE

log = logging.getLogger(__name__)
MAX_CONCURRENT_UPDATES = 64


def chat_key(update: object) -> Hashable:
    """The line an update belongs to: (chat, forum topic or None); the user for chat-less updates;
    None for neither."""
    if not isinstance(update, Update):
        return None
    chat = update.effective_chat
    if chat is None:
        return update.effective_user.id if update.effective_user is not None else None
    message = update.effective_message  # a button press: the message it is under
    topic = topic_of(message) if isinstance(message, Message) else None
    return (chat.id, topic)


class ChatOrderedUpdates(BaseUpdateProcessor):
    """Runs each update after the previous update of the same chat or topic has finished (module
    docstring); different lines at the same time, at most `max_concurrent_updates` running.

    PTB starts one task per update in arrival order and its semaphore is first-in first-out (and is
    held here only for the moment it takes to queue the update), so the order in which updates reach
    `do_process_update` is the arrival order."""

    def __init__(self, max_concurrent_updates: int = MAX_CONCURRENT_UPDATES) -> None:
        super().__init__(max_concurrent_updates)
        self._lines: dict[Hashable, deque[Awaitable[Any]]] = {}
        self._workers: dict[Hashable, asyncio.Task[None]] = {}
        self._aside: set[asyncio.Task[Any]] = set()  # workers whose handler stepped aside, finishing it
        self._running: asyncio.Semaphore | None = None

    @property
    def waiting(self) -> int:
        """Updates queued behind their line's running one (for tests and benchmarks)."""
        return sum(len(line) for line in self._lines.values())

    async def do_process_update(self, update: object, coroutine: Awaitable[Any]) -> None:
        key = chat_key(update)
        line = self._lines.get(key)
        if line is None:
            line = self._lines[key] = deque()
        line.append(coroutine)
        if key not in self._workers:
            self._workers[key] = asyncio.get_running_loop().create_task(self._work(key), name="tg-line")

    async def _work(self, key: Hashable) -> None:
        line = self._lines[key]
        if self._running is None:
            self._running = asyncio.Semaphore(self.max_concurrent_updates)
        running = self._running
        me = asyncio.current_task()
        assert me is not None
        stepped = False

        def leave() -> None:
            """The running handler stepped aside (core/lines.py): it goes on in this task, and the
            rest of the line in a new one, at once; its running slot is given back."""
            nonlocal stepped
            if stepped or self._workers.get(key) is not me:
                return
            stepped = True
            running.release()
            line.popleft()
            self._aside.add(me)
            if line:
                self._workers[key] = asyncio.get_running_loop().create_task(self._work(key), name="tg-line")
            else:
                self._forget(key, line, me)

        try:
            while line and not stepped:
                coroutine = line[0]
                await running.acquire()
                entered = LEAVE.set(leave)
                try:
                    await coroutine
                except asyncio.CancelledError:
                    raise
                except Exception as exc:  # PTB's own error handlers ran already; this is a bug
                    log.error("Telegram update failed: %s", type(exc).__name__, exc_info=exc)
                finally:
                    LEAVE.reset(entered)
                    if not stepped:
                        running.release()
                        line.popleft()
        finally:
            if stepped:  # the line is another worker's now
                self._aside.discard(me)
            else:
                for left in line:  # cancelled (shutdown): no "never awaited" warnings
                    _close(left)
                line.clear()
                self._forget(key, line, me)

    def _forget(self, key: Hashable, line: deque[Awaitable[Any]], worker: asyncio.Task[Any]) -> None:
        if self._workers.get(key) is worker:
            del self._workers[key]
        if self._lines.get(key) is line:
            del self._lines[key]

    async def drain(self, timeout: float) -> None:
        """Let the updates queued and running finish (at most `timeout` seconds), then cancel the rest."""
        workers = [*self._workers.values(), *self._aside]
        if not workers:
            return
        _, late = await asyncio.wait(workers, timeout=timeout)
        if late:
            log.warning("Telegram: %d chats' updates not handled at shutdown", len(late))
            for task in late:
                task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await asyncio.gather(*late, return_exceptions=True)

    async def initialize(self) -> None:
        """Nothing to set up."""

    async def shutdown(self) -> None:
        """What still runs is the Application's updates: given a moment, then cancelled."""
        await self.drain(5.0)


def _close(coroutine: Awaitable[Any]) -> None:
    if inspect.iscoroutine(coroutine) and inspect.getcoroutinestate(coroutine) == inspect.CORO_CREATED:
        coroutine.close()
