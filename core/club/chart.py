"""The club's Kegel-Schnitt charts: a pure function from numbers and words to PNG bytes (Pillow).

The words come from the caller in the reader's language (`Words`; core/ holds no catalog): panel
titles, the y axis's caption and the legends. Empty words are not drawn. Names and words are drawn
with the font of core/pictures.py (Latin, Latin-extended, Cyrillic; what it cannot draw, such as
emoji, is left out). One line per series, each in its own colour from PALETTE; ▲ and ▼ are drawn
as triangles.
"""

from __future__ import annotations

import io
import math
import zlib
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import UTC, date, tzinfo

from PIL import Image, ImageDraw

from core import pictures
from core.club.evenings import evening_of

PALETTE = ((214, 39, 40), (31, 119, 180), (44, 160, 44), (255, 127, 14),
           (148, 103, 189), (23, 190, 207), (227, 119, 194), (140, 86, 75))
MAX_SERIES = len(PALETTE)


def member_colours(names: Sequence[str]) -> list[tuple[int, int, int]]:
    """Each name's colour: its own one of PALETTE (by a hash of the casefolded name), so that a member
    keeps their colour from chart to chart, whatever the order (the club table, a season, the review,
    their own chart). Two names of one chart whose colours meet: the first by the alphabet keeps it,
    the other takes the next free one (the same in every order)."""
    taken: dict[int, str] = {}
    chosen: dict[str, int] = {}
    for name in sorted(dict.fromkeys(names), key=lambda n: (n.casefold(), n)):
        k = zlib.crc32(pictures.drawable(name).casefold().encode()) % len(PALETTE)  # the name as drawn
        while k in taken and len(taken) < len(PALETTE):
            k = (k + 1) % len(PALETTE)
        taken[k] = name
        chosen[name] = k
    return [PALETTE[chosen[name]] for name in names]
BACKGROUND = (255, 255, 255)
INK = (60, 60, 60)
GRID = (225, 225, 225)
CARD = (250, 246, 234)
GOLD = (201, 154, 20)
TITLE_SIZE = 15
TITLE_Y = 8  # a panel's title: drawn at (12, TITLE_Y) in the band of TITLE_BAND pixels on top
TITLE_BAND = 36
PLOT_TOP = TITLE_BAND + 8  # below a title: the plot (or the y axis's caption) starts here
Y_CAPTION = 24  # the y axis's caption takes this much above the plot
TEXT_SIZE = 12
CARD_SIZE = 14
CARD_TITLE_SIZE = 17
LEGEND_W = 150  # the legend column at the right of every panel
LEGEND_LINE = 16  # the height of a line of a legend entry
X_LABEL_LINE = 14  # an x label's second line (the year under a date) starts this much lower


def label_step(n: int) -> int:
    """Of `n` x labels every label_step(n)-th is drawn (the first one always): at most about twelve."""
    return max(1, n // 12)


@dataclass(frozen=True)
class Words:
    """A chart's words in the reader's language (the caller renders them); empty = not drawn."""

    lines: str = ""        # title of the Kegel-Schnitt panel ("Kegel-Schnitt per evening")
    y_axis: str = ""       # its y axis ("pins per throw")
    wins: str = ""         # title of the wins panel ("Wins by mode")
    high: str = ""         # legend of the filled bar under ▲
    low: str = ""          # legend of the outlined bar under ▼
    halves: str = ""       # title of the review's third panel (first half beside second half)
    first: str = ""        # legend of its outlined bar
    second: str = ""       # legend of its filled bar
    halves_none: str = ""  # the third panel without bars says why ("from 4 games on"); empty: left out


def line_chart(series: Sequence[tuple[str, Sequence[float | None]]], x_labels: Sequence[str],
               width: int = 720, height: int = 400, y_max: float = 9.0, y_min: float = 0.0,
               words: Words = Words()) -> bytes:
    """Lines over shared x positions (None = no value there), y from `y_min` to `y_max` (pins per
    throw: 0 to 9; also the skill rating chart of core/ratings_chart.py). At most MAX_SERIES series
    are drawn; a single point is drawn as a dot. `words.lines` and `words.y_axis` label it. Of the
    x labels every `label_step`-th is drawn; a label may have a second line after "\n" (the year
    under a date: bot/texts/i18n.py `Catalogs.date_axis`)."""
    return _png(_lines(series, x_labels, width, height, y_max, y_min, words))


def club_chart(series: Sequence[tuple[str, Sequence[float | None]]], x_labels: Sequence[str],
               wins: Sequence[tuple[int, int]], width: int = 720, words: Words = Words()) -> bytes:
    """The club picture: the Kegel-Schnitt lines on top, below them each member's wins by mode
    (same colour per member; ▲ filled bar = high, ▼ outlined bar = low). `wins[k]` belongs to `series[k]`."""
    return _png(_stack([_lines(series, x_labels, width, 400, 9.0, 0.0, words),
                        _wins(wins[:MAX_SERIES], [name for name, _ in series], width, 220, words)], width))


def review_chart(series: Sequence[tuple[str, Sequence[float | None]]], x_labels: Sequence[str],
                 wins: Sequence[tuple[int, int]], halves: Sequence[tuple[str, float, float]],
                 width: int = 720, words: Words = Words(), card: Sequence[str] = ()) -> bytes:
    """The year in review: a recap card on top (`card`: a heading, then one line per highlight — the
    champion, the Pumpen king, the best evening, the records), the club picture (`club_chart`) and
    below it, per member with enough games, the Kegel-Schnitt of the first half of their season
    (outlined bar) beside the second half (filled). Without such a member the third panel shows
    `words.halves_none` (left out when that is empty)."""
    names = [name for name, _ in series]
    panels = [_card(card, width)] if card else []
    panels += [_lines(series, x_labels, width, 400, 9.0, 0.0, words),
               _wins(wins[:MAX_SERIES], names, width, 220, words)]
    if halves:
        panels.append(_halves(halves[:MAX_SERIES], names, width, 240, words))
    elif words.halves_none:
        panels.append(_note(words.halves, words.halves_none, width))
    return _png(_stack(panels, width))


def _stack(panels: Sequence[Image.Image], width: int) -> Image.Image:
    img = Image.new("RGB", (width, sum(p.height for p in panels)), BACKGROUND)
    y = 0
    for panel in panels:
        img.paste(panel, (0, y))
        y += panel.height
    return img


def _text(draw: ImageDraw.ImageDraw, xy: tuple[float, float], text: str, width: float, size: int = TEXT_SIZE,
          bold: bool = False, anchor: str = "la", fill: tuple[int, int, int] = INK) -> None:
    """`text` in the pictures' font, cut to `width` pixels (what the font cannot draw left out)."""
    draw.text(xy, pictures.fit(text, width, size, bold), fill=fill, font=pictures.font(size, bold), anchor=anchor)


def _top(draw: ImageDraw.ImageDraw, title: str, width: int) -> int:
    """Draws the panel's title; the y where the plot may start."""
    if not title:
        return 20
    _text(draw, (12, TITLE_Y), title, width - 24, TITLE_SIZE, bold=True)
    return PLOT_TOP


def _triangle(draw: ImageDraw.ImageDraw, cx: float, cy: float, up: bool) -> None:
    tri = [(cx - 5, cy + 4), (cx + 5, cy + 4), (cx, cy - 4)] if up else \
        [(cx - 5, cy - 4), (cx + 5, cy - 4), (cx, cy + 4)]
    draw.polygon(tri, fill=INK)


def _card(lines: Sequence[str], width: int) -> Image.Image:
    """The recap card: the first line as its heading (bold), the others each behind a bullet, wrapped."""
    pad, inner = 20, width - 2 * 20 - 24
    heading = pictures.wrap(lines[0], width - 2 * pad, CARD_TITLE_SIZE, bold=True)
    body = [pictures.wrap(line, inner, CARD_SIZE) for line in lines[1:]]
    height = pad + 24 * len(heading) + 8 + sum(20 * len(b) + 6 for b in body) + pad
    img = Image.new("RGB", (width, height), BACKGROUND)
    draw = ImageDraw.Draw(img)
    draw.rounded_rectangle([6, 6, width - 7, height - 7], radius=10, fill=CARD, outline=GOLD, width=2)
    y = pad
    for line in heading:
        draw.text((pad, y), line, fill=INK, font=pictures.font(CARD_TITLE_SIZE, bold=True))
        y += 24
    y += 8
    for k, wrapped in enumerate(body):
        colour = GOLD if k == 0 else INK  # not a member's colour: the bullets name nobody
        draw.ellipse([pad + 4, y + 5, pad + 12, y + 13], fill=colour)
        for line in wrapped:
            draw.text((pad + 24, y), line, fill=INK, font=pictures.font(CARD_SIZE))
            y += 20
        y += 6
    return img


def _note(title: str, why: str, width: int) -> Image.Image:
    """A panel without a plot: its title and why it is empty."""
    img = Image.new("RGB", (width, 80), BACKGROUND)
    draw = ImageDraw.Draw(img)
    top = _top(draw, title, width)
    _text(draw, (12, top), why, width - 24, CARD_SIZE)
    return img


def _legend_box(draw: ImageDraw.ImageDraw, x: float, y: float, colour: tuple[int, int, int], filled: bool,
                label: str, width: float) -> float:
    """A legend entry; a label too long for one line goes on two ("niedrige / Nummern", not "niedrige
    Numm…"). Returns the y below it."""
    draw.rectangle([x, y + 2, x + 12, y + 12], fill=colour if filled else None, outline=colour, width=2)
    lines = pictures.wrap(label, width - 18, TEXT_SIZE)
    shown = [*lines[:1], " ".join(lines[1:])] if len(lines) > 1 else lines
    for i, line in enumerate(shown):
        _text(draw, (x + 18, y + LEGEND_LINE * i), line, width - 18)
    return y + LEGEND_LINE * max(len(shown), 1) + 4


def _halves(halves: Sequence[tuple[str, float, float]], order: Sequence[str], width: int,
            height: int, words: Words) -> Image.Image:
    """Bars of pins per throw (0–9): first half outlined, second half filled, in the member's colour
    (the colour of their line above; a member without a line gets the next free one)."""
    img = Image.new("RGB", (width, height), BACKGROUND)
    draw = ImageDraw.Draw(img)
    font = pictures.font(TEXT_SIZE)
    top = _top(draw, words.halves, width)
    left, right, bottom = 40, width - LEGEND_W, height - 40
    for tick in (0, 3, 6, 9):
        y = bottom - (bottom - top) * tick / 9
        draw.line([(left, y), (right, y)], fill=GRID)
        draw.text((left - 6, y), str(tick), fill=INK, font=font, anchor="rm")
    draw.line([(left, top), (left, bottom), (right, bottom)], fill=INK, width=2)
    y = float(top)
    for j, label in enumerate((words.first, words.second)):
        if label:
            y = _legend_box(draw, right + 12, y, INK, j == 1, label, LEGEND_W - 20)
    slot = (right - left) / max(len(halves), 1)
    bar = min(28.0, slot / 3)
    colours = dict(zip([*order, *(h[0] for h in halves if h[0] not in order)],
                       member_colours([*order, *(h[0] for h in halves if h[0] not in order)]), strict=True))
    for k, (name, first, second) in enumerate(halves):
        colour = colours[name]
        x = left + slot * k + slot / 2
        for j, value in enumerate((first, second)):
            x0 = x - bar + j * bar
            y0 = bottom - (bottom - top) * max(0.0, min(value, 9.0)) / 9
            _bar(draw, x0 + 2, y0, x0 + bar - 2, bottom - 1, fill=colour if j == 1 else None, outline=colour)
        _text(draw, (x, bottom + 8), name, slot - 4, anchor="ma")
    return img


def _bar(draw: ImageDraw.ImageDraw, x0: float, y0: float, x1: float, y1: float,
         fill: tuple[int, int, int] | None, outline: tuple[int, int, int]) -> None:
    """A bar from `y0` (its top) down to `y1` (the axis). A value too small for a pixel (1 win beside 135,
    about 0 pins per throw) would put its top below the axis, which Pillow refuses (`y1 must be greater than
    or equal to y0`): such a bar is drawn as the thinnest one, on the axis, never upside down."""
    top = min(y0, y1)
    left, right = min(x0, x1), max(x0, x1)
    draw.rectangle([left, top, right, y1], fill=fill, outline=outline, width=min(3, max(1, int(y1 - top) + 1)))


def _png(img: Image.Image) -> bytes:
    out = io.BytesIO()
    img.save(out, format="PNG")
    return out.getvalue()


def _wins(wins: Sequence[tuple[int, int]], names: Sequence[str], width: int, height: int,
          words: Words) -> Image.Image:
    img = Image.new("RGB", (width, height), BACKGROUND)
    draw = ImageDraw.Draw(img)
    font = pictures.font(TEXT_SIZE)
    top = _top(draw, words.wins, width)
    left, right, bottom = 40, width - LEGEND_W, height - 46
    most = max([1, *(w for pair in wins for w in pair)])
    draw.line([(left, top), (left, bottom), (right, bottom)], fill=INK, width=2)
    draw.text((left - 6, top), str(most), fill=INK, font=font, anchor="rm")
    draw.text((left - 6, bottom), "0", fill=INK, font=font, anchor="rm")
    y = float(top)
    for j, label in enumerate((words.high, words.low)):
        if label:
            _triangle(draw, right + 18, y + 8, up=j == 0)
            y = _legend_box(draw, right + 28, y, INK, j == 0, label, LEGEND_W - 36)
    slot = (right - left) / max(len(wins), 1)
    bar = min(28.0, slot / 3)
    colours = member_colours(names)
    for k, (high, low) in enumerate(wins):
        colour = colours[k] if k < len(colours) else PALETTE[k % len(PALETTE)]
        x = left + slot * k + slot / 2
        for j, value in enumerate((high, low)):
            x0 = x - bar + j * bar
            y0 = bottom - (bottom - top) * value / most
            if value:
                _bar(draw, x0 + 2, y0, x0 + bar - 2, bottom - 1, fill=colour if j == 0 else None, outline=colour)
            _triangle(draw, x0 + bar / 2, bottom + 14, up=j == 0)
        if k < len(names):
            _text(draw, (x, bottom + 24), names[k], slot - 4, anchor="ma")
    return img


def _lines(series: Sequence[tuple[str, Sequence[float | None]]], x_labels: Sequence[str],
           width: int, height: int, y_max: float, y_min: float = 0.0, words: Words = Words()) -> Image.Image:
    series = list(series)[:MAX_SERIES]
    img = Image.new("RGB", (width, height), BACKGROUND)
    draw = ImageDraw.Draw(img)
    font = pictures.font(TEXT_SIZE)
    top = _top(draw, words.lines, width)
    if words.y_axis:  # above the y axis, under the title
        _text(draw, (12, top - 4), words.y_axis, width - LEGEND_W)
        top += Y_CAPTION
    left, right, bottom = 40, width - LEGEND_W, height - 40
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
        draw.text((left - 6, y), str(tick), fill=INK, font=font, anchor="rm")
    draw.line([(left, top), (left, bottom), (right, bottom)], fill=INK, width=2)
    step = label_step(n)
    for i, label in enumerate(x_labels):
        if i % step == 0:  # a label of two lines ("29.11." over "2026") takes both
            for j, part in enumerate(str(label).split("\n")[:2]):
                _text(draw, (x_of(i), bottom + 8 + X_LABEL_LINE * j), part, (right - left) / n * step - 2,
                      anchor="ma")
    colours = member_colours([name for name, _ in series])
    for k, (name, values) in enumerate(series):
        colour = colours[k]
        points = [(x_of(i), y_of(v)) for i, v in enumerate(values) if v is not None]
        if len(points) > 1:
            draw.line(points, fill=colour, width=3)
        for x, y in points:
            draw.ellipse([x - 4, y - 4, x + 4, y + 4], fill=colour)
        ly = top + 18 * k
        draw.rectangle([right + 12, ly + 2, right + 24, ly + 12], fill=colour)
        _text(draw, (right + 30, ly), name, LEGEND_W - 34)
    return img


def evening_series(rows: Sequence[tuple[str, str, int, float, int, int]], names: Sequence[str],
                   tz: tzinfo = UTC) -> tuple[list[tuple[str, list[float | None]]], list[date]]:
    """Each named member's Kegel-Schnitt per club evening (core/club/evenings.py, in the
    chat's zone `tz`), from store rows (member, name, game id, time, pins, throws); the first
    MAX_SERIES names get a line. The evenings come as dates: the caller writes them in the reader's
    language."""
    wanted = [n.casefold() for n in names][:MAX_SERIES]
    days: list[date] = []
    sums: dict[tuple[str, date], list[int]] = {}
    for member, _name, _game, at, pins, throws in rows:
        day = evening_of(at, tz)
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
