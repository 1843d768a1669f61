"""Issue 23.1, rating farming with a second account, through the App on a real SQLite file: a game
the loser never played in is not rated (duel, the word game); of the games between the same two
players only `ratings.PAIR_GAMES` a day count — across chats too — and `python -m bot ratings
rebuild` gives the very same ratings, which agree with openskill computed directly."""

from __future__ import annotations

from typing import Any

from bot.app import ratings_rebuild
from bot.app.app import App
from core import ratings
from core.messages import Chat
from tests.app.conftest import Clock
from tests.app.harness import PLATFORM, Table, texts
from tests.app.test_duel_flow import start_duel, target
from tests.app.test_ratings import Expected, stored
from tests.app.test_ratings_rebuild import HISTORY, RATINGS, rows

MISSES = ("9012", "9013")  # neither code of start_duel's secrets (1234, 5678)


async def resigned_at_once(t: Table) -> None:
    """mallory's second account accepts, sets a secret and resigns without a single guess."""
    r = await t.say("mallory", "/duel <@alt>")
    await t.press("alt", t.button(r, ":accept"))
    await t.dm("mallory", "1234")
    await t.dm("alt", "5678")
    assert "resigns" in texts(await t.say("alt", "/resign"))


async def played(t: Table, clock: Clock) -> str:
    """A duel alice–bob in which each makes MIN_MOVES guesses; the starter cracks with the last."""
    _gid, first, second = await start_duel(t)
    for miss in MISSES[: ratings.MIN_MOVES - 1]:
        await t.say(first, miss)
        await t.say(second, miss)
    await t.say(first, target(first)[first])
    r = await t.say(second, "9014")
    assert f"{first.capitalize()} wins" in texts(r), texts(r)
    clock.now += 60
    return first


async def test_a_game_the_loser_never_played_is_not_rated(table: Table, db: str) -> None:
    for _ in range(10):
        await resigned_at_once(table)
    assert not stored(db)
    assert "Mallory" not in texts(await table.say("mallory", "/top duel"))
    # the word game: /join, /begin, /leave of the second account
    await table.say("mallory", "/words")
    await table.say("alt", "/join")
    await table.say("mallory", "/begin")
    r = await table.say("alt", "/leave")
    game = await table.app.store.last_game(PLATFORM, "group-1", "mallory")
    assert game is not None and game.over and game.state["outcome"] == "finished", texts(r)
    assert not stored(db)


async def test_the_same_pair_counts_three_games_a_day_and_the_rebuild_agrees(
        app: App, table: Table, clock: Clock, db: str) -> None:
    other = Table(app, group=Chat(PLATFORM, "group-2", private=False))
    want = Expected()
    for t in (table, table, other, table, other):  # five duels in one day, in two chats
        winner = await played(t, clock)
        if len(want.ratings) == 0 or want.ratings[("duel", "alice")][2] < ratings.PAIR_GAMES:
            want.play("duel", [["alice"], ["bob"]], [1.0 if p == winner else 2.0 for p in ("alice", "bob")])
    everywhere = await app.store.player_ratings(PLATFORM, ratings.EVERYWHERE, "alice")
    assert everywhere["duel"].games == ratings.PAIR_GAMES
    clock.now += ratings.PAIR_WINDOW  # a day later they count again
    winner = await played(table, clock)
    want.play("duel", [["alice"], ["bob"]], [1.0 if p == winner else 2.0 for p in ("alice", "bob")])
    everywhere = await app.store.player_ratings(PLATFORM, ratings.EVERYWHERE, "alice")
    assert everywhere["duel"].games == ratings.PAIR_GAMES + 1
    got = everywhere["duel"]
    mu, sigma, games = want.ratings[("duel", "alice")]
    assert abs(got.mu - mu) < 1e-9 and abs(got.sigma - sigma) < 1e-9 and got.games == games
    before: dict[str, Any] = {"r": await rows(app, RATINGS), "h": await rows(app, HISTORY)}
    await ratings_rebuild.rebuild(app)
    assert await rows(app, RATINGS) == before["r"] and await rows(app, HISTORY) == before["h"]
    assert stored(db)  # group-1's own ratings exist: what was counted there
