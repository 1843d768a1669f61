"""Logik's storage: the queries of `/stats logik` (games by the side that won, a player's record per
side), their rows and their reads (over `store.fetch`).

Logik keeps no table of its own: it reads the shared `results`, where each of its lines has the
player's `side` ("white" | "black")."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, NamedTuple

from bot.storage.base import Store
from bot.storage.sql import Query


class LogikSides(NamedTuple):
    """Finished Logik games by the side that won (abandoned: timed out)."""

    white: int
    black: int
    draws: int
    abandoned: int


class LogikRecord(NamedTuple):
    """A player's Logik games on one side."""

    wins: int
    draws: int
    losses: int
    timed_out: int


def _count(outcome: str, name: str) -> str:
    return f"COUNT(*) FILTER (WHERE outcome = '{outcome}') AS {name}"


def _in_chat(head: str, tail: str = "") -> tuple[Query, Query]:
    """A query over every chat of the platform, and over the chat `:chat_id`."""
    return Query(head + tail), Query(head + " AND chat_id = :chat_id" + tail)


_LOGIK = "FROM results WHERE platform = :platform AND kind = 'logik'"
SIDES_COLUMNS = LogikSides._fields
LOGIK_SIDES, LOGIK_SIDES_IN_CHAT = _in_chat(  # once per game: the white player's result line
    f"SELECT {_count('win', 'white')}, {_count('loss', 'black')}, {_count('draw', 'draws')},"
    f" {_count('abandoned', 'abandoned')} {_LOGIK} AND side = 'white'")
RECORD_COLUMNS = ("side", *LogikRecord._fields)
LOGIK_RECORD, LOGIK_RECORD_IN_CHAT = _in_chat(
    f"SELECT side, {_count('win', 'wins')}, {_count('draw', 'draws')}, {_count('loss', 'losses')},"
    f" {_count('abandoned', 'timed_out')} {_LOGIK} AND user_id = :user_id", " GROUP BY side")


def _named(columns: Sequence[str], row: Sequence[Any]) -> dict[str, Any]:
    """A row by the names of its SELECT's columns."""
    return dict(zip(columns, row, strict=True))


async def logik_sides(store: Store, platform: str, chat_id: str | None) -> LogikSides:
    """Finished Logik games by winning side (and the timed-out ones), in one chat or everywhere;
    counted once per game, from the white player's result line."""
    if chat_id is None:
        rows = await store.fetch(LOGIK_SIDES, platform=platform)
    else:
        rows = await store.fetch(LOGIK_SIDES_IN_CHAT, platform=platform, chat_id=chat_id)
    r = _named(SIDES_COLUMNS, rows[0])
    return LogikSides(white=int(r["white"]), black=int(r["black"]), draws=int(r["draws"]),
                      abandoned=int(r["abandoned"]))


async def logik_record(store: Store, platform: str, chat_id: str | None, user_id: str) -> dict[str, LogikRecord]:
    """A player's Logik record per side ("white", "black"), in one chat or everywhere."""
    if chat_id is None:
        rows = await store.fetch(LOGIK_RECORD, platform=platform, user_id=user_id)
    else:
        rows = await store.fetch(LOGIK_RECORD_IN_CHAT, platform=platform, user_id=user_id, chat_id=chat_id)
    named = [_named(RECORD_COLUMNS, r) for r in rows]
    return {str(r["side"]): LogikRecord(wins=int(r["wins"]), draws=int(r["draws"]), losses=int(r["losses"]),
                                        timed_out=int(r["timed_out"])) for r in named if r["side"]}
