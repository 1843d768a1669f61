"""Who belongs to a group: `getChatMember`, cached per (group, user) for a few minutes.

A chat's daily-puzzle deep link can be forwarded to anyone; the App refuses an attempt by someone
the platform says is not in the chat (`Inbound.member`, the rule in bot/app/routing.py `check_origin`).
Telegram says who is in: this asks it once per group and user and `TTL` at most, and a membership
change the bot is told of (`chat_member`) drops that entry at once. A failed look-up is "not known"
(None, for `FAILED_TTL`): an outage never blocks a player (the App takes None as no fact).
"""

from __future__ import annotations

import logging
import time
from collections import OrderedDict
from collections.abc import Awaitable, Callable

from telegram import ChatMember, ChatMemberRestricted
from telegram.error import TelegramError

log = logging.getLogger(__name__)

TTL = 300.0  # seconds an answer is trusted
FAILED_TTL = 60.0  # seconds before a failed look-up is tried again
MAX_ENTRIES = 50_000

Fetch = Callable[[int | str, int], Awaitable[ChatMember]]


def is_in(member: ChatMember) -> bool:
    """In the chat: creator, administrator, member, or restricted while still a member; not one
    who left (`left`) or was banned (`kicked`)."""
    if member.status in (ChatMember.LEFT, ChatMember.BANNED):
        return False
    if isinstance(member, ChatMemberRestricted):
        return bool(member.is_member)
    return True


class Members:
    def __init__(self, fetch: Fetch, clock: Callable[[], float] = time.monotonic) -> None:
        self._fetch = fetch
        self._clock = clock
        self._cache: OrderedDict[tuple[int | str, int], tuple[float, bool | None]] = OrderedDict()

    async def is_member(self, chat_id: int | str, user_id: int) -> bool | None:
        """Whether the user is in the chat; None when Telegram could not say."""
        key = (chat_id, user_id)
        now = self._clock()
        cached = self._cache.get(key)
        if cached is None or cached[0] <= now:
            cached = await self._load(key, now)
        return cached[1]

    async def _load(self, key: tuple[int | str, int], now: float) -> tuple[float, bool | None]:
        entry: tuple[float, bool | None]
        try:
            entry = (now + TTL, is_in(await self._fetch(*key)))
        except TelegramError as exc:  # no rights, chat gone, an outage: not known for a while
            log.info("getChatMember in chat %s failed: %s", key[0], type(exc).__name__)
            entry = (now + FAILED_TTL, None)
        self._cache[key] = entry
        self._cache.move_to_end(key)
        while len(self._cache) > MAX_ENTRIES:
            self._cache.popitem(last=False)
        return entry

    def forget(self, chat_id: int | str, user_id: int) -> None:
        """The user joined, left or was banned: ask again next time."""
        self._cache.pop((chat_id, user_id), None)
