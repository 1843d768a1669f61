"""The TV pages' live feed in one process: who watches which chat, and the nudge that a chat changed.

A saved Kegeln move (or a new TV token) calls `changed(svc, platform, chat)`; on PostgreSQL the move's
own transaction also sends a NOTIFY (bot/web/pgnotify.py), so a page served by another process hears it
too. The feed only nudges: each watched chat's `Channel` then reads what the group sees (bot/web/view.py)
once for all its pages, and sends it only where it changed — so a nudge heard twice costs one read.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import weakref
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from typing import Any

log = logging.getLogger("bot.web")

Key = tuple[str, str]  # (platform, chat id)
QUEUE = 16  # events a slow page may lag behind before it is sent only the newest state
MAX_PAGES = 10  # open pages per chat and process: a club has a TV or two; a leaked link cannot open thousands


class TooManyPages(Exception):
    """The chat has `MAX_PAGES` pages open already."""


@dataclass(eq=False)
class Watcher:
    """One open page: its token (a rotated token ends it) and the events waiting to be sent to it."""

    token: str
    queue: asyncio.Queue[tuple[str, Any]] = field(default_factory=lambda: asyncio.Queue(QUEUE))

    def put(self, kind: str, data: Any) -> None:
        if self.queue.full():  # a page that does not keep up gets the newest state, not a backlog
            while not self.queue.empty():
                self.queue.get_nowait()
        self.queue.put_nowait((kind, data))


# what a channel reads on a nudge: the chat's current token and its view (a JSON-able dict)
Reader = Callable[[Key], Awaitable[tuple[str | None, dict[str, Any]]]]
# the moment between two views worth a short celebration (alle Neune, Pumpe), or None
Moment = Callable[[dict[str, Any] | None, dict[str, Any]], dict[str, Any] | None]


class Channel:
    """One watched chat: its pages, the last view sent, and one refresh at a time (nudges coalesce)."""

    def __init__(self, key: Key, read: Reader, moment: Moment) -> None:
        self.key, self._read, self._moment = key, read, moment
        self.watchers: set[Watcher] = set()
        self.view: dict[str, Any] | None = None
        self._dirty = False
        self._task: asyncio.Task[None] | None = None

    def nudge(self) -> None:
        self._dirty = True
        if self._task is None or self._task.done():
            self._task = asyncio.create_task(self._refresh())

    async def _refresh(self) -> None:
        while self._dirty:
            self._dirty = False
            try:
                token, view = await self._read(self.key)
            except Exception:
                log.exception("the TV page of %s:%s could not be read", *self.key)
                continue
            for w in list(self.watchers):
                if w.token != token:  # /tv new: the old link stops at once
                    w.put("gone", {})
                    self.watchers.discard(w)
            if view == self.view:
                continue
            moment = self._moment(self.view, view) if self.view is not None else None
            self.view = view
            for w in self.watchers:
                w.put("state", view)
                if moment is not None:
                    w.put("moment", moment)

    async def close(self) -> None:
        if self._task is not None:
            self._task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._task


class Feed:
    """Every watched chat of this process, by (platform, chat id)."""

    def __init__(self, read: Reader, moment: Moment) -> None:
        self._read, self._moment = read, moment
        self.channels: dict[Key, Channel] = {}

    async def watch(self, key: Key, token: str) -> tuple[Watcher, dict[str, Any]]:
        """A new page of the chat: its watcher and the current view (read now: a page opened mid-game
        shows the game at once, and no moment that happened before it)."""
        channel = self.channels.get(key)
        if channel is None:
            channel = self.channels[key] = Channel(key, self._read, self._moment)
        if len(channel.watchers) >= MAX_PAGES:
            raise TooManyPages()
        watcher = Watcher(token)
        channel.watchers.add(watcher)  # before the read: the channel stays while it is read, and counted
        try:
            _, view = await self._read(key)
        except BaseException:
            self.unwatch(key, watcher)
            raise
        if channel.view is None:
            channel.view = view
        return watcher, view

    def unwatch(self, key: Key, watcher: Watcher) -> None:
        channel = self.channels.get(key)
        if channel is None:
            return
        channel.watchers.discard(watcher)
        if not channel.watchers:
            self.channels.pop(key, None)

    def changed(self, key: Key) -> None:
        channel = self.channels.get(key)
        if channel is not None:  # nobody watches: nothing to read
            channel.nudge()

    async def close(self) -> None:
        for channel in list(self.channels.values()):
            await channel.close()
        self.channels.clear()


@dataclass
class Served:
    """The TV page of one App: its public address (for /tv's link) and, where this process serves the
    pages, its feed."""

    public_url: str
    feed: Feed | None = None

    def link(self, token: str) -> str:
        return f"{self.public_url.rstrip('/')}/tv/{token}"


_SERVED: weakref.WeakKeyDictionary[Any, Served] = weakref.WeakKeyDictionary()


def attach(svc: Any, served: Served | None) -> None:
    """The TV page of the App `svc` (None: switched off)."""
    if served is None:
        _SERVED.pop(svc, None)
    else:
        _SERVED[svc] = served


def served(svc: Any) -> Served | None:
    return _SERVED.get(svc)


def changed(svc: Any, platform: str, chat_id: str) -> None:
    """A chat's TV page may have changed (a saved Kegeln move, a new token): its pages in this process
    are refreshed; without a TV server in this process nothing happens."""
    hub = _SERVED.get(svc)
    if hub is not None and hub.feed is not None:
        hub.feed.changed((platform, chat_id))
