"""The Kegel-Schnitt chart: a PNG with one coloured line per series."""

from __future__ import annotations

import io
from datetime import date, timedelta
from typing import Any

import pytest
from PIL import Image

from bot.texts.i18n import Catalogs
from core.club import chart as chart_module
from core.club.chart import PALETTE, club_chart, evening_series, label_step, line_chart, member_colours


def colours(png: bytes) -> set[tuple[int, int, int]]:
    img = Image.open(io.BytesIO(png)).convert("RGB")
    return {(c[0], c[1], c[2]) for _, c in img.getcolors(maxcolors=1 << 20) or [] if isinstance(c, tuple)}


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
    day, eight_pm = 86400.0, 20 * 3600.0  # club evenings start at 06:00 (core/club/evenings.py)
    rows = [("anna", "Anna", 1, 10 * day + eight_pm + 100, 15, 3), ("anna", "Anna", 2, 10 * day + eight_pm + 200, 3, 3),
            ("ben", "Ben", 2, 10 * day + eight_pm + 200, 9, 3), ("ben", "Ben", 3, 11 * day + eight_pm + 5, 27, 3)]
    series, labels = evening_series(rows, ["Anna", "Ben"])
    assert labels == [date(1970, 1, 11), date(1970, 1, 12)]
    assert series == [("Anna", [3.0, None]), ("Ben", [3.0, 9.0])]
    assert series_drawn(line_chart(series, [str(d) for d in labels])) == 2


def test_club_chart_adds_wins_by_mode_in_the_members_colours() -> None:
    series: list[tuple[str, list[float | None]]] = [("Anna", [3.0, 4.0]), ("Ben", [5.0, None]), ("Cem", [None, 2.0])]
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


def test_the_x_axis_says_the_year_first_and_where_it_changes() -> None:
    # issue 23.12: a season across New Year (2026/27), read years later, must say which year
    cats = Catalogs()
    days = [date(2026, 11, 29), date(2026, 12, 13), date(2027, 1, 10), date(2027, 2, 7)]
    assert cats.date_axis(days, "de") == ["29.11.\n2026", "13.12.", "10.1.\n2027", "7.2."]
    en = cats.date_axis(days, "en")
    assert "2026" in en[0] and "2027" in en[2] and "20" not in en[1] + en[3]
    # the rating chart: a second game of a day stands under the first one's date
    assert cats.date_axis([date(2026, 12, 31), date(2026, 12, 31), date(2027, 1, 1)], "en",
                          twins=False) == ["12/31\n2026", "", "1/1\n2027"]


def test_the_year_is_on_a_drawn_label_when_only_some_are_drawn() -> None:
    cats = Catalogs()
    days = [date(2026, 12, 1) + timedelta(days=7 * k) for k in range(30)]  # every second label drawn
    labels = cats.date_axis(days, "en")
    drawn = [label for i, label in enumerate(labels) if i % label_step(len(days)) == 0]
    assert "2026" in drawn[0] and any("2027" in label for label in drawn)


def test_the_chart_draws_the_year_under_the_date(monkeypatch: pytest.MonkeyPatch) -> None:
    drawn: list[str] = []
    real = chart_module._text

    def spy(draw: Any, xy: Any, text: str, *args: Any, **kwargs: Any) -> None:
        drawn.append(text)
        real(draw, xy, text, *args, **kwargs)

    monkeypatch.setattr(chart_module, "_text", spy)
    labels = Catalogs().date_axis([date(2026, 12, 13), date(2027, 1, 10)], "de")
    line_chart([("Anna", [5.0, 6.0])], labels)
    assert {"2026", "2027"} <= set(drawn)
    assert "13.12." in drawn
