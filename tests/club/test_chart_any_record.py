"""Issue 34: the club's charts draw any record without crashing. One member with 1 win beside another with
135 (a sub-pixel bar: Pillow's `y1 must be greater than or equal to y0`), a member averaging about 0 pins
over half the games (the review's halves), nobody with a win, lone points — for every chart a command draws:
`/saison` and `/kegelstats` (club_chart), `/kegelstats NAME` (line_chart), `/jahresrueckblick` (review_chart)."""

from __future__ import annotations

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from core.club import chart
from core.club.chart import Words

PNG = b"\x89PNG"
WORDS = Words("Kegel-Schnitt", "pins per throw", "Wins by mode", "high", "low", "Halves", "first", "second",
              "from 4 games on")
NAMES = ["Anna", "Ben", "Cleo", "Dora", "Emil", "Fritz", "Gerd", "Hanne", "Ida", "Jan"]

# lopsided: a few wins beside very many, zeros, and everything between
wins_count = st.one_of(st.just(0), st.just(1), st.integers(0, 3), st.integers(100, 100_000))
pins = st.one_of(st.none(), st.just(0.0), st.floats(0, 1e-6), st.floats(0, 9), st.just(9.0))
halves_value = st.one_of(st.just(0.0), st.floats(0, 1e-6), st.floats(0, 0.05), st.floats(0, 9), st.just(9.0))


@st.composite
def records(draw: st.DrawFn) -> tuple[list[tuple[str, list[float | None]]], list[str], list[tuple[int, int]],
                                      list[tuple[str, float, float]]]:
    n = draw(st.integers(1, len(NAMES)))
    evenings = draw(st.integers(1, 12))
    names = NAMES[:n]
    series = [(name, draw(st.lists(pins, min_size=evenings, max_size=evenings))) for name in names]
    wins = [(draw(wins_count), draw(wins_count)) for _ in names]
    halves = [(name, draw(halves_value), draw(halves_value)) for name in draw(st.lists(
        st.sampled_from(names), unique=True, max_size=n))]
    labels = [f"{d}.12.\n2026" if d == 1 else f"{d}.12." for d in range(1, evenings + 1)]
    return series, labels, wins, halves


def test_the_reported_records() -> None:
    """The issue's cases as they were reported: 1 win beside 135, and a member at about 0 pins."""
    series: list[tuple[str, list[float | None]]] = [("Anna", [5.0, 6.0]), ("Ben", [0.0, 0.01])]
    assert chart.club_chart(series, ["1.12.", "2.12."], [(1, 0), (135, 0)], words=WORDS).startswith(PNG)
    assert chart.review_chart(series, ["1.12.", "2.12."], [(1, 0), (135, 0)], [("Anna", 5.0, 6.0),
                              ("Ben", 0.0, 0.01)], words=WORDS, card=["Review"]).startswith(PNG)


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(records())
def test_every_chart_draws_any_record(record: tuple[list[tuple[str, list[float | None]]], list[str],
                                                    list[tuple[int, int]], list[tuple[str, float, float]]]) -> None:
    series, labels, wins, halves = record
    assert chart.club_chart(series, labels, wins, words=WORDS).startswith(PNG)  # /saison, /kegelstats
    assert chart.line_chart(series[:1], labels, words=WORDS).startswith(PNG)  # /kegelstats NAME
    assert chart.review_chart(series, labels, wins, halves, words=WORDS,  # /jahresrueckblick
                              card=["Season 2026", "Champion: Anna"]).startswith(PNG)
