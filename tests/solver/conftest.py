from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from bot.app import App
from tests.app.conftest import Clock, clock, db, table  # noqa: F401


@pytest.fixture
async def app(db: str, clock: Clock, tmp_path: Path) -> AsyncIterator[App]:  # noqa: F811
    a = await App.open(db, seed=42, clock=clock, idle_timeout=3600)
    a.solver_cache = str(tmp_path / "solver-cache")  # never the repository's data/
    yield a
    await a.close()
