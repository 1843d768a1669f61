"""The Kegel club's season: its dates, its table and the year in review (/saison, /jahresrueckblick).

Pure: the App passes the rows read from the kegeln tables and the time; nothing here reads a clock.

A season starts every year on the club's start day (month and day, default 1 January) at 00:00 UTC
and runs until the day before the next start. Season `2026` is the one that starts in 2026; with a
start other than 1 January it is written `2026/27`. A game belongs to the season in which it
finished (`kegeln_members.at`).
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from datetime import UTC, date, datetime, tzinfo
from fractions import Fraction
from typing import NamedTuple

from core.club.evenings import evening_of
from core.errors import GameError

MIN_IMPROVED_GAMES = 4  # games in the season before a member counts for "the most improved" (2 per half)


@dataclass(frozen=True)
class Start:
    """The day every season starts (month, day); 1 January by default."""

    month: int = 1
    day: int = 1

    def begins(self, year: int) -> datetime:
        """When season `year` starts (00:00 UTC); 29 February starts on 1 March in other years."""
        try:
            return datetime(year, self.month, self.day, tzinfo=UTC)
        except ValueError:
            return datetime(year, 3, 1, tzinfo=UTC)

    def span(self, year: int) -> tuple[float, float]:
        """Season `year` as Unix times [from, until)."""
        return self.begins(year).timestamp(), self.begins(year + 1).timestamp()

    def year_at(self, ts: float) -> int:
        """The season a Unix time belongs to (a conversion, not a clock reading)."""
        year = datetime.fromtimestamp(ts, UTC).year
        return year if ts >= self.begins(year).timestamp() else year - 1

    def label(self, year: int) -> str:
        """`2026`, or `2026/27` for a season that does not start on 1 January."""
        return str(year) if (self.month, self.day) == (1, 1) else f"{year}/{(year + 1) % 100:02d}"

    def last_day(self, year: int) -> date:
        return date.fromordinal(self.begins(year + 1).date().toordinal() - 1)


DATE_ISO = re.compile(r"(?:\d{4}-)?(\d{1,2})-(\d{1,2})")  # 2026-09-01 or 09-01 (the year is not kept)
DATE_DOTS = re.compile(r"(\d{1,2})\.(\d{1,2})\.?(?:\d{4})?")  # 1.9. or 01.09.2026
DATE_SLASH = re.compile(r"(\d{1,2})/(\d{1,2})")  # 9/1 (month/day, as English writes it)
YEAR = re.compile(r"(\d{4})(?:/\d{2})?")  # 2025 or 2025/26


def parse_start(word: str) -> Start | None:
    """A season start as typed: `2026-09-01`, `09-01`, `1.9.`, `01.09.2026`, `9/1`, or a month `9`;
    None when the word is no date; a date that does not exist is refused."""
    w = word.strip()
    if m := DATE_ISO.fullmatch(w):
        month, day = int(m[1]), int(m[2])
    elif m := DATE_DOTS.fullmatch(w):
        day, month = int(m[1]), int(m[2])
    elif m := DATE_SLASH.fullmatch(w):
        month, day = int(m[1]), int(m[2])
    elif w.isdecimal() and len(w) <= 2:
        month, day = int(w), 1
    else:
        return None
    try:
        date(2024, month, day)  # a leap year: 29 February is a day
    except ValueError:
        raise GameError("kegeln.season.bad_date", given=word[:20]) from None
    return Start(month, day)


def parse_year(word: str) -> int | None:
    """A season as typed: `2025` or `2025/26` → 2025; None when it is no season."""
    m = YEAR.fullmatch(word.strip())
    if not m:
        return None
    year = int(m[1])
    if not 1970 <= year <= 9998:
        raise GameError("kegeln.season.bad_year", given=word[:20])
    return year


class SeasonRow(NamedTuple):
    """One member's line of one finished game (kegeln_members with the game's places)."""

    member: str  # the casefolded name
    name: str
    game_id: int
    at: float
    mode: str
    digits: int
    team: int | None
    number: int
    place: int
    win: int
    throws: int
    pins: int
    nines: int
    pumpen: int


@dataclass
class Line:
    """A member's season: games, wins by mode, numbers of the high-mode games, 9s, Pumpen, pins and throws."""

    name: str
    games: int = 0
    wins_high: int = 0
    wins_low: int = 0
    nines: int = 0
    pumpen: int = 0
    pins: int = 0
    throws: int = 0
    high_numbers: dict[int, list[int]] | None = None  # the high-mode Hausnummern by the game's places

    @property
    def wins(self) -> int:
        return self.wins_high + self.wins_low

    @property
    def schnitt(self) -> Fraction | None:
        return Fraction(self.pins, self.throws) if self.throws else None

    def numbers(self) -> list[Numbers]:
        """The high-mode Hausnummern per number of places, fewest places first: a 2-place number (at
        most 99) and a 6-place one (at most 999999) are not comparable, so they are never averaged together."""
        return [Numbers(places, sum(ns) / len(ns), max(ns), min(ns))
                for places, ns in sorted((self.high_numbers or {}).items())]


class Numbers(NamedTuple):
    """A member's high-mode games of one number of places: the average Hausnummer, the best and the worst."""

    places: int
    average: float
    best: int
    worst: int


def names_of(rows: Sequence[SeasonRow]) -> dict[str, str]:
    """Each member's most recent spelling in the rows (rows oldest first)."""
    out: dict[str, str] = {}
    for r in rows:
        out[r.member] = r.name
    return out


def table(rows: Sequence[SeasonRow]) -> list[Line]:
    """The season's club table: most wins first, then the best Kegel-Schnitt, then the name."""
    spelled = names_of(rows)
    lines: dict[str, Line] = {}
    for r in rows:
        line = lines.setdefault(r.member, Line(spelled[r.member], high_numbers={}))
        line.games += 1
        line.wins_high += r.win if r.mode == "high" else 0
        line.wins_low += r.win if r.mode == "low" else 0
        line.nines += r.nines
        line.pumpen += r.pumpen
        line.pins += r.pins
        line.throws += r.throws
        if r.mode == "high" and line.high_numbers is not None:
            line.high_numbers.setdefault(r.digits, []).append(r.number)
    return sorted(lines.values(), key=lambda x: (-x.wins, -(x.schnitt or 0), x.name.casefold()))


@dataclass(frozen=True)
class Record:
    """A record: who, its value, and the game (or evening) it was set in; `games`: each holder's own
    (first) game, beside `names` (two members who share a record set it in games of their own); `each`:
    every game each holder set it in (a record equalled in a second game counts that game too); `days`:
    every evening each holder set it on (the best evening)."""

    names: tuple[str, ...]
    value: int | float
    game_id: int = 0
    day: date | None = None
    games: tuple[int, ...] = ()
    each: tuple[tuple[int, ...], ...] = ()
    days: tuple[tuple[date, ...], ...] = ()


@dataclass(frozen=True)
class Review:
    """The year in review: the champion (the table's first), the most improved (Kegel-Schnitt of
    the second half of the member's games in the season minus the first half, with at least
    MIN_IMPROVED_GAMES games; only a gain counts), the Pumpen king (most Pumpen), the best evening
    (a member's best Kegel-Schnitt over one club evening, a UTC calendar day) and the records of one
    game: the highest Hausnummer (high mode), the lowest (low mode), the most 9s."""

    games: int
    evenings: int
    champion: Line | None
    improved: tuple[str, float] | None
    halves: list[tuple[str, float, float]]  # (name, first half, second half) for the picture
    pumpen_king: Record | None
    best_evening: Record | None
    highest: Record | None
    lowest: Record | None
    most_nines: Record | None
    champions: tuple[str, ...] = ()  # all who share the champion's wins (the champion first)


def _top(values: Mapping[str, tuple[int | float, int]], highest: bool = True) -> Record | None:
    """Everyone with the best value (name → (value, game)); the earliest game names the record's game."""
    if not values:
        return None
    best = max(v for v, _ in values.values()) if highest else min(v for v, _ in values.values())
    holders = sorted((g, n) for n, (v, g) in values.items() if v == best)
    return Record(tuple(n for _, n in holders), best, holders[0][0], games=tuple(g for g, _ in holders))


def review(rows: Sequence[SeasonRow], tz: tzinfo = UTC) -> Review:
    """The season's review from its rows (oldest first); its evenings are club evenings in the
    chat's zone `tz` (core/club/evenings.py)."""
    spelled = names_of(rows)
    lines = table(rows)
    games = {r.game_id for r in rows}
    days = {evening_of(r.at, tz) for r in rows}

    by_member: dict[str, list[SeasonRow]] = {}
    for r in rows:
        by_member.setdefault(r.member, []).append(r)
    halves: list[tuple[str, float, float]] = []
    improved: tuple[str, float] | None = None
    for member, mine in by_member.items():
        if len(mine) < MIN_IMPROVED_GAMES:
            continue
        cut = len(mine) // 2
        first, second = mine[:cut], mine[cut:]
        a = Fraction(sum(r.pins for r in first), max(sum(r.throws for r in first), 1))
        b = Fraction(sum(r.pins for r in second), max(sum(r.throws for r in second), 1))
        halves.append((spelled[member], float(a), float(b)))
        gain = float(b - a)
        if gain > 0 and (improved is None or gain > improved[1]):
            improved = (spelled[member], gain)

    pumpen = {ln.name: (ln.pumpen, 0) for ln in lines if ln.pumpen}
    king = _top(pumpen)

    evening: dict[tuple[str, date], list[int]] = {}
    for r in rows:
        acc = evening.setdefault((r.member, evening_of(r.at, tz)), [0, 0])
        acc[0] += r.pins
        acc[1] += r.throws
    best_evening = None
    if evening:  # everyone who shares the best Kegel-Schnitt of an evening, each with every such evening
        of = {key: Fraction(p, max(t, 1)) for key, (p, t) in evening.items()}
        top = max(of.values())
        shared: dict[str, list[date]] = {}
        for (member, day), value in sorted(of.items(), key=lambda kv: (kv[0][1], kv[0][0])):
            if value == top:
                shared.setdefault(member, []).append(day)
        best_evening = Record(tuple(spelled[m] for m in shared), float(top), day=min(min(d) for d in shared.values()),
                              days=tuple(tuple(d) for d in shared.values()))

    def one_game(pick: str, mode: str | None, highest: bool) -> Record | None:
        """Everyone with the best value of one game, each with every game they set it in (oldest first)."""
        found: dict[str, tuple[int | float, list[int]]] = {}
        for r in sorted(rows, key=lambda r: r.game_id):
            if mode is not None and r.mode != mode:
                continue
            value = getattr(r, pick)
            if pick == "nines" and not value:
                continue
            key = spelled[r.member]
            old = found.get(key)
            if old is None or (value > old[0] if highest else value < old[0]):
                found[key] = (value, [r.game_id])
            elif value == old[0] and r.game_id not in old[1]:
                old[1].append(r.game_id)
        top = _top({name: (value, games[0]) for name, (value, games) in found.items()}, highest)
        if top is None:
            return None
        return replace(top, each=tuple(tuple(found[name][1]) for name in top.names))

    champions = tuple(ln.name for ln in lines if ln.wins == lines[0].wins) if lines else ()
    return Review(len(games), len(days), lines[0] if lines else None, improved, halves, king, best_evening,
                  one_game("number", "high", True), one_game("number", "low", False), one_game("nines", None, True),
                  champions)
