"""Who is a member of the club as the cash box sees it — the ONE place that decides it (`members`), so
that the roster (issue 34's club wing) can be put behind it alone."""

from __future__ import annotations

from bot.games.kegeln import cash_storage, storage
from bot.storage.base import Store
from core import names

ALL = 1_000_000  # no cap: every member who ever played here


async def members(store: Store, platform: str, chat_id: str, paying: bool = False) -> dict[str, str]:
    """Every member (names.key → the name as the club writes it): one the treasurer added to the box
    (/kasse member, /kasse fee), one with a finished game here, or one with a line in this chat's cash
    book. A name nobody knows is refused by the bookings (a typo books nobody's money). `paying`: only
    the members the club keeps as such (those the treasurer added) — who the dues are booked to; a
    guest who once played is not charged dues. The roster (the club wing) replaces the added list here."""
    known = dict(await cash_storage.added(store, platform, chat_id))
    if paying:
        return known
    for m in await storage.club(store, platform, chat_id, limit=ALL):
        known.setdefault(names.key(m.name), m.name)
    for key, name in (await cash_storage.names_of(store, platform, chat_id)).items():
        known.setdefault(key, name)
    return known


async def linked(store: Store, platform: str, chat_id: str, user_id: str) -> tuple[str, str] | None:
    """The member (names.key, name) a chat account is linked to here, or None — the ONE place that says
    whose statement an account may read privately and whom a reminder reaches (today the treasurer's
    link, /kasse member NAME @account; the roster's link replaces it)."""
    return (await cash_storage.linked(store, platform, chat_id)).get(user_id)
