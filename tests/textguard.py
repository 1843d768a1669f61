"""Suite-wide guard: no reply of any test shows a raw catalog placeholder (`{season}`) or a raw key.

`bot/texts/i18n.py` logs an error whenever a text is rendered without one of its parameters, with a key no
catalog holds, or from a malformed entry (the reader then sees "–", or the key). Every such record
during a test fails that test at teardown, naming the text: so every reply of every command the suite
drives — through the App, the console and both platforms' stand-ins — is checked, not just the ones a
test reads. (tests/app/test_no_placeholders.py drives every command on purpose.)
"""

from __future__ import annotations

import logging
from collections.abc import Iterator

import pytest

LOGGER = "bot.texts.i18n"


class _Collector(logging.Handler):
    def __init__(self) -> None:
        super().__init__(logging.ERROR)
        self.records: list[logging.LogRecord] = []

    def emit(self, record: logging.LogRecord) -> None:
        self.records.append(record)


COLLECTOR = _Collector()


@pytest.fixture(scope="session", autouse=True)
def _text_guard() -> Iterator[None]:
    logger = logging.getLogger(LOGGER)
    logger.addHandler(COLLECTOR)
    yield
    logger.removeHandler(COLLECTOR)


@pytest.fixture(autouse=True)
def _no_raw_texts(_text_guard: None) -> Iterator[list[logging.LogRecord]]:
    """Fails the test at teardown if any text was rendered with a placeholder left unfilled."""
    COLLECTOR.records.clear()
    yield COLLECTOR.records
    found, COLLECTOR.records = COLLECTOR.records, []
    if found:
        pytest.fail("raw texts rendered:\n" + "\n".join(dict.fromkeys(r.getMessage() for r in found)),
                    pytrace=False)
