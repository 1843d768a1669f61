"""A chat's time zone (`/timezone`, kept per group): the zone its daily puzzle's days and its Kegel
club's evenings lie in — one setting that several games read, so it lives outside any game."""

from __future__ import annotations

from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

DEFAULT_TZ = "UTC"


def zone(name: str | None) -> ZoneInfo:
    """The named zone; UTC for none, or for a zone the system no longer knows."""
    try:
        return ZoneInfo(name or DEFAULT_TZ)
    except (ZoneInfoNotFoundError, ValueError):
        return ZoneInfo(DEFAULT_TZ)
