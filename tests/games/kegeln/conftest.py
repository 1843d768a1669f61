import pytest

from bot.app.app import App
from tests.app.conftest import app, clock, db  # noqa: F401
from tests.app.harness import Table
from tests.club.harness import appoint


@pytest.fixture
async def table(app: App) -> Table:  # noqa: F811
    """The harness's table in a club whose chat admin has appointed alice its scorer: her games are club
    games (docs/club.md); everyone else's are casual."""
    t = Table(app)
    await appoint(t, "alice")
    t.sent.clear()
    return t
