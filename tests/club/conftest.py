from tests.app.conftest import app, clock, db, table  # noqa: F401
