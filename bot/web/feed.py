"""The TV pages' live feed in one process: who watches which chat, and the nudge that a chat changed.

A saved move of a game on the screen (or a new TV token) calls `changed(svc, platform, chat)`; on
PostgreSQL the move's own transaction also sends a NOTIFY (bot/web/pgnotify.py), so a page served by
another process hears it too. Each watched chat's `Channel` then reads what the group sees
(bot/web/view.py) once for all its pages, and sends it only where it changed — so a nudge heard twice costs
one read. A move in this process that did not end its game hands its result over instead (`moved`): the
channel rebuilds the view from what it read last and the new state, reading nothing.
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


# what a channel reads on a nudge: the chat's current token and its page (bot/web/view.py `Page`)
Reader = Callable[[Key], Awaitable[tuple[str | None, Any]]]
# a page as its view (a JSON-able dict)
Composer = Callable[[Any], dict[str, Any]]
# a move handed over: the game's id, its new version and stored state
Moved = tuple[int, int, dict[str, Any]]
# a page after a move, or None when a full read is needed
Mover = Callable[[Any, int, int, dict[str, Any]], Any]
# the moment between two views worth a short celebration (alle Neune, Pumpe), or None
Moment = Callable[[dict[str, Any] | None, dict[str, Any]], dict[str, Any] | None]


class Channel:
    """One watched chat: its pages, the last view sent, and one refresh at a time (nudges coalesce)."""

    def __init__(self, key: Key, feed: Feed) -> None:
        self.key, self._feed = key, feed
        self.watchers: set[Watcher] = set()
        self.view: dict[str, Any] | None = None
        self.page: Any = None  # what the last read found (None: read it)
        self.token: str | None = None
        self._dirty = False
        self._full = False
        self._moves: list[Moved] = []
        self._task: asyncio.Task[None] | None = None
        self.reads = 0  # full reads so far (a test counts them)

    def nudge(self, moved: Moved | None = None) -> None:
        """Something changed: read it (`moved`: a game's move in this process, its id, version and state)."""
        if moved is None:
            self._full = True
        else:
            self._moves.append(moved)
        self._dirty = True
        if self._task is None or self._task.done():
            self._task = asyncio.create_task(self._refresh())

    async def _next(self) -> tuple[str | None, dict[str, Any]]:
        """The token and view after the changes heard: rebuilt from the moves handed over where the last
        page has their games, else read."""
        full, moves = self._full or self.page is None, self._moves
        self._full, self._moves = False, []
        page = self.page
        for game_id, version, state in ([] if full else moves):
            page = self._feed.mover(page, game_id, version, state)
            if page is None:
                break
        if full or page is None:
            self.reads += 1
            self.token, page = await self._feed.read(self.key)
        self.page = page
        return self.token, self._feed.compose(page)

    async def _refresh(self) -> None:
        while self._dirty:
            self._dirty = False
            try:
                token, view = await self._next()
            except Exception:
                self.page = None  # read anew next time
                log.exception("the TV page of %s:%s could not be read", *self.key)
                continue
            for w in list(self.watchers):
                if w.token != token:  # /tv new: the old link stops at once
                    w.put("gone", {})
                    self.watchers.discard(w)
            if view == self.view:
                continue
            moment = self._feed.moment(self.view, view) if self.view is not None else None
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

    def __init__(self, read: Reader, moment: Moment, compose: Composer | None = None,
                 mover: Mover | None = None) -> None:
        self.read, self.moment = read, moment
        self.compose: Composer = compose or (lambda page: page)  # (a reader that reads views)
        self.mover: Mover = mover or (lambda page, game_id, version, state: None)
        self.channels: dict[Key, Channel] = {}

    async def watch(self, key: Key, token: str) -> tuple[Watcher, dict[str, Any]]:
        """A new page of the chat: its watcher and the current view (read now: a page opened mid-game
        shows the game at once, and no moment that happened before it)."""
        channel = self.channels.get(key)
        if channel is None:
            channel = self.channels[key] = Channel(key, self)
        if len(channel.watchers) >= MAX_PAGES:
            raise TooManyPages()
        watcher = Watcher(token)
        channel.watchers.add(watcher)  # before the read: the channel stays while it is read, and counted
        try:
            current, page = await self.read(key)
        except BaseException:
            self.unwatch(key, watcher)
            raise
        view = self.compose(page)
        if channel.view is None:
            channel.view, channel.page, channel.token = view, page, current
        return watcher, view

    def unwatch(self, key: Key, watcher: Watcher) -> None:
        channel = self.channels.get(key)
        if channel is None:
            return
        channel.watchers.discard(watcher)
        if not channel.watchers:
            self.channels.pop(key, None)

    def changed(self, key: Key, moved: Moved | None = None) -> None:
        channel = self.channels.get(key)
        if channel is not None:  # nobody watches: nothing to read
            channel.nudge(moved)

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


def changed(svc: Any, platform: str, chat_id: str, moved: Moved | None = None) -> None:
    """A chat's TV page may have changed (a saved move, a new token): its pages in this process are
    refreshed (`moved`: a move that did not end its game, its game's id, new version and stored state — the view is
    rebuilt from it without reading); without a TV server in this process nothing happens."""
    hub = _SERVED.get(svc)
    if hub is not None and hub.feed is not None:
        hub.feed.changed((platform, chat_id), moved)
