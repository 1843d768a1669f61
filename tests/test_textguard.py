"""The suite-wide raw-text guard (tests/textguard.py) must be able to fail: a text rendered without one
of its parameters, or with a key no catalog has, is logged (and the reader sees no raw `{name}`)."""

from __future__ import annotations

import logging

from bot.texts.i18n import UNFILLED, Catalogs
from core.messages import Text


def test_a_missing_parameter_is_logged_and_never_shown_raw(_no_raw_texts: list[logging.LogRecord]) -> None:
    catalogs = Catalogs()
    shown = catalogs.render(Text("kegeln.season.empty", {"season": "2025"}), "de")
    assert "{" not in shown and "2025" in shown and shown.count(UNFILLED) == 3  # "(– – –)": from, the dash, until
    assert catalogs.render(Text("no.such.key"), "en") == "no.such.key"
    assert [r.getMessage() for r in _no_raw_texts] == [
        "catalog text kegeln.season.empty (de) was given no from, until", "no catalog text for no.such.key"]
    _no_raw_texts.clear()  # planted: not to fail this test at teardown


def test_a_complete_text_logs_nothing(_no_raw_texts: list[logging.LogRecord]) -> None:
    catalogs = Catalogs()
    text = Text("kegeln.season.empty", {"season": "2025", "from": "a", "until": "b"})
    assert catalogs.render(text, "en") == "🎳 No Kegeln game finished in season 2025 (a – b)."
    assert _no_raw_texts == []
