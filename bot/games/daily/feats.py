"""The daily puzzle's achievements: what a finished attempt shows (core/achievements.py), with the days
its player had played in the chat by then — read the same way live and in a replay (bot/app/achievements.py)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from bot.storage.sql import Query
from core.achievements import Feat
from core.games.daily.rules import DailyOutcome, State

if TYPE_CHECKING:  # a type-only edge: the hooks get the services
    from bot.games.plugin import Services

# the days of the attempts started by then, up to this one's (a replay sees later ones too: left out)
PLAYED_DAYS = Query("SELECT DISTINCT day FROM daily_plays WHERE platform = :platform AND chat_id = :chat_id"
                    " AND user_id = :user_id AND day <= :day AND started <= :at ORDER BY day")


async def daily_feats(svc: Services, platform: str, chat_id: str, state: State, at: float) -> list[Feat]:
    p = state.player
    rows = await svc.store.fetch(PLAYED_DAYS, platform=platform, chat_id=chat_id, user_id=p.user_id,
                                 day=state.day, at=at)
    days = sorted({str(r[0]) for r in rows} | {state.day})
    return [Feat(p.user_id, p.name, state.outcome == DailyOutcome.SOLVED, len(state.rows), days=tuple(days))]
