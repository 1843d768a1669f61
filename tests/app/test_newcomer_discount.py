"""Issue 36.3 through the App on a real SQLite file: a regular's win over an account new to rated play
moves the regular's rating only by the newcomer's share (`core.ratings.weights`), the newcomer's loss
counts in full, and `python -m bot ratings rebuild` gives the very same ratings. The thresholds are
lowered for the test (2 games, a day) so that a regular is made in a few duels."""

from __future__ import annotations

import pytest

from bot.app import ratings_rebuild
from bot.app.app import App
from core import ratings
from tests.app.conftest import Clock
from tests.app.harness import PLATFORM, Table, texts
from tests.app.test_ratings_rebuild import HISTORY, RATINGS, rows

DAY = 24 * 3600.0


async def resigned(t: Table, winner: str, loser: str, clock: Clock) -> None:
    """`winner` challenges `loser`; each guesses once; `loser` resigns (a rated loss)."""
    r = await t.say(winner, f"/duel <@{loser}>")
    await t.press(loser, t.button(r, ":accept"))
    await t.dm(winner, "1234")
    await t.dm(loser, "5678")
    row = await t.app.store.last_game(PLATFORM, t.group.chat_id, winner)
    assert row is not None
    first = row.state["starter"]
    await t.say(first, "9012")
    await t.say(loser if first == winner else winner, "9012")
    assert "resigns" in texts(await t.say(loser, "/resign"))
    clock.now += 60


async def test_a_win_over_a_newcomer_counts_for_less(app: App, table: Table, clock: Clock,
                                                     monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(ratings, "NEWCOMER_GAMES", 2)
    monkeypatch.setattr(ratings, "NEWCOMER_AGE", DAY)
    await resigned(table, "alice", "bob", clock)
    await resigned(table, "bob", "alice", clock)
    clock.now += DAY  # alice and bob are regulars now
    before = (await app.store.player_ratings(PLATFORM, ratings.EVERYWHERE, "alice"))["duel"]
    await resigned(table, "alice", "carol", clock)  # carol's first rated game
    got = (await app.store.player_ratings(PLATFORM, ratings.EVERYWHERE, "alice"))["duel"]
    prior = ratings.Rating(before.mu, before.sigma, before.games)
    match = ratings.duel_match({"alice": "win", "carol": "loss"}, {})
    assert match is not None
    full = ratings.rate(match, {"alice": prior})
    assert full["alice"].mu > prior.mu + 0.5  # what the win would have given
    assert (got.mu, got.sigma, got.games) == (prior.mu, prior.sigma, prior.games + 1)  # a newcomer: nothing
    carol = (await app.store.player_ratings(PLATFORM, ratings.EVERYWHERE, "carol"))["duel"]
    assert (carol.mu, carol.sigma) == pytest.approx((full["carol"].mu, full["carol"].sigma))  # her loss counts
    # a day and two games later carol is a regular too: alice's win over her counts in full again
    await resigned(table, "carol", "dave", clock)
    clock.now += DAY
    before = (await app.store.player_ratings(PLATFORM, ratings.EVERYWHERE, "alice"))["duel"]
    await resigned(table, "alice", "carol", clock)
    got = (await app.store.player_ratings(PLATFORM, ratings.EVERYWHERE, "alice"))["duel"]
    assert got.mu > before.mu + 0.1
    snapshot = (await rows(app, RATINGS), await rows(app, HISTORY))
    await ratings_rebuild.rebuild(app)
    assert (await rows(app, RATINGS), await rows(app, HISTORY)) == snapshot  # the rebuild decides the same
