"""Who is a member of the club as the cash box sees it — the ONE place that decides it (`members`), so
that the roster (issue 34's club wing) can be put behind it alone."""

from __future__ import annotations

from bot.games.kegeln import cash_storage, storage
from bot.storage.base import Store
from core import names

ALL = 1_000_000  # no cap: every member who ever played here


async def members(store: Store, platform: str, chat_id: str) -> dict[str, str]:
    """Every member (names.key → the name as the club writes it): one with a finished game here, one
    with a line in this chat's cash book, or one the treasurer added to the box (/kasse member). A name
    nobody knows is refused by the bookings (a typo books nobody's money)."""
    known = {names.key(m.name): m.name for m in await storage.club(store, platform, chat_id, limit=ALL)}
    for key, name in (await cash_storage.names_of(store, platform, chat_id)).items():
        known.setdefault(key, name)
    return known
