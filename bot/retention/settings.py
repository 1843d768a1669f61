"""A chat's settings for the bot's own posts (table `chat_posts`) and who asked to be mentioned in them
(table `ping_optins`, migration 12): their queries, rows by column name, reads and write jobs.

A chat's row holds the morning post's time and the weekly table's time ("HH:MM" in the chat's
/timezone; NULL: off), the week's first day (0 Monday … 6 Sunday, as `date.weekday()`), and how chatty
the bot is in the group (`NOISE`). A chat without a row has every post off, weeks from Monday, noise
`all`. A ping opt-in is a user id per chat: personal data (/forgetme erases the rows)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from bot.storage.base import Store
from bot.storage.sql import Query, Tx, TxJob

NOISE = ("all", "results")  # every message, or the group hears only what matters (docs/retention.md)
_COLS = ("morning", "weekly", "week_start", "noise")


@dataclass(frozen=True)
class PostSettings:
    """One chat's settings (the defaults: no row)."""

    morning: str | None = None
    weekly: str | None = None
    week_start: int = 0
    noise: str = "all"


_GET = Query(f"SELECT {', '.join(_COLS)} FROM chat_posts WHERE platform = :platform AND chat_id = :chat_id")
_PUT = Query(
    "INSERT INTO chat_posts (platform, chat_id, morning, weekly, week_start, noise, updated)"
    " VALUES (:platform, :chat_id, :morning, :weekly, :week_start, :noise, :now)"
    " ON CONFLICT (platform, chat_id) DO UPDATE SET morning = excluded.morning, weekly = excluded.weekly,"
    " week_start = excluded.week_start, noise = excluded.noise, updated = excluded.updated")
_PINGED = Query("SELECT user_id FROM ping_optins WHERE platform = :platform AND chat_id = :chat_id"
                " ORDER BY user_id COLLATE \"C\"")
_PING_ON = Query("INSERT INTO ping_optins (platform, chat_id, user_id, created)"
                 " VALUES (:platform, :chat_id, :user_id, :now) ON CONFLICT DO NOTHING")
_PING_OFF = Query("DELETE FROM ping_optins WHERE platform = :platform AND chat_id = :chat_id AND user_id = :user_id")


def _named(row: Sequence[Any]) -> dict[str, Any]:
    return dict(zip(_COLS, row, strict=True))


async def post_settings(store: Store, platform: str, chat_id: str) -> PostSettings:
    """The chat's settings (the defaults when it set none)."""
    rows = await store.fetch(_GET, platform=platform, chat_id=chat_id)
    if not rows:
        return PostSettings()
    c = _named(rows[0])
    noise = str(c["noise"])
    return PostSettings(c["morning"], c["weekly"], int(c["week_start"]) % 7, noise if noise in NOISE else "all")


def put_settings(platform: str, chat_id: str, settings: PostSettings, now: float) -> TxJob:
    """A write job that stores the chat's settings whole."""
    async def job(tx: Tx) -> None:
        await tx.execute(_PUT, platform=platform, chat_id=chat_id, morning=settings.morning, weekly=settings.weekly,
                         week_start=settings.week_start, noise=settings.noise, now=now)
    return job


async def pinged(store: Store, platform: str, chat_id: str) -> set[str]:
    """The users of the chat who asked to be mentioned in its posts (/pings on)."""
    return {str(r[0]) for r in await store.fetch(_PINGED, platform=platform, chat_id=chat_id)}


def set_ping(platform: str, chat_id: str, user_id: str, on: bool, now: float) -> TxJob:
    """A write job: the user's opt-in to mentions in this chat, on (a row) or off (none)."""
    async def job(tx: Tx) -> None:
        if on:
            await tx.execute(_PING_ON, platform=platform, chat_id=chat_id, user_id=user_id, now=now)
        else:
            await tx.execute(_PING_OFF, platform=platform, chat_id=chat_id, user_id=user_id)
    return job
