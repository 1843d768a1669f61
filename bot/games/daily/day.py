"""The daily puzzle's day (bot side): when a chat's day begins and ends in its zone, which days are open, streaks (with
freezes: core/games/daily/streaks.py).

The day is computed here, from the injected clock and the chat's time zone (/timezone; UTC by
default), and passed into core as a label. A day's puzzle is played only on its own day, in the
zone it was drawn for (docs/daily.md "The day and the time zone")."""

from __future__ import annotations

from collections.abc import Sequence
from datetime import date, datetime, time, timedelta

from bot.games.daily import storage
from bot.games.plugin import Services
from bot.schedule.zones import zone
from core.errors import GameError
from core.games.daily import presenter
from core.games.daily.streaks import streak
from core.messages import Chat, Text

CLOSE_AFTER = 3 * 3600.0  # an attempt may be finished this long after its day ended (begun just before midnight)


def starts(day: str, tz: str | None) -> float:
    """When `day` begins in the zone."""
    return datetime.combine(date.fromisoformat(day), time(), zone(tz)).timestamp()


def ends(day: str, tz: str | None) -> float:
    """When `day` ends in the zone (the next day's midnight)."""
    return starts((date.fromisoformat(day) + timedelta(days=1)).isoformat(), tz)


def closes(day: str, tz: str | None) -> float:
    """When an attempt at `day`'s puzzle times out: `CLOSE_AFTER` after the day ends in the chat's zone."""
    return ends(day, tz) + CLOSE_AFTER


async def check_open(svc: Services, group: Chat, day: str, puzzle: str, tz: str | None) -> None:
    """A day's puzzle is played only on its own day, in the zone it was drawn for: moving /timezone
    back and forth opens no day a second time once it ended, and no day before the chat's last one ended
    (three days' dailies in one real day, tomorrow's code a day early)."""
    this_end, last_end = await storage.daily_window(svc.store, group.platform, group.chat_id, day, puzzle)
    if this_end is not None and svc.clock() >= this_end:
        raise GameError("daily.day_over", game=Text(presenter.GAME_KEYS[puzzle]), day=date.fromisoformat(day))
    if this_end is None and last_end is not None and starts(day, tz) < last_end:
        raise GameError("daily.not_yet", game=Text(presenter.GAME_KEYS[puzzle]), day=date.fromisoformat(day))


async def today(svc: Services, chat: Chat) -> str:
    """The chat's day now (ISO date), at its time zone (/timezone; UTC by default)."""
    tz = await svc.store.chat_tz(chat.platform, chat.group)  # a forum topic keeps its group's zone
    return datetime.fromtimestamp(svc.clock(), zone(tz)).date().isoformat()


def streaks(days: Sequence[str], today_: str) -> tuple[int, int]:
    """(current, best) streak of a player who solved on `days` (ISO dates), freezes counted
    (core/games/daily/streaks.py): the current one runs into today, which is still open."""
    found = streak(days, today_)
    return found.current, found.best
