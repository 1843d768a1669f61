"""The Kegel-Schnitt chart: a PNG with one coloured line per series."""

from __future__ import annotations

import io
from datetime import date

from PIL import Image

from bot.i18n import Catalogs
from core.games.kegeln.chart import PALETTE, club_chart, evening_series, line_chart, member_colours


def colours(png: bytes) -> set[tuple[int, int, int]]:
    img = Image.open(io.BytesIO(png)).convert("RGB")
    return {c for _, c in img.getcolors(maxcolors=1 << 20) or []}


def series_drawn(png: bytes) -> int:
    return len(colours(png) & set(PALETTE))


def test_one_colour_per_series() -> None:
    for n in (1, 3, 5):
        png = line_chart([(f"M{i}", [1.0 + i, 5.0, None, 4.5]) for i in range(n)], ["a", "b", "c", "d"])
        assert png.startswith(b"\x89PNG") and series_drawn(png) == n
    assert Image.open(io.BytesIO(png)).size == (720, 400)


def test_at_most_the_palette_and_a_single_point() -> None:
    many = line_chart([(f"M{i}", [float(i)]) for i in range(12)], ["1"])
    assert series_drawn(many) == len(PALETTE)


def test_evening_series_averages_per_day() -> None:
    day = 86400.0
    rows = [("anna", "Anna", 1, 10 * day + 100, 15, 3), ("anna", "Anna", 2, 10 * day + 200, 3, 3),
            ("ben", "Ben", 2, 10 * day + 200, 9, 3), ("ben", "Ben", 3, 11 * day + 5, 27, 3)]
    series, labels = evening_series(rows, ["Anna", "Ben"])
    assert labels == [date(1970, 1, 11), date(1970, 1, 12)]
    assert series == [("Anna", [3.0, None]), ("Ben", [3.0, 9.0])]
    assert series_drawn(line_chart(series, labels)) == 2


def test_club_chart_adds_wins_by_mode_in_the_members_colours() -> None:
    series = [("Anna", [3.0, 4.0]), ("Ben", [5.0, None]), ("Cem", [None, 2.0])]
    png = club_chart(series, ["a", "b"], [(2, 0), (0, 1), (0, 0)])
    img = Image.open(io.BytesIO(png))
    assert img.size == (720, 620) and series_drawn(png) == 3
    bars = img.convert("RGB").crop((0, 400, 720, 620))
    in_bars = {c for _, c in bars.getcolors(maxcolors=1 << 20) or []} & set(PALETTE)
    assert in_bars == set(member_colours(["Anna", "Ben", "Cem"])[:2])  # Cem has no wins: no bar


def test_evenings_are_labelled_as_the_reader_writes_dates() -> None:
    cats = Catalogs()
    labels = {lang: cats.day_month(date(2026, 11, 29), lang) for lang in ("en", "de", "ru", "sv")}
    assert labels == {"en": "11/29", "de": "29.11.", "ru": "29.11", "sv": "29/11"}
