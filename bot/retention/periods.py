"""Tables by period (`/top [GAME] week|month|season`, the weekly table post): who won most in the period,
and whose skill rating rose most in it, in the chat's zone with its first day of the week.

The wins come from `results` (the duel table without a game, as /top), the rating change from
`rating_history` (the conservative rating, mu − 3·sigma, after the player's last rated game in the
period minus before their first one; a player new to the game starts at openskill's 0). The season is
the chat's season start (the Kegel club's `/saison` setting, table `kegeln_seasons`; 1 January without
one). Only the chat's own rows are read: another chat's games never show in this chat's table."""

from __future__ import annotations

from collections.abc import Sequence
from datetime import date, datetime, time
from typing import Any, NamedTuple

from bot.games.plugin import Services
from bot.retention.settings import post_settings
from bot.schedule.zones import zone
from bot.storage.sql import Query
from core import periods
from core.messages import Chat, Text
from core.ratings import NEW

PERIOD_KEYS = {"week": "top.period.week", "month": "top.period.month", "season": "top.period.season"}
WORD_KEYS = {"week": "top.period_words.week", "month": "top.period_words.month",
             "season": "top.period_words.season"}

_SEASON = Query("SELECT month, day FROM kegeln_seasons WHERE platform = :platform AND chat_id = :chat_id")
_WINS = Query(
    'SELECT user_id, MAX(name COLLATE "C") AS name, COUNT(*) FILTER (WHERE outcome = \'win\') AS wins,'
    " COUNT(*) AS games FROM results WHERE platform = :platform AND chat_id = :chat_id AND kind = :kind"
    " AND at >= :since AND at < :until AND user_id != :skip GROUP BY user_id"
    ' ORDER BY 3 DESC, 4 ASC, 2 LIMIT :limit')  # the order of /top (bot/storage/queries.py `TOP`)
_STEPS = Query(  # every rated step of the players who played in the period, up to its end, oldest first
    "SELECT h.user_id, h.mu, h.sigma, h.at, r.name FROM rating_history h JOIN ratings r ON r.platform = h.platform"
    " AND r.chat_id = h.chat_id AND r.kind = h.kind AND r.user_id = h.user_id"
    " WHERE h.platform = :platform AND h.chat_id = :chat_id AND h.kind = :kind AND h.at < :until"
    " AND h.user_id IN (SELECT user_id FROM rating_history WHERE platform = :platform AND chat_id = :chat_id"
    " AND kind = :kind AND at >= :since AND at < :until) ORDER BY h.id")


class Window(NamedTuple):
    """A period of the chat as times: its first moment, the end (exclusive), its first day."""

    since: float
    until: float
    first: date


class Change(NamedTuple):
    user_id: str
    name: str
    change: float
    games: int


def period_word(raw: str, svc: Services) -> str | None:
    """`week`, `month` or `season` as typed in any language, else None."""
    w = raw.strip().lower()
    for period in periods.PERIODS:
        if w == period or w in svc.catalogs.words(WORD_KEYS[period]):
            return period
    return None


async def window(svc: Services, chat: Chat, period: str, last: bool = False) -> Window:
    """The chat's current `period` (or, `last`, the one before) in its zone."""
    settings = await post_settings(svc.store, chat.platform, chat.chat_id)
    tz = await svc.store.chat_tz(chat.platform, chat.group)
    rows = await svc.store.fetch(_SEASON, platform=chat.platform, chat_id=chat.chat_id)
    season = (int(rows[0][0]), int(rows[0][1])) if rows else (1, 1)
    today = datetime.fromtimestamp(svc.clock(), zone(tz)).date()
    pick = periods.previous if last else periods.span
    first, after = pick(period, today, settings.week_start, season)
    return Window(datetime.combine(first, time(), zone(tz)).timestamp(),
                  datetime.combine(after, time(), zone(tz)).timestamp(), first)


async def wins(svc: Services, chat: Chat, kind: str, span: Window, skip: str, limit: int) -> list[tuple[str, int, int]]:
    """(name, wins, games) of the period, most wins first."""
    rows: Sequence[Sequence[Any]] = await svc.store.fetch(
        _WINS, platform=chat.platform, chat_id=chat.chat_id, kind=kind, since=span.since, until=span.until,
        skip=skip, limit=limit)
    return [(str(r[1]), int(r[2]), int(r[3])) for r in rows]


async def changes(svc: Services, chat: Chat, kind: str, span: Window) -> list[Change]:
    """Each player who played rated games of `kind` in the period: their rating change in it and those
    games, the biggest rise first."""
    rows = await svc.store.fetch(_STEPS, platform=chat.platform, chat_id=chat.chat_id, kind=kind,
                                 since=span.since, until=span.until)
    before: dict[str, float] = {}
    after: dict[str, float] = {}
    games: dict[str, int] = {}
    names: dict[str, str] = {}
    for user_id, mu, sigma, at, name in rows:
        uid, ordinal = str(user_id), float(mu) - 3 * float(sigma)
        names[uid] = str(name)
        if float(at) < span.since:
            before[uid] = ordinal
        else:
            after[uid] = ordinal
            games[uid] = games.get(uid, 0) + 1
    out = [Change(uid, names[uid], round(after[uid] - before.get(uid, NEW.ordinal), 1), games[uid]) for uid in after]
    return sorted(out, key=lambda c: (-c.change, -c.games, c.name))


def title(period: str, span: Window, last: bool = False) -> Text:
    """"this week (from Nov 30, 2026)" in the reader's words; `last`: "last week (from …)"."""
    return Text("top.period.last_week" if last else PERIOD_KEYS[period], {"from": span.first})
