"""/jahresrueckblick's figures as a careful reader checks them (issue 40): the best evening names everyone
who shares it (each with their evening), and a record set in several games counts each of those games."""

from __future__ import annotations

from datetime import UTC, date, datetime

from core.club.season import SeasonRow, review


def row(member: str, game: int, day: int, *, pins: int = 30, throws: int = 6, nines: int = 0,
        number: int = 500, mode: str = "high") -> SeasonRow:
    at = datetime(2026, 12, day, 20, 0, tzinfo=UTC).timestamp()
    return SeasonRow(member.lower(), member, game, at, mode, 3, None, number, 1, 0, throws, pins, nines, 0)


def test_the_best_evening_names_all_who_share_it() -> None:
    rows = [row("Anna", 1, 3, pins=36), row("Ben", 1, 3, pins=24),  # Anna 6.0 on Dec 3
            row("Ben", 2, 10, pins=36), row("Anna", 2, 10, pins=30)]  # Ben 6.0 on Dec 10
    best = review(rows).best_evening
    assert best is not None and best.value == 6.0
    assert best.names == ("Anna", "Ben")
    assert best.days == ((date(2026, 12, 3),), (date(2026, 12, 10),))


def test_a_record_set_in_several_games_counts_each() -> None:
    rows = [row("Anna", 1, 3, nines=3, number=987), row("Ben", 1, 3, nines=1, number=321),
            row("Anna", 2, 10, nines=1, number=654), row("Ben", 2, 10, nines=3, number=987),
            row("Anna", 3, 17, nines=3, number=100), row("Ben", 3, 17, nines=0, number=200)]
    rv = review(rows)
    assert rv.most_nines is not None and rv.most_nines.value == 3
    assert rv.most_nines.names == ("Anna", "Ben")
    assert rv.most_nines.each == ((1, 3), (2,))  # Anna threw three 9s in games 1 and 3, Ben in game 2
    assert rv.highest is not None and rv.highest.names == ("Anna", "Ben") and rv.highest.each == ((1,), (2,))
