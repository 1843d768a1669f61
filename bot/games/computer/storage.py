"""The computer opponent's storage: the level it plays at, read back (over `store.fetch`) from the
"bot" event the App logs before a game against it (`core.games.challenge.BotLevel`)."""

from __future__ import annotations

import json

from bot.storage.base import Store
from bot.storage.sql import Query

BOT_LEVEL = Query(  # this game's "bot" event, else the newest earlier one of this kind the user played here
    "SELECT e.data AS data FROM events e JOIN games g ON g.id = e.game_id WHERE e.type = 'bot'"
    " AND g.platform = :platform AND g.chat_id = :chat_id AND g.kind = :kind AND g.id <= :game_id"
    " AND (g.id = :game_id OR EXISTS"
    " (SELECT 1 FROM seats s WHERE s.game_id = g.id AND s.user_id = :user_id)) ORDER BY g.id DESC LIMIT 1")


async def bot_level(store: Store, platform: str, chat_id: str, kind: str, game_id: int, user_id: str) -> str | None:
    """The level of the bot in this game, or (for a rematch) in the newest earlier game of the same
    kind against the bot that this user played in this chat: the data of its "bot" event."""
    rows = await store.fetch(BOT_LEVEL, platform=platform, chat_id=chat_id, kind=kind, game_id=game_id,
                             user_id=user_id)
    if not rows:
        return None
    data = dict(zip(("data",), rows[0], strict=True))["data"]
    level = json.loads(data).get("level")
    return None if level is None else str(level)
