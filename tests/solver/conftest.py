from collections.abc import AsyncIterator

import pytest

from bot.app.app import App
from tests.app.conftest import Clock, clock, db, table  # noqa: F401


@pytest.fixture
async def app(db: str, clock: Clock, solver_cache: str) -> AsyncIterator[App]:  # noqa: F811
    a = await App.open(db, seed=42, clock=clock, idle_timeout=3600)
    a.solver_cache = solver_cache  # never the repository's data/ (tests/conftest.py)
    yield a
    await a.close()
