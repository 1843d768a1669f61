"""Session-wide fixtures: a real PostgreSQL server for the PostgreSQL store tests (tests/pgserver.py), and the
leak guard every test runs under (tests/leakscan.py) with the guard against raw catalog placeholders
(tests/textguard.py)."""

from __future__ import annotations

from collections.abc import AsyncIterator, Iterator

import pytest

from tests import pgserver
from tests.leakscan import _leak_guard, _no_leaks  # noqa: F401  (every test: no secret or token leaks)
from tests.textguard import _no_raw_texts, _text_guard  # noqa: F401  (every test: no raw placeholder shown)


@pytest.fixture(scope="session")
def pg_server() -> Iterator[str]:
    """The URL of a PostgreSQL server with the right to create databases; skips the test if none."""
    pgserver.STATUS.requested = True
    try:
        import asyncpg  # noqa: F401
    except ImportError:
        pgserver.STATUS.text = "PostgreSQL tests skipped: asyncpg is not installed"
        pytest.skip(pgserver.STATUS.text)
    url, cluster, pgserver.STATUS.text = pgserver.start()
    if url is None:
        pytest.skip(pgserver.STATUS.text)
    pgserver.STATUS.url = url
    try:
        yield url
    finally:
        if cluster is not None:
            cluster.stop()


@pytest.fixture
async def pg_url(pg_server: str) -> AsyncIterator[str]:
    """A fresh, empty database on the test server for one test; dropped afterwards."""
    url = await pgserver.create_database(pg_server)
    yield url
    await pgserver.drop_database(pg_server, url)


def pytest_terminal_summary(terminalreporter, exitstatus, config) -> None:  # type: ignore[no-untyped-def]
    """Say clearly whether the PostgreSQL tests ran (make test prints this line)."""
    if pgserver.STATUS.requested:
        skipped = "skipped" in pgserver.STATUS.text
        terminalreporter.write_sep("=", pgserver.STATUS.text, yellow=skipped, green=not skipped)
