"""The daily puzzle's tests run on the App's fixtures (tests/app/conftest.py): a real App over a SQLite file."""

from tests.app.conftest import app, clock, db, table  # noqa: F401  (the fixtures, shared with tests/app)
