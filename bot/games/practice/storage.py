"""Practice's storage: the query of a player's personal bests, its row, its read (over `store.fetch`).

Practice keeps no table of its own: its bests are read from the shared `results` (the rows a won game
writes with its code length, repeats rule and rating; a game won with hints has no rating and sets no
best)."""

from __future__ import annotations

from typing import NamedTuple

from bot.storage.base import Store
from bot.storage.sql import Query


class PracticeBest(NamedTuple):
    """The fewest attempts of a player's won practice games with one code length and repeats rule."""

    length: int
    repeats: bool
    best: int


PRACTICE_BESTS = Query(
    "SELECT length, repeats, MIN(attempts) AS best FROM results WHERE platform = :platform AND user_id = :user_id"
    " AND kind = 'practice' AND outcome = 'win' AND rating IS NOT NULL"
    " GROUP BY length, repeats ORDER BY length, repeats")


async def practice_bests(store: Store, platform: str, user_id: str) -> list[PracticeBest]:
    """The fewest attempts per (length, repeats) over every chat: records follow the player."""
    rows = await store.fetch(PRACTICE_BESTS, platform=platform, user_id=user_id)
    named = [dict(zip(PracticeBest._fields, r, strict=True)) for r in rows]  # the SELECT's column names
    return [PracticeBest(length=int(r["length"]), repeats=bool(r["repeats"]), best=int(r["best"])) for r in named]
