"""What the club's pictures are drawn with for a chat: its time zone, its dates and the charts' words in its
language.
"""

from __future__ import annotations

from datetime import date, tzinfo
from typing import Any

from bot.games.plugin import Services
from bot.schedule.zones import zone
from core.club import chart as club_chart
from core.club import season as seasons
from core.messages import Inbound, Text


async def chart_words(svc: Services, ib: Inbound) -> club_chart.Words:
    """The Kegel pictures' titles, axis caption and legends in the chat's language."""
    lang = await svc.lang(ib)

    def say(key: str, **params: Any) -> str:
        return svc.catalogs.render(Text(key, params), lang)

    return club_chart.Words(
        lines=say("kegeln.chart.lines"), y_axis=say("kegeln.chart.y_axis"), wins=say("kegeln.chart.wins"),
        high=say("kegeln.mode_high"), low=say("kegeln.mode_low"), halves=say("kegeln.chart.halves"),
        first=say("kegeln.chart.first"), second=say("kegeln.chart.second"),
        halves_none=say("kegeln.chart.halves_none", n=seasons.MIN_IMPROVED_GAMES))


async def chat_zone(svc: Services, ib: Inbound) -> tzinfo:
    """The chat's time zone (/timezone, kept per group; UTC by default): where its club evenings lie."""
    return zone(await svc.store.chat_tz(ib.chat.platform, ib.chat.group))


async def day_labels(svc: Services, days: list[date], ib: Inbound) -> list[str]:
    """A chart's evenings as the chat reads dates (the picture is drawn once, for the chat)."""
    lang = await svc.lang(ib)
    return svc.catalogs.date_axis(days, lang)
