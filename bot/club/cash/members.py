"""Who is a member of the club as the cash box sees it — the ONE place that decides it (`members`), and
whose account is whose (`linked`): the club's roster (bot/club/, docs/club.md) beside the box's own list."""

from __future__ import annotations

from bot.club import records
from bot.club import storage as club_storage
from bot.club.cash import storage as cash_storage
from bot.storage.base import Store
from core import names

ALL = 1_000_000  # no cap: every member who ever played here


async def members(store: Store, platform: str, chat_id: str, paying: bool = False) -> dict[str, str]:
    """Every member (names.key → the name as the club writes it): one the treasurer added to the box
    (/kasse member, /kasse fee), one with a finished game here, or one with a line in this chat's cash
    book. A name nobody knows is refused by the bookings (a typo books nobody's money). `paying`: only
    the members the club keeps as such (the roster's, and those the treasurer added to the box) — who
    the dues are booked to; a guest who once played is not charged dues."""
    known = dict(await cash_storage.added(store, platform, chat_id))
    for r in await club_storage.roster(store, platform, chat_id):
        known.setdefault(r.member, r.name)
    if paying:
        return known
    for m in await records.club(store, platform, chat_id, limit=ALL):
        known.setdefault(names.key(m.name), m.name)
    for key, name in (await cash_storage.names_of(store, platform, chat_id)).items():
        known.setdefault(key, name)
    return known


async def linked(store: Store, platform: str, chat_id: str, user_id: str) -> tuple[str, str] | None:
    """The member (names.key, name) a chat account is linked to here, or None — the ONE place that says
    whose statement an account may read privately and whom a reminder reaches: the treasurer's link
    (/kasse member NAME @account), else the roster's confirmed link (/verein link)."""
    own = (await cash_storage.linked(store, platform, chat_id)).get(user_id)
    if own is not None:
        return own
    member = await club_storage.linked_member(store, platform, chat_id, user_id)
    return None if member is None else (member.member, member.name)
