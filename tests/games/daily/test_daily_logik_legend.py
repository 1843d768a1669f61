"""A Logik daily names its colours — symbol, number, initial and name in the reader's language — when it
starts and on /board, as a Logik game does (it had no legend: a player could not tell what R or 5 is)."""

from __future__ import annotations

from bot.app.app import App
from tests.app.harness import Table
from tests.games.daily.test_daily import noon_app, private_to  # noqa: F401


async def test_the_logik_daily_shows_its_colours(noon_app: App) -> None:  # noqa: F811
    table = Table(noon_app)
    r = await table.say("alice", "/daily logik")
    assert "Colours: 🟥1 R red · 🟩2 G green" in private_to(r, "alice"), private_to(r, "alice")
    r = await table.dm("alice", "/board")
    assert "Colours: 🟥1 R red" in private_to(r, "alice")
    table.locale = "de"
    r = await table.say("bernd", "/daily logik")
    assert "🟥1 R rot" in private_to(r, "bernd"), private_to(r, "bernd")
    r = await table.say("carl", "/daily")  # the 1A2B daily has no colours
    assert "🟥" not in private_to(r, "carl")
