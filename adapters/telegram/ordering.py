"""Updates of different chats are handled at the same time; one chat's updates strictly in order.

PTB either handles one update at a time (every chat waits for the slowest) or all at once (a
chat's replies can overtake each other). A group's moves and answers must stay in order, but
one busy group — or one Bot API retry pause — must not hold up all the others.
"""

from __future__ import annotations

import asyncio
import inspect
from collections.abc import Awaitable
from typing import Any

from telegram import Update
from telegram.ext import BaseUpdateProcessor

MAX_CONCURRENT_UPDATES = 64


def chat_key(update: object) -> int | None:
    """The chat an update belongs to (the user for chat-less updates; None for neither)."""
    if not isinstance(update, Update):
        return None
    if update.effective_chat is not None:
        return update.effective_chat.id
    return update.effective_user.id if update.effective_user is not None else None


class ChatOrderedUpdates(BaseUpdateProcessor):
    """Runs each update after the previous update of the same chat has finished.

    PTB starts one task per update in arrival order and its semaphore is first-in first-out,
    so the order in which updates reach `do_process_update` is the arrival order; each update
    queues behind its chat's latest one before its first await.
    """

    def __init__(self, max_concurrent_updates: int = MAX_CONCURRENT_UPDATES) -> None:
        super().__init__(max_concurrent_updates)
        self._latest: dict[int | None, asyncio.Event] = {}  # chat -> set when its newest update is done

    async def do_process_update(self, update: object, coroutine: Awaitable[Any]) -> None:
        key = chat_key(update)
        before = self._latest.get(key)
        done = self._latest[key] = asyncio.Event()
        try:
            if before is not None:
                await before.wait()
            await coroutine
        finally:
            if inspect.iscoroutine(coroutine) and inspect.getcoroutinestate(coroutine) == inspect.CORO_CREATED:
                coroutine.close()  # cancelled before it ran: no "never awaited" warning
            done.set()
            if self._latest.get(key) is done:
                del self._latest[key]

    async def initialize(self) -> None:
        """Nothing to set up."""

    async def shutdown(self) -> None:
        """Nothing to release: the updates in progress belong to the Application."""
