"""The morning post on the console adapter (in process, so the App's clock is injected): the table's
admin (`--admin alice`) turns it on, Bob opts in to mentions, the scheduler's post the next morning is
printed to #table once, spoiler-free; a player who is no admin is refused."""

from __future__ import annotations

import io
from pathlib import Path

from adapters.console.adapter import ConsoleAdapter
from bot.app.app import App
from bot.storage.sql import Query
from tests.app.conftest import Clock
from tests.games.daily.test_morning_post import MORNING, NOON


async def test_the_morning_post_on_the_console(tmp_path: Path) -> None:
    clock = Clock()
    clock.now = NOON
    app = await App.open(str(tmp_path / "db.sqlite3"), seed=3, clock=clock)
    out = io.StringIO()
    console = ConsoleAdapter(app.handle, out=out, admins=("alice",))
    try:
        await console.feed("bob: /posts morning 07:00")
        assert "Only a chat admin can change" in out.getvalue()
        await console.feed("alice: /posts morning 08:00")
        assert "Morning post: at 08:00" in out.getvalue()
        await console.feed("bob: /pings on")
        await console.feed("alice: /daily")
        (code,), = await app.store.fetch(Query("SELECT secret FROM daily_puzzles"))
        await console.feed(f"alice> {code}")
        clock.now = MORNING + 1
        before = len(out.getvalue())
        await console.send(await app.scheduler.tick())
        await console.send(await app.scheduler.tick())  # a second tick posts nothing more
        printed = out.getvalue()[before:]
        assert printed.count("[#table] ☀️ Good morning! Yesterday's dailies (Nov 30, 2026)") == 1
        assert "alice 1/10" in printed and str(code) not in printed
    finally:
        await app.close()
