"""What a game's plugin calls so that the chat's TV pages follow its moves: a NOTIFY in the move's own
transaction (PostgreSQL: heard by every process when it commits), and after it the move's result handed to
this process's pages (`saved`), which rebuild their view from it without reading the store."""

from __future__ import annotations

from typing import Any

from bot.games.plugin import Services
from bot.storage.sql import Tx, TxJob
from bot.web import feed, pgnotify
from bot.web.feed import Moved
from core.messages import Chat


def move_job(svc: Services, platform: str, chat_id: str) -> TxJob | None:
    """For `GamePlugin.writes`: the NOTIFY of a move (None on SQLite)."""
    return pgnotify.notify_job(svc.store, platform, chat_id)


def created_job(svc: Services, chat: Chat) -> Any:
    """For `MoveRunner.create(extra=…)`: the NOTIFY of a new game, `job(tx, game_id)` (None on SQLite)."""
    job = pgnotify.notify_job(svc.store, chat.platform, chat.chat_id)
    if job is None:
        return None

    async def created(tx: Tx, game_id: int) -> None:
        assert job is not None
        await job(tx)
    return created


def saved(svc: Services, chat: Chat, moved: Moved | None = None) -> None:
    """After a move or a new game was saved: this process's pages of the chat follow it — from `moved`
    (a move that did not end its game: the game's id, its new version and stored state), else by reading."""
    feed.changed(svc, chat.platform, chat.chat_id, moved)

