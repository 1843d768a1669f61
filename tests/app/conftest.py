from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from bot.app.app import App
from tests.app.harness import Table


class Clock:
    """Injected time, so timeouts are tested without waiting."""

    def __init__(self) -> None:
        self.now = 1_000_000.0

    def __call__(self) -> float:
        return self.now


@pytest.fixture
def clock() -> Clock:
    return Clock()


@pytest.fixture
def db(tmp_path: Path) -> str:
    return str(tmp_path / "bot.sqlite3")


@pytest.fixture
async def app(db: str, clock: Clock) -> AsyncIterator[App]:
    a = await App.open(db, seed=42, clock=clock, idle_timeout=3600)
    yield a
    await a.close()


@pytest.fixture
def table(app: App) -> Table:
    return Table(app)
