"""The club's next evening (/termin): its date and time as typed in the chat's zone, who may set it,
the ✅/❌ answer list and the reminders' times. Pure: the caller passes the time, the zone and the words."""

from __future__ import annotations

import re
from collections.abc import Collection, Mapping, Sequence
from dataclasses import dataclass, field
from datetime import date, datetime, time, timedelta, tzinfo

from core import names
from core.errors import GameError

MAX_AHEAD_DAYS = 400  # an evening further ahead is a typo (a year typed wrong)
MAX_NOTE = 100  # characters of the place/note
DAY_BEFORE = 24 * 3600.0  # the first reminder: a day before the start
HOUR_BEFORE = 3600.0  # the second: an hour before
REMINDERS = (("day", DAY_BEFORE), ("hour", HOUR_BEFORE))

_ISO = re.compile(r"(\d{4})-(\d{1,2})-(\d{1,2})")
_DOTTED = re.compile(r"(\d{1,2})\.(\d{1,2})\.?(\d{2}|\d{4})?")  # 12.12. / 12.12 / 12.12.2026 / 12.12.26
_CLOCK = re.compile(r"(\d{1,2})(?:[:h.](\d{2})|h|uhr)?", re.IGNORECASE)  # 19:30, 19.30, 19h30, 19h, 19uhr
_SUFFIXES = ("uhr", "h", "ч", "ч.", "kl", "kl.")  # a word after the time that says "o'clock"


@dataclass(frozen=True)
class Words:
    """The words a date may be typed with, of every language (the chat's first where two disagree):
    weekday names (0 Monday … 6 Sunday), today, tomorrow, and filler words before a time ("at", "um")."""

    weekdays: Mapping[str, int] = field(default_factory=dict)
    today: Collection[str] = ()
    tomorrow: Collection[str] = ()
    fillers: Collection[str] = ()


@dataclass(frozen=True)
class Planned:
    """A /termin as typed: when (aware, in the chat's zone) and the place/note."""

    when: datetime
    note: str


def _word(token: str) -> str:
    return token.casefold().rstrip(".,")


def _day(token: str, today: date, words: Words) -> date | None:
    """The day a token names (a date, a weekday, today/tomorrow); None if it names none. A date without
    a year is its next one (today included); a bad date (31.02.) is refused."""
    if (m := _ISO.fullmatch(token)) is not None:
        y, mo, d = int(m.group(1)), int(m.group(2)), int(m.group(3))
        return _date(token, y, mo, d)
    if (m := _DOTTED.fullmatch(token)) is not None and (token.endswith(".") or m.group(3) or token.count(".") == 1):
        d, mo = int(m.group(1)), int(m.group(2))
        if m.group(3):
            y = int(m.group(3))
            return _date(token, y + 2000 if y < 100 else y, mo, d)
        found = _date(token, today.year, mo, d)
        return found if found >= today else _date(token, today.year + 1, mo, d)
    w = _word(token)
    if w in words.today:
        return today
    if w in words.tomorrow:
        return today + timedelta(days=1)
    if w in words.weekdays:
        return today + timedelta(days=(words.weekdays[w] - today.weekday()) % 7)
    return None


def _date(token: str, y: int, mo: int, d: int) -> date:
    try:
        return date(y, mo, d)
    except ValueError:
        raise GameError("termin.bad_date", given=token[:20]) from None


def _clock(token: str) -> time | None:
    m = _CLOCK.fullmatch(token)
    if m is None or (m.group(2) is None and not token[-1:].isalpha()):
        return None  # a bare number is no time ("19" could be a day): 19:30, 19h, 19uhr are
    h, mi = int(m.group(1)), int(m.group(2) or 0)
    if h > 23 or mi > 59:
        raise GameError("termin.bad_time", given=token[:20])
    return time(h, mi)


def parse(args: Sequence[str], now: datetime, words: Words) -> Planned:
    """`/termin 12.12. 19:30 Gasthof Krone`, `/termin 2026-12-12 19:30`, `/termin Freitag um 20:00`,
    `/termin tomorrow 19h`: a day, then a time (in either order, fillers between), then the note.
    `now`: the current time in the chat's zone. Refused: no day, no time, a day past or too far ahead."""
    tokens = " ".join(args).split()
    day: date | None = None
    at: time | None = None
    used = 0
    for i, token in enumerate(tokens):
        following = _word(tokens[i + 1]) if i + 1 < len(tokens) else ""
        if day is None and (found := _day(token, now.date(), words)) is not None:
            day = found
        elif at is None and (clock := _clock(token + "h" if token.isdecimal() and following in _SUFFIXES
                                             else token)) is not None:
            at = clock  # "20 Uhr" as "20uhr"
        elif _word(token) in words.fillers or (at is not None and _word(token) in _SUFFIXES):
            pass
        else:
            break
        used += 1
    if day is None:
        raise GameError("termin.usage")
    if at is None:
        raise GameError("termin.no_time")
    note = names.clean(" ".join(tokens[used:]))
    if len(note) > MAX_NOTE:
        raise GameError("termin.note_long", max=MAX_NOTE)
    tz = now.tzinfo
    when = datetime.combine(day, at, tz)
    if when <= now and any(_word(t) in words.weekdays for t in tokens[:used]):
        when = datetime.combine(day + timedelta(days=7), at, tz)  # "Friday 19:30" said on Friday at 20:00
    if when <= now:
        raise GameError("termin.past")
    if when - now > timedelta(days=MAX_AHEAD_DAYS):
        raise GameError("termin.too_far", days=MAX_AHEAD_DAYS)
    return Planned(when, note)


def local(ts: float, tz: tzinfo) -> datetime:
    """An evening's start as the chat reads it."""
    return datetime.fromtimestamp(ts, tz)


def reminders(starts: float, now: float) -> list[tuple[str, float]]:
    """The reminders an evening starting at `starts` gets when it is set at `now`: (name, due) of
    those still ahead (an evening set for in two hours gets only the hour's)."""
    return [(name, starts - before) for name, before in REMINDERS if starts - before > now]


@dataclass(frozen=True)
class Answer:
    """One member's answer to an evening: who (the account), their name then, ✅ or ❌, and when."""

    user_id: str
    name: str
    yes: bool
    at: float


def roster(answers: Sequence[Answer]) -> tuple[list[str], list[str]]:
    """The names who come and who do not, each in the order they answered (one answer per user: the last)."""
    last: dict[str, Answer] = {}
    for a in sorted(answers, key=lambda a: a.at):
        last.pop(a.user_id, None)
        last[a.user_id] = a
    ordered = sorted(last.values(), key=lambda a: a.at)
    return [a.name for a in ordered if a.yes], [a.name for a in ordered if not a.yes]
