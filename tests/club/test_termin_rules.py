"""The club evening's pure rules (core/club/termin.py): a /termin's date and time as typed in the
chat's zone, the reminders' times, who may set it, and the answer list."""

from __future__ import annotations

from datetime import datetime, timedelta
from zoneinfo import ZoneInfo

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from bot.club.evenings.termin import _weekdays
from core.club import termin
from core.errors import GameError

BERLIN = ZoneInfo("Europe/Berlin")
NOW = datetime(2026, 12, 2, 14, 0, tzinfo=BERLIN)  # a Wednesday afternoon
WORDS = termin.Words(_weekdays(("de", "en", "sv", "ru", "bg")), {"heute", "today"}, {"morgen", "tomorrow"},
                     {"um", "at", "kl"})


def when(text: str, now: datetime = NOW) -> tuple[datetime, str]:
    planned = termin.parse(tuple(text.split()), now, WORDS)
    return planned.when, planned.note


@pytest.mark.parametrize(("typed", "expected", "note"), [
    ("12.12. 19:30 Gasthof Krone", datetime(2026, 12, 12, 19, 30), "Gasthof Krone"),
    ("12.12 19:30", datetime(2026, 12, 12, 19, 30), ""),
    ("12.12.2026 19.30", datetime(2026, 12, 12, 19, 30), ""),  # 19.30 once the day is known
    ("12.12.26 19h", datetime(2026, 12, 12, 19, 0), ""),
    ("2026-12-12 19:30", datetime(2026, 12, 12, 19, 30), ""),
    ("19:30 2026-12-12 Kegelbahn am Markt", datetime(2026, 12, 12, 19, 30), "Kegelbahn am Markt"),
    ("Freitag um 20 Uhr", datetime(2026, 12, 4, 20, 0), ""),
    ("Freitag 20", None, ""),  # a bare 20 could be anything: it needs 20:00, 20h, 20uhr or 20 Uhr
    ("Freitag um 20:00", datetime(2026, 12, 4, 20, 0), ""),
    ("friday 20:00", datetime(2026, 12, 4, 20, 0), ""),
    ("fre kl 19:00", datetime(2026, 12, 4, 19, 0), ""),  # Swedish abbreviation
    ("пятница 19:00", datetime(2026, 12, 4, 19, 0), ""),
    ("петък 19:00", datetime(2026, 12, 4, 19, 0), ""),
    ("Mittwoch 19:00", datetime(2026, 12, 2, 19, 0), ""),  # today, later: this evening
    ("Mittwoch 13:00", datetime(2026, 12, 9, 13, 0), ""),  # today, earlier: next week's Wednesday
    ("heute 19:30 Uhr", datetime(2026, 12, 2, 19, 30), ""),
    ("morgen 19h30", datetime(2026, 12, 3, 19, 30), ""),
    ("1.2. 19:00", datetime(2027, 2, 1, 19, 0), ""),  # a day without a year: its next one
])
def test_a_date_and_time_as_clubs_type_them(typed: str, expected: datetime | None, note: str) -> None:
    if expected is None:
        with pytest.raises(GameError) as err:
            when(typed)
        assert err.value.code == "termin.no_time"
        return
    got, got_note = when(typed)
    assert got == expected.replace(tzinfo=BERLIN) and got_note == note


def test_the_time_is_the_chat_zones_wall_clock() -> None:
    got, _ = when("12.12. 19:30")
    assert got.timestamp() == datetime(2026, 12, 12, 18, 30, tzinfo=ZoneInfo("UTC")).timestamp()  # CET = UTC+1
    summer, _ = when("1.7. 19:30")
    assert summer.utcoffset() == timedelta(hours=2)  # CEST in July


@pytest.mark.parametrize(("typed", "code"), [
    ("", "termin.usage"), ("Gasthof Krone", "termin.usage"), ("19:30", "termin.usage"),
    ("12.12.", "termin.no_time"), ("31.02. 19:30", "termin.bad_date"), ("2026-13-01 19:30", "termin.bad_date"),
    ("12.12. 25:00", "termin.bad_time"), ("12.12. 19:75", "termin.bad_time"),
    ("2.12.2026 10:00", "termin.past"), ("heute 13:59", "termin.past"),
    ("2028-12-12 19:30", "termin.too_far"),
    ("12.12. 19:30 " + "x" * (termin.MAX_NOTE + 1), "termin.note_long"),
])
def test_what_is_refused_and_why(typed: str, code: str) -> None:
    with pytest.raises(GameError) as err:
        when(typed)
    assert err.value.code == code


def test_reminders_a_day_and_an_hour_before_those_still_ahead() -> None:
    starts = 100_000.0
    assert termin.reminders(starts, 0.0) == [("day", starts - 86_400), ("hour", starts - 3_600)]
    assert termin.reminders(starts, starts - 7_200) == [("hour", starts - 3_600)]  # set two hours before
    assert termin.reminders(starts, starts - 60) == []


def test_the_roster_keeps_each_users_last_answer_in_answer_order() -> None:
    answers = [termin.Answer("u1", "Anna", True, 1.0), termin.Answer("u2", "Ben", False, 2.0),
               termin.Answer("u3", "Cleo", True, 3.0), termin.Answer("u1", "Anna", False, 4.0)]
    assert termin.roster(answers) == (["Cleo"], ["Ben", "Anna"])


@settings(max_examples=300, deadline=None)
@given(st.lists(st.one_of(
    st.text(max_size=12),
    st.sampled_from(["12.12.", "31.02.", "2026-12-12", "19:30", "25:61", "19h", "20", "Uhr", "um", "Freitag",
                     "heute", "morgen", "0.0.", "99.99.9999", "9999-99-99", "00:00", "23:59", "1" * 30]),
), max_size=6))
def test_any_typed_words_are_a_planned_evening_or_a_coded_refusal(words: list[str]) -> None:
    """Bad input never crashes: whatever is typed, /termin either plans an evening ahead (within the bound)
    or refuses with one of its own codes."""
    try:
        planned = termin.parse(tuple(words), NOW, WORDS)
    except GameError as err:
        assert err.code.startswith("termin."), err.code
        return
    assert NOW < planned.when <= NOW + timedelta(days=termin.MAX_AHEAD_DAYS)
    assert len(planned.note) <= termin.MAX_NOTE
