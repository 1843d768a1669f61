"""Periods of a chat's tables (`/top … week|month|season`, the weekly table post): pure date arithmetic.

A period is a span of days in the chat's zone: the week (from the chat's first day of the week), the
calendar month, or the season (from the chat's season start, a day of the year; 1 January by default).
Given today's date, `span` says which days the current period holds, `previous` the one before; the
bot turns them into times in the chat's zone. No clock, no zone database here."""

from __future__ import annotations

from datetime import date, timedelta

PERIODS = ("week", "month", "season")


def _season_start(year: int, month: int, day: int) -> date:
    """The season start in `year`; 29 February starts on 1 March in other years."""
    try:
        return date(year, month, day)
    except ValueError:
        return date(year, month, day - 1) + timedelta(days=1)


def span(period: str, today: date, week_start: int = 0, season: tuple[int, int] = (1, 1)) -> tuple[date, date]:
    """The first day of the current `period` and the first day of the next one (exclusive)."""
    if period == "week":
        first = today - timedelta(days=(today.weekday() - week_start) % 7)
        return first, first + timedelta(days=7)
    if period == "month":
        first = today.replace(day=1)
        return first, (first + timedelta(days=32)).replace(day=1)
    if period == "season":
        month, day = season
        first = _season_start(today.year, month, day)
        if first > today:
            first = _season_start(today.year - 1, month, day)
        return first, _season_start(first.year + 1, month, day)
    raise ValueError(period)


def previous(period: str, today: date, week_start: int = 0, season: tuple[int, int] = (1, 1)) -> tuple[date, date]:
    """The period before the current one (the weekly post tells the week that has just ended)."""
    first, _ = span(period, today, week_start, season)
    return span(period, first - timedelta(days=1), week_start, season)
