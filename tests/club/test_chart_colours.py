"""A member keeps their colour from chart to chart: the club chart (members in table order), a
season's, their own — the colour follows the name, not the place in the list."""

from __future__ import annotations

import io

from PIL import Image

from core.club import chart


def legend_colour(png: bytes, k: int) -> tuple[int, int, int]:
    """The colour of the k-th legend box of the (first) line panel."""
    img = Image.open(io.BytesIO(png)).convert("RGB")
    x, y = img.width - chart.LEGEND_W + 18, 20 + 18 * k + 7
    r, g, b = img.getpixel((x, y))  # type: ignore[misc]
    return r, g, b


def test_a_member_has_one_colour_in_every_chart() -> None:
    names = ["Anna", "Ben", "Cleo", "Finn"]  # names whose own colours differ
    club = chart.club_chart([(n, [3.0]) for n in names], ["1"], [(1, 0)] * 4)
    season = chart.club_chart([(n, [3.0]) for n in reversed(names)], ["1"], [(1, 0)] * 4)
    for k, name in enumerate(names):
        own = chart.line_chart([(name, [3.0, 4.0])], ["1", "2"])
        assert legend_colour(own, 0) == legend_colour(club, k) == legend_colour(season, len(names) - 1 - k), name
    colours = [legend_colour(club, k) for k in range(len(names))]
    assert len(set(colours)) == len(names)  # and no two members of one chart share one
    assert set(colours) <= set(chart.PALETTE)


def test_two_names_of_one_colour_keep_theirs_in_any_order() -> None:
    assert chart.member_colours(["Anna"]) == chart.member_colours(["Dan"])  # the same colour of their own
    one, other = chart.member_colours(["Anna", "Dan"]), chart.member_colours(["Dan", "Anna"])
    assert one[0] != one[1] and one == other[::-1]


def test_eight_members_get_eight_colours() -> None:
    names = [f"M{i}" for i in range(chart.MAX_SERIES)]
    assert sorted(chart.member_colours(names)) == sorted(chart.PALETTE)
