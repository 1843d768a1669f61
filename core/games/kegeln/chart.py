"""Kegel-Schnitt charts for Hausnummern: a pure function from numbers to PNG bytes (Pillow).

No words are drawn (they would need a language): the axes carry numbers, the legend the
members' names. One line per series, each in its own colour from PALETTE.
"""

from __future__ import annotations

import io
import math
from collections.abc import Sequence
from datetime import UTC, date, datetime

from PIL import Image, ImageDraw, ImageFont

PALETTE = ((214, 39, 40), (31, 119, 180), (44, 160, 44), (255, 127, 14),
           (148, 103, 189), (23, 190, 207), (227, 119, 194), (140, 86, 75))
MAX_SERIES = len(PALETTE)
BACKGROUND = (255, 255, 255)
INK = (60, 60, 60)
GRID = (225, 225, 225)


def line_chart(series: Sequence[tuple[str, Sequence[float | None]]], x_labels: Sequence[str],
               width: int = 720, height: int = 400, y_max: float = 9.0, y_min: float = 0.0) -> bytes:
    """Lines over shared x positions (None = no value there), y from `y_min` to `y_max` (pins per
    throw: 0 to 9; also the skill rating chart of core/ratings_chart.py). At most MAX_SERIES series
    are drawn; a single point is drawn as a dot."""
    return _png(_lines(series, x_labels, width, height, y_max, y_min))


def club_chart(series: Sequence[tuple[str, Sequence[float | None]]], x_labels: Sequence[str],
               wins: Sequence[tuple[int, int]], width: int = 720) -> bytes:
    """The club picture: the Kegel-Schnitt lines on top, below them each member's wins by mode
    (same colour per member; ▲ filled bar = high, ▼ outlined bar = low). `wins[k]` belongs to `series[k]`."""
    top = _lines(series, x_labels, width, 400, 9.0)
    bars = _wins(wins[:MAX_SERIES], width, 220)
    img = Image.new("RGB", (width, top.height + bars.height), BACKGROUND)
    img.paste(top, (0, 0))
    img.paste(bars, (0, top.height))
    return _png(img)


def review_chart(series: Sequence[tuple[str, Sequence[float | None]]], x_labels: Sequence[str],
                 wins: Sequence[tuple[int, int]], halves: Sequence[tuple[str, float, float]],
                 width: int = 720) -> bytes:
    """The year in review: the club picture (`club_chart`) and below it, per member with enough games,
    the Kegel-Schnitt of the first half of their season (outlined bar) beside the second half (filled)."""
    top = _lines(series, x_labels, width, 400, 9.0)
    bars = _wins(wins[:MAX_SERIES], width, 220)
    improve = _halves(halves[:MAX_SERIES], [name for name, _ in series], width, 240)
    img = Image.new("RGB", (width, top.height + bars.height + improve.height), BACKGROUND)
    img.paste(top, (0, 0))
    img.paste(bars, (0, top.height))
    img.paste(improve, (0, top.height + bars.height))
    return _png(img)


def _halves(halves: Sequence[tuple[str, float, float]], order: Sequence[str], width: int,
            height: int) -> Image.Image:
    """Bars of pins per throw (0–9): first half outlined, second half filled, in the member's colour
    (the colour of their line above; a member without a line gets the next free one)."""
    img = Image.new("RGB", (width, height), BACKGROUND)
    draw = ImageDraw.Draw(img)
    font = ImageFont.load_default()
    left, right, top, bottom = 40, width - 150, 20, height - 40
    for tick in (0, 3, 6, 9):
        y = bottom - (bottom - top) * tick / 9
        draw.line([(left, y), (right, y)], fill=GRID)
        draw.text((left - 18, y - 6), str(tick), fill=INK, font=font)
    draw.line([(left, top), (left, bottom), (right, bottom)], fill=INK, width=2)
    slot = (right - left) / max(len(halves), 1)
    bar = min(28.0, slot / 3)
    spare = iter(range(len(order), MAX_SERIES + len(halves)))
    for k, (name, first, second) in enumerate(halves):
        colour = PALETTE[(order.index(name) if name in order else next(spare)) % MAX_SERIES]
        x = left + slot * k + slot / 2
        for j, value in enumerate((first, second)):
            x0 = x - bar + j * bar
            y0 = bottom - (bottom - top) * max(0.0, min(value, 9.0)) / 9
            draw.rectangle([x0 + 2, y0, x0 + bar - 2, bottom - 1], fill=colour if j == 1 else None,
                           outline=colour, width=3)
        draw.text((x - bar, bottom + 8), name[:10], fill=INK, font=font)
    return img


def _png(img: Image.Image) -> bytes:
    out = io.BytesIO()
    img.save(out, format="PNG")
    return out.getvalue()


def _wins(wins: Sequence[tuple[int, int]], width: int, height: int) -> Image.Image:
    img = Image.new("RGB", (width, height), BACKGROUND)
    draw = ImageDraw.Draw(img)
    font = ImageFont.load_default()
    left, right, top, bottom = 40, width - 150, 20, height - 30
    most = max([1, *(w for pair in wins for w in pair)])
    draw.line([(left, top), (left, bottom), (right, bottom)], fill=INK, width=2)
    draw.text((left - 18, top - 6), str(most), fill=INK, font=font)
    draw.text((left - 18, bottom - 6), "0", fill=INK, font=font)
    slot = (right - left) / max(len(wins), 1)
    bar = min(28.0, slot / 3)
    for k, (high, low) in enumerate(wins):
        colour = PALETTE[k]
        x = left + slot * k + slot / 2
        for j, value in enumerate((high, low)):
            x0 = x - bar + j * bar
            y0 = bottom - (bottom - top) * value / most
            if value:
                draw.rectangle([x0 + 2, y0, x0 + bar - 2, bottom - 1], fill=colour if j == 0 else None,
                               outline=colour, width=3)
            cx, cy = x0 + bar / 2, bottom + 14
            tri = [(cx - 5, cy + 4), (cx + 5, cy + 4), (cx, cy - 4)] if j == 0 else \
                [(cx - 5, cy - 4), (cx + 5, cy - 4), (cx, cy + 4)]
            draw.polygon(tri, fill=INK)
    return img


def _lines(series: Sequence[tuple[str, Sequence[float | None]]], x_labels: Sequence[str],
           width: int, height: int, y_max: float, y_min: float = 0.0) -> Image.Image:
    series = list(series)[:MAX_SERIES]
    img = Image.new("RGB", (width, height), BACKGROUND)
    draw = ImageDraw.Draw(img)
    font = ImageFont.load_default()
    left, right, top, bottom = 40, width - 150, 20, height - 40
    n = max(len(x_labels), 1)

    def x_of(i: int) -> float:
        return left + (right - left) * (i + 0.5) / n

    span = max(y_max - y_min, 1e-9)

    def y_of(v: float) -> float:
        return bottom - (bottom - top) * (max(y_min, min(v, y_max)) - y_min) / span

    step = max(1, math.ceil(span / 10))  # at most about ten grid lines, at whole numbers
    for tick in range(math.ceil(y_min / step) * step, int(y_max) + 1, step):
        y = y_of(tick)
        draw.line([(left, y), (right, y)], fill=GRID)
        draw.text((left - max(18, 6 * len(str(tick)) + 4), y - 6), str(tick), fill=INK, font=font)
    draw.line([(left, top), (left, bottom), (right, bottom)], fill=INK, width=2)
    step = max(1, n // 12)
    for i, label in enumerate(x_labels):
        if i % step == 0:
            draw.text((x_of(i) - 12, bottom + 8), str(label)[:10], fill=INK, font=font)
    for k, (name, values) in enumerate(series):
        colour = PALETTE[k]
        points = [(x_of(i), y_of(v)) for i, v in enumerate(values) if v is not None]
        if len(points) > 1:
            draw.line(points, fill=colour, width=3)
        for x, y in points:
            draw.ellipse([x - 4, y - 4, x + 4, y + 4], fill=colour)
        ly = top + 18 * k
        draw.rectangle([right + 12, ly + 2, right + 24, ly + 12], fill=colour)
        draw.text((right + 30, ly), name[:16], fill=INK, font=font)
    return img


def evening_series(rows: Sequence[tuple[str, str, int, float, int, int]], names: Sequence[str],
                   utc_offset_hours: float = 0.0) -> tuple[list[tuple[str, list[float | None]]], list[date]]:
    """Each named member's Kegel-Schnitt per club evening (a calendar day), from store rows
    (member, name, game id, time, pins, throws); the first MAX_SERIES names get a line. The
    evenings come as dates: the caller writes them in the reader's language."""
    wanted = [n.casefold() for n in names][:MAX_SERIES]
    days: list[date] = []
    sums: dict[tuple[str, date], list[int]] = {}
    for member, _name, _game, at, pins, throws in rows:
        day = _day(at + utc_offset_hours * 3600)
        if day not in days:
            days.append(day)
        acc = sums.setdefault((member, day), [0, 0])
        acc[0] += pins
        acc[1] += throws
    series = []
    for name, key in zip(names, wanted, strict=False):
        values: list[float | None] = []
        for day in days:
            got = sums.get((key, day))
            values.append(got[0] / got[1] if got and got[1] else None)
        series.append((name, values))
    return series, days


def _day(ts: float) -> date:
    """The calendar day of a Unix time in UTC (a conversion, not a clock reading)."""
    return datetime.fromtimestamp(ts, UTC).date()
