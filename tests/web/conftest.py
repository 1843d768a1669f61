"""Fixtures of the TV page's tests: an App on a SQLite file with its TV server on a free local port."""

from collections.abc import AsyncIterator

import aiohttp
import pytest

from bot.app.app import App
from bot.web.server import TvServer
from tests.app.conftest import app, clock, db, table  # noqa: F401  (the fixtures, shared with tests/app)
from tests.web.tvkit import free_port


@pytest.fixture
async def tv(app: App) -> AsyncIterator[TvServer]:  # noqa: F811  (the shared `app` fixture)
    port = free_port()
    server = TvServer(app, "127.0.0.1", port, f"http://127.0.0.1:{port}")
    await server.start()
    yield server
    await server.stop()


@pytest.fixture
async def http() -> AsyncIterator[aiohttp.ClientSession]:
    async with aiohttp.ClientSession() as session:
        yield session
