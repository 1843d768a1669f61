"""The TV feed across processes on PostgreSQL: LISTEN/NOTIFY on the channel `tv`.

A saved Kegeln move sends `NOTIFY tv, '<platform> <chat id>\n<origin>'` inside its own transaction, so
PostgreSQL delivers it exactly when the move commits (never for a move rolled back) to every process
listening — the one that saved it included, which skips its own (`origin`: its store's; it has nudged its
feed itself, with the move's result). A process serving TV pages listens on one connection of its own and
nudges its feed (bot/web/feed.py). SQLite is one process: the feed is nudged in-process only.
https://www.postgresql.org/docs/current/sql-notify.html
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import secrets
import sys
import weakref
from collections.abc import Callable
from typing import Any

from bot.storage.base import Store
from bot.storage.sql import Query, Tx, TxJob

log = logging.getLogger("bot.web")
CHANNEL = "tv"
NOTIFY = Query("SELECT pg_notify('tv', :payload)")
RETRY_SECONDS = 2.0  # a lost listening connection is opened again after this long


_ORIGINS: weakref.WeakKeyDictionary[Any, str] = weakref.WeakKeyDictionary()


def origin(store: Store) -> str:
    """Who sent a notification: a token per store (an App; tests run several in one process)."""
    return _ORIGINS.setdefault(store, secrets.token_hex(6))


def payload(platform: str, chat_id: str, sender: str = "") -> str:
    """What a notification carries: the chat (a platform name holds no space; a chat id may, but no line
    break) and, after a line break, its sender's `origin`."""
    return f"{platform} {chat_id}" + (f"\n{sender}" if sender else "")


def parse(text: str) -> tuple[tuple[str, str] | None, str]:
    """The chat a notification names (None: unreadable) and its sender's origin ("" when it names none)."""
    chat, _, sender = text.partition("\n")
    platform, sep, chat_id = chat.partition(" ")
    return ((platform, chat_id) if sep and platform and chat_id else None), sender


def postgres_url(store: Store) -> str | None:
    """The database URL of a PostgreSQL store, else None (asyncpg is imported only where PostgreSQL is used:
    a store of bot/storage/postgres.py exists only once that module is loaded)."""
    pg = sys.modules.get("bot.storage.postgres")
    return store.url if pg is not None and isinstance(store, pg.PostgresStore) else None


def notify_job(store: Store, platform: str, chat_id: str) -> TxJob | None:
    """The NOTIFY for a chat's TV pages, to run in a move's transaction; None on SQLite."""
    if postgres_url(store) is None:
        return None

    async def job(tx: Tx) -> None:
        await tx.execute(NOTIFY, payload=payload(platform, chat_id, origin(store)))
    return job


class Listener:
    """One LISTEN connection of this process; each notification calls `heard(platform, chat_id)`. A lost
    connection is opened again (and `heard(None)` then says that notifications may have been missed)."""

    def __init__(self, url: str, heard: Callable[[tuple[str, str] | None], None], own: str = "") -> None:
        self.url, self.heard, self.own = url, heard, own  # `own`: this App's origin (its own notifications)
        self._task: asyncio.Task[None] | None = None
        self.listening = asyncio.Event()

    def start(self) -> None:
        self._task = asyncio.create_task(self._run())

    async def _run(self) -> None:
        first = True
        while True:
            conn: Any = None
            try:
                import asyncpg

                conn = await asyncpg.connect(self.url)
                lost = asyncio.Event()
                conn.add_termination_listener(lambda _c, lost=lost: lost.set())
                await conn.add_listener(CHANNEL, self._on_notify)
                self.listening.set()
                if not first:
                    self.heard(None)  # what changed while no one listened: every page reads again
                first = False
                await lost.wait()
            except asyncio.CancelledError:
                raise
            except Exception as exc:
                log.warning("TV feed: cannot listen on PostgreSQL (%s); trying again", type(exc).__name__)
            finally:
                self.listening.clear()
                if conn is not None:
                    with contextlib.suppress(Exception):
                        await conn.close()
            await asyncio.sleep(RETRY_SECONDS)

    def _on_notify(self, _conn: Any, _pid: int, _channel: str, text: str) -> None:
        key, sender = parse(text)
        if key is not None and not (self.own and sender == self.own):  # its own App nudged its feed itself
            self.heard(key)

    async def stop(self) -> None:
        if self._task is not None:
            self._task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._task
