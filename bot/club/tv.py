"""The club's part of its TV page: tonight's evening as /abend says it (a line per finished club game and the
leaders), and which games ended tonight (the page's screen shows the last of them, bot/web/view.py)."""

from __future__ import annotations

from typing import Any

from bot.club import records
from bot.games.plugin import Services
from bot.schedule.zones import zone
from core.club import summary
from core.club.evenings import evening_of, evening_starts
from core.messages import Text, group_of

Say = Any  # a text in the page's language (bot/web/screen.py `Say`)


async def evening(svc: Services, platform: str, chat_id: str, now: float,
                  say: Say) -> tuple[dict[str, Any], list[int]]:
    """Tonight's standings for the page, and the ids of tonight's finished club games, oldest first."""
    tz = zone(await svc.store.chat_tz(platform, group_of(chat_id)))
    tonight = evening_of(now, tz)
    since = evening_starts(tonight, tz)
    finished = await records.games_since(svc.store, platform, chat_id, since)
    return await evening_view(svc, platform, chat_id, since, tonight, finished, say), [f.game_id for f in finished]


async def evening_view(svc: Services, platform: str, chat_id: str, since: float, tonight: Any,
                       finished: list[records.FinishedGame], say: Any) -> dict[str, Any]:
    """Tonight's standings, as /abend says them: a line per finished game and the leaders."""
    if not finished:
        return {"head": say(Text("tv.evening")), "games": [], "leaders": [say(Text("tv.no_evening"))]}
    members = await records.members_since(svc.store, platform, chat_id, since)
    lines, nines, pumpen, schnitt = summary.evening(finished, members)
    leaders = [say(t) for t in summary.leader_texts(nines, pumpen, schnitt).values() if t]
    return {"head": say(Text("kegeln.abend.head", {"n": len(finished), "date": tonight})),
            "games": [say(line) for line in lines], "leaders": leaders}
