"""Issue 36.5, "Cracked the code in 4 guesses or fewer" is documented for any crack but was given only for
a win. Decided: a crack counts — also in a duel drawn because both cracked in the same round — and a
win without a crack (the other resigned or let the time run out) does not; "Won Logik in 5 rows or
fewer" is, as its name says, for a win. Through the real App, and the replay from the stored games
agrees."""

from __future__ import annotations

from bot.app import achievements
from bot.app.app import App
from bot.storage.sql import Query
from tests.app.harness import texts
from tests.yourdata.players import People

CRACK = "crack_in_4"


async def codes(app: App, user_id: str) -> set[str]:
    rows = await app.store.fetch(Query("SELECT code FROM achievements WHERE user_id = :u"), u=user_id)
    return {str(r[0]) for r in rows}


async def duel_started(t: People) -> tuple[str, str]:
    r = await t.say("alice", "/duel <@carol>")
    await t.press("carol", t.button(r, ":accept"))
    await t.dm("alice", "1234")
    await t.dm("carol", "5678")
    row = await t.app.store.last_game("test", t.group.chat_id, "alice")
    assert row is not None
    first = str(row.state["starter"])
    return first, ("carol" if first == "alice" else "alice")


async def test_a_crack_in_a_drawn_duel_counts(app: App) -> None:
    t = People(app)
    first, second = await duel_started(t)
    target = {"alice": "5678", "carol": "1234"}
    for miss in ("9012", "9013"):
        await t.say(first, miss)
        await t.say(second, miss)
    await t.say(first, target[first])  # the starter cracks with the 3rd guess …
    r = await t.say(second, target[second])  # … and the other with the last chance: a draw
    assert "draw" in texts(r).lower(), texts(r)
    assert CRACK in await codes(app, "alice") and CRACK in await codes(app, "carol")
    assert "first_win" not in await codes(app, "alice")  # a draw is no win
    assert await achievements.replay(app) == await achievements.stored(app.store)


async def test_a_win_without_a_crack_does_not(app: App) -> None:
    t = People(app)
    first, second = await duel_started(t)
    await t.say(first, "9012")
    await t.say(second, "9012")
    await t.say(first, "/resign")  # the starter resigns after one guess each
    assert CRACK not in await codes(app, second) and "first_win" in await codes(app, second)
    assert CRACK not in await codes(app, first)
