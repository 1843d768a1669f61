"""Fixtures: a running stand-in Discord and adapters connected to it.

Everything started here is stopped at teardown (servers, clients, tasks).
"""

from __future__ import annotations

from collections.abc import AsyncIterator, Awaitable, Callable, Mapping, Sequence
from pathlib import Path

import pytest

from adapters.discord import DiscordAdapter
from adapters.discord.pacing import Pacing
from bot.app.app import App
from core.messages import CommandInfo, Inbound, Response

from .model import BOT_TOKEN
from .standin import StandIn

OpenApp = Callable[[], Awaitable[App]]

Handle = Callable[[Inbound], Awaitable[Response]]
MakeAdapter = Callable[..., Awaitable[DiscordAdapter]]


@pytest.fixture
async def app(tmp_path: Path) -> AsyncIterator[App]:
    """The real App on a fresh SQLite file, for the e2e tests that drive it through the adapter."""
    app = await App.open(db_path=str(tmp_path / "discord.sqlite"), seed=1234)
    try:
        yield app
    finally:
        await app.close()


@pytest.fixture
async def standin() -> AsyncIterator[StandIn]:
    server = StandIn()
    await server.start()
    try:
        yield server
    finally:
        await server.stop()
    # real Discord would have refused these: the test passed only because of a lenient stand-in
    assert server.expect_invalid or not server.invalid, [
        (c.method, c.path, c.body) for c in server.invalid]


@pytest.fixture
async def make_adapter(standin: StandIn) -> AsyncIterator[MakeAdapter]:
    """Build and start a DiscordAdapter on the stand-in; stopped at teardown."""
    started: list[DiscordAdapter] = []

    async def make(
        handle: Handle,
        commands: Mapping[str, Sequence[CommandInfo]],
        *,
        start: bool = True,
        **kwargs: object,
    ) -> DiscordAdapter:
        # the adapter keeps the stand-in's rate limit, scaled alike
        kwargs.setdefault("pacing", Pacing(time_scale=standin.rate_scale, slack=0.2 * standin.rate_scale))
        adapter = DiscordAdapter(
            BOT_TOKEN, handle, commands, api_base=standin.api_base,
            ready_timeout=10.0, guild_ready_timeout=0.05, **kwargs,  # type: ignore[arg-type]
        )
        started.append(adapter)
        if start:
            await adapter.start()
        return adapter

    try:
        yield make
    finally:
        for adapter in reversed(started):
            await adapter.stop()


@pytest.fixture
def db(tmp_path: Path) -> Path:
    return tmp_path / "bot.sqlite"


@pytest.fixture
async def open_app(db: Path) -> AsyncIterator[OpenApp]:
    """Open Apps on one SQLite file (a restart opens a second one); all closed at teardown."""
    apps: list[App] = []

    async def open_() -> App:
        app = await App.open(db_path=str(db), seed=1234)
        apps.append(app)
        return app

    try:
        yield open_
    finally:
        for app in reversed(apps):
            await app.close()
