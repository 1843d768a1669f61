"""What a club evening is, the one definition for /abend, /saison, /kegelstats and the year in review.

A club evening is a calendar day in the chat's time zone (/timezone; UTC by default) whose evening
runs on past midnight: a game that finishes before CUT_OFF_HOUR (06:00) local time still belongs to
the evening of the day before. So games at 23:30 and at 00:30 are one evening, whatever the UTC date.
Pure: the caller passes the time and the zone (a conversion, never a clock reading).
"""

from __future__ import annotations

from datetime import UTC, date, datetime, time, timedelta, tzinfo

CUT_OFF_HOUR = 6  # before 06:00 local time a game still belongs to the evening of the day before


def evening_of(ts: float, tz: tzinfo = UTC) -> date:
    """The club evening (its day) of a Unix time in the zone `tz`."""
    return (datetime.fromtimestamp(ts, tz) - timedelta(hours=CUT_OFF_HOUR)).date()


def evening_starts(day: date, tz: tzinfo = UTC) -> float:
    """When the club evening `day` starts (CUT_OFF_HOUR on that day in `tz`) as a Unix time."""
    return datetime.combine(day, time(CUT_OFF_HOUR), tz).timestamp()
