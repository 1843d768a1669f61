"""Higher or lower's own storage: its table (each player's best game, fewest tries, per chat), the
migrations that make it, its query and its write job — declared by the game, applied by the store,
with no edit to bot/storage/ (bot/storage/schemas.py)."""

from __future__ import annotations

from typing import NamedTuple

from bot.storage.base import Store
from bot.storage.migrations import Migration
from bot.storage.schemas import Schema
from bot.storage.sql import Query, Tx, TxJob

SCHEMA = Schema("hilo", (
    # 1: the fewest tries a player has found the number in, per chat
    Migration("""
    CREATE TABLE hilo_best (
        platform TEXT NOT NULL,
        chat_id  TEXT NOT NULL,
        user_id  TEXT NOT NULL,
        tries    INTEGER NOT NULL,
        game_id  {BIGINT} NOT NULL REFERENCES games (id),
        PRIMARY KEY (platform, chat_id, user_id)
    );
    """),
))

SAVE_BEST = Query(
    "INSERT INTO hilo_best (platform, chat_id, user_id, tries, game_id)"
    " VALUES (:platform, :chat_id, :user_id, :tries, :game_id)"
    " ON CONFLICT (platform, chat_id, user_id) DO UPDATE SET tries = excluded.tries, game_id = excluded.game_id"
    " WHERE excluded.tries < hilo_best.tries")
BEST = Query("SELECT tries AS tries, game_id AS game_id FROM hilo_best"
             " WHERE platform = :platform AND chat_id = :chat_id AND user_id = :user_id")


class Best(NamedTuple):
    """A player's best game in one chat."""

    tries: int
    game_id: int


def best_job(platform: str, chat_id: str, user_id: str, tries: int, game_id: int) -> TxJob:
    """A won game's tries, kept where they beat the player's best (run in the move's transaction)."""
    async def job(tx: Tx) -> None:
        await tx.execute(SAVE_BEST, platform=platform, chat_id=chat_id, user_id=user_id, tries=tries,
                         game_id=game_id)
    return job


async def best(store: Store, platform: str, chat_id: str, user_id: str) -> Best | None:
    rows = await store.fetch(BEST, platform=platform, chat_id=chat_id, user_id=user_id)
    return Best(tries=int(rows[0][0]), game_id=int(rows[0][1])) if rows else None
