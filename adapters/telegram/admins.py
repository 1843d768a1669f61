"""Who administers a group: `getChatAdministrators`, cached per chat for a few minutes.

The App lets a chat admin act like a game's organiser (e.g. a Kegeln scorer) through
`Actor.is_admin`; Telegram says who is one. One call per group and `TTL` at most, and a
membership change the bot is told of (`chat_member` / `my_chat_member`) drops the entry at once.
A failed look-up counts as "no admins" (for `FAILED_TTL`), so an outage never blocks a move.
"""

from __future__ import annotations

import logging
import time
from collections import OrderedDict
from collections.abc import Awaitable, Callable, Iterable

from telegram import ChatMember
from telegram.error import TelegramError

log = logging.getLogger(__name__)

TTL = 300.0  # seconds an answer is trusted
FAILED_TTL = 60.0  # seconds before a failed look-up is tried again
MAX_CHATS = 10_000

Fetch = Callable[[int | str], Awaitable[Iterable[ChatMember]]]


class Admins:
    def __init__(self, fetch: Fetch, clock: Callable[[], float] = time.monotonic) -> None:
        self._fetch = fetch
        self._clock = clock
        self._cache: OrderedDict[int | str, tuple[float, frozenset[int]]] = OrderedDict()

    async def is_admin(self, chat_id: int | str, user_id: int) -> bool:
        now = self._clock()
        cached = self._cache.get(chat_id)
        if cached is None or cached[0] <= now:
            cached = await self._load(chat_id, now)
        return user_id in cached[1]

    async def _load(self, chat_id: int | str, now: float) -> tuple[float, frozenset[int]]:
        try:
            members = await self._fetch(chat_id)
            entry = (now + TTL, frozenset(m.user.id for m in members if m.user is not None))
        except TelegramError as exc:  # no rights, chat gone, an outage: nobody is admin for a while
            log.info("getChatAdministrators for chat %s failed: %s", chat_id, type(exc).__name__)
            entry = (now + FAILED_TTL, frozenset())
        self._cache[chat_id] = entry
        self._cache.move_to_end(chat_id)
        while len(self._cache) > MAX_CHATS:
            self._cache.popitem(last=False)
        return entry

    def forget(self, chat_id: int | str) -> None:
        """Membership or rights changed in this chat: ask again next time."""
        self._cache.pop(chat_id, None)
