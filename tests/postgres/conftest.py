"""The App fixtures of tests/app, on a fresh PostgreSQL database per test (skipped without a server)."""

import importlib.util

import pytest

from tests import pgserver
from tests.app.conftest import app, clock, table  # noqa: F401

if importlib.util.find_spec("asyncpg") is None:  # a clear skip, not an import error
    collect_ignore_glob = ["test_*.py"]
    pgserver.STATUS.requested = True
    pgserver.STATUS.text = "PostgreSQL tests skipped: asyncpg is not installed"


@pytest.fixture
def db(pg_url: str) -> str:
    """`App.open(db)` with a postgresql:// URL opens the PostgreSQL store."""
    return pg_url
