"""Fixtures of the TV page's tests: an App on a SQLite file with its TV server on a free local port."""

from collections.abc import AsyncIterator
from pathlib import Path

import aiohttp
import pytest

from bot.app import App
from bot.web.server import TvServer
from tests.app.conftest import Clock
from tests.app.harness import Table
from tests.web.tvkit import free_port


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


@pytest.fixture
async def tv(app: App) -> AsyncIterator[TvServer]:
    port = free_port()
    server = TvServer(app, "127.0.0.1", port, f"http://127.0.0.1:{port}")
    await server.start()
    yield server
    await server.stop()


@pytest.fixture
async def http() -> AsyncIterator[aiohttp.ClientSession]:
    async with aiohttp.ClientSession() as session:
        yield session
