"""Issue 36.1, resigning before one's third guess was free: a game is rated once each side has made
its first move (a duel's first guess each, Logik's first revealed row); a resignation or a timeout
after that is a rated loss, before it nothing is rated; and `python -m bot ratings rebuild` decides
the same. Through the App on a real SQLite file."""

from __future__ import annotations

from typing import Any

from bot.app import ratings_rebuild
from bot.app.app import App
from tests.app.conftest import Clock
from tests.app.harness import Table, texts
from tests.app.test_duel_flow import start_duel
from tests.app.test_ratings import Expected, assert_agree, stored
from tests.app.test_ratings_rebuild import HISTORY, RATINGS, rows
from tests.games.logik.test_app_flow import start as start_logik

TIMEOUT = 3600  # tests/app/conftest.py's app


async def same_after_rebuild(app: App) -> None:
    before: dict[str, Any] = {"r": await rows(app, RATINGS), "h": await rows(app, HISTORY)}
    await ratings_rebuild.rebuild(app)
    assert await rows(app, RATINGS) == before["r"] and await rows(app, HISTORY) == before["h"]


async def test_a_resignation_after_each_guessed_once_is_a_rated_loss(table: Table, app: App, db: str) -> None:
    _gid, first, second = await start_duel(table)
    await table.say(first, "9012")
    await table.say(second, "9012")
    assert "resigns" in texts(await table.say(first, "/resign"))
    want = Expected()
    want.play("duel", [[first], [second]], [2.0, 1.0])
    assert_agree(db, want)
    await same_after_rebuild(app)


async def test_before_the_other_side_moved_nothing_is_rated(table: Table, app: App, db: str) -> None:
    _gid, first, second = await start_duel(table)
    await table.say(first, "9012")
    assert "resigns" in texts(await table.say(second, "/resign"))  # the second never guessed
    assert not stored(db)
    await same_after_rebuild(app)


async def test_a_timeout_after_each_guessed_once_is_a_rated_loss(table: Table, app: App, clock: Clock,
                                                                 db: str) -> None:
    _gid, first, second = await start_duel(table)
    await table.say(first, "9012")
    await table.say(second, "9012")  # the starter owes the next guess and goes silent
    clock.now += TIMEOUT + 1
    out = "\n".join(o.text for o in await app.runner.sweep())
    assert "let the time run out" in out, out
    want = Expected()
    want.play("duel", [[first], [second]], [2.0, 1.0])
    assert_agree(db, want)
    await same_after_rebuild(app)


async def test_logik_is_rated_once_the_first_rows_are_revealed(table: Table, app: App, db: str) -> None:
    await start_logik(table, "12345", "54321")
    await table.say("alice", "66666")
    r = await table.say("bob", "77777")  # the first round revealed: each side has moved
    assert "Round 1:" in texts(r), texts(r)
    assert "resigns" in texts(await table.say("bob", "/resign"))
    want = Expected()
    want.play("logik", [["alice"], ["bob"]], [1.0, 2.0])
    assert_agree(db, want)
    await same_after_rebuild(app)


async def test_logik_with_only_one_row_in_is_not_rated(table: Table, app: App, db: str) -> None:
    await start_logik(table, "12345", "54321")
    await table.say("alice", "66666")  # bob has not submitted his first row
    assert "resigns" in texts(await table.say("bob", "/resign"))
    assert not stored(db)
