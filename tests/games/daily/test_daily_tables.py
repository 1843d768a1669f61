"""The daily's board and table rank only who solved it: nobody who did not solve is "1.", and no
"⌀ 0.0" stands for an average of nothing. The real App over a real SQLite file."""

from __future__ import annotations

from bot.app.app import App
from tests.app.harness import Table, texts
from tests.games.daily.test_daily import noon_app, secret_of  # noqa: F401


async def test_only_solvers_are_ranked(noon_app: App) -> None:  # noqa: F811
    table = Table(noon_app)
    await table.say("bob", "/daily")
    await table.dm("bob", "/giveup")
    r = await table.say("carol", "/daily table")
    assert "· Bob — 0/1" in texts(r) and "1. Bob" not in texts(r) and "0.0" not in texts(r), texts(r)
    r = await table.say("carol", "/daily board")
    assert "· Bob — " in texts(r) and "1. Bob" not in texts(r), texts(r)
    await table.say("alice", "/daily")
    await table.dm("alice", await secret_of(noon_app))
    r = await table.say("carol", "/daily board")
    lines = texts(r).splitlines()
    assert lines[1].startswith("1. Alice — solved in 1 attempt") and lines[2].startswith("· Bob — "), lines
    r = await table.say("carol", "/daily table")
    lines = texts(r).splitlines()
    assert lines[1] == "1. Alice — 1/1 · ⌀ 1.0 · 🔥1" and lines[2] == "· Bob — 0/1", lines
