"""A player's skill rating over their rated games: a pure function from numbers to PNG bytes, drawn
with the line chart of core/club/chart.py: the axes carry numbers and dates, the legend the
player's name, the title the caller's words in the reader's language. The line is the conservative
rating (core/ratings.py `ordinal`)."""

from __future__ import annotations

import math
from collections.abc import Sequence

from core.club.chart import Words, line_chart
from core.ratings import NEW


def rating_chart(name: str, ordinals: Sequence[float], x_labels: Sequence[str], title: str = "") -> bytes:
    """The line of `ordinals` (one per rated game, oldest first) over `x_labels` under `title`; the
    y axis spans the values and a new player's rating, in steps of five."""
    values = [*ordinals, NEW.ordinal]
    y_min = 5 * math.floor(min(values) / 5)
    y_max = max(5 * math.ceil(max(values) / 5), y_min + 5)
    return line_chart([(name, list(ordinals))], x_labels, y_max=y_max, y_min=y_min,
                      words=Words(lines=title))
