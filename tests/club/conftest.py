from tests.games.kegeln.conftest import app, clock, db, table  # type: ignore[attr-defined]  # noqa: F401
