"""The App fixtures of tests/app (a real App over a SQLite file), shared with tests/postgres."""

from tests.app.conftest import app, clock, db, table  # noqa: F401
