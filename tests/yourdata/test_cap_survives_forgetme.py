"""Issue 36.2, /forgetme reset the pair cap: a second account loses 3 rated duels to the main one, sends
/forgetme, writes again and repeats — the cap still counts it as the same opponent (it remembers rated
pairs only by a keyed hash of their platform ids, for the cap's 24 hours), so the main account gets no
more than 3 rated games a day from it; the rebuild decides the same; nothing that names the account is
kept. Through the real App on a real SQLite file."""

from __future__ import annotations

from bot.app import ratings_rebuild
from bot.app.app import App
from bot.storage.sql import Query, Tx
from core import ratings
from core.messages import Actor
from tests.app.conftest import Clock
from tests.app.harness import PLATFORM, texts
from tests.app.test_ratings_rebuild import HISTORY, RATINGS, rows
from tests.yourdata.players import People, traces
from tests.yourdata.test_forgetme import confirm

ALT_NEEDLES = ("u4417alt", "Spare Quux")  # the second account's id and name (distinctive for the scan)


class Spares(People):
    def actor(self, name: str) -> Actor:
        if name == "alt":
            return Actor(PLATFORM, ALT_NEEDLES[0], ALT_NEEDLES[1], self.locale)
        return super().actor(name)


async def lost_by_resigning(t: People, clock: Clock) -> None:
    """The main account challenges the spare; each guesses once; the spare resigns: a rated loss."""
    r = await t.say("alice", f"/duel <@{ALT_NEEDLES[0]}>")
    await t.press("alt", t.button(r, ":accept"))
    await t.dm("alice", "1234")
    await t.dm("alt", "5678")
    row = await t.app.store.last_game(PLATFORM, t.group.chat_id, "alice")
    assert row is not None
    first = "alice" if row.state["starter"] == "alice" else "alt"
    await t.say(first, "9012")
    await t.say("alt" if first == "alice" else "alice", "9012")
    assert "resigns" in texts(await t.say("alt", "/resign"))
    clock.now += 60


async def test_forgetme_does_not_reset_the_pair_cap(app: App, db: str, clock: Clock) -> None:
    t = Spares(app)
    for _round in range(4):
        for _ in range(3):
            await lost_by_resigning(t, clock)
        assert "I have forgotten you" in texts(await t.press("alt", await confirm(t, "alt")))
        assert await traces(app, db, ALT_NEEDLES) == []  # nothing names the spare account
    everywhere = await app.store.player_ratings(PLATFORM, ratings.EVERYWHERE, "alice")
    assert everywhere["duel"].games == ratings.PAIR_GAMES  # 12 duels lost in minutes, 3 of them rated
    here = await app.store.player_ratings(PLATFORM, t.group.chat_id, "alice")
    assert here["duel"].games == ratings.PAIR_GAMES
    before = (await rows(app, RATINGS), await rows(app, HISTORY))
    await ratings_rebuild.rebuild(app)
    assert (await rows(app, RATINGS), await rows(app, HISTORY)) == before  # the rebuild decides the same
    # a day later the pair counts again, and the hashes older than the cap's window are gone
    clock.now += ratings.PAIR_WINDOW
    await lost_by_resigning(t, clock)
    everywhere = await app.store.player_ratings(PLATFORM, ratings.EVERYWHERE, "alice")
    assert everywhere["duel"].games == ratings.PAIR_GAMES + 1
    kept = await app.store.fetch(Query("SELECT COUNT(*) FROM rated_pairs WHERE pair IS NOT NULL"))
    assert kept[0][0] == 1  # only the game within the last 24 hours keeps its pair's hash


async def test_the_games_of_the_day_before_the_upgrade_still_count(app: App, clock: Clock) -> None:
    """Games that ended before migration 15 have no row in `rated_pairs`: the cap counts them by ids, as
    before, and so does the rebuild."""
    t = Spares(app)
    for _ in range(2):
        await lost_by_resigning(t, clock)

    async def job(tx: Tx) -> None:  # as if they had ended before the upgrade
        await tx.execute(Query("DELETE FROM rated_pairs"))
    await app.store.run(job)
    for _ in range(2):
        await lost_by_resigning(t, clock)
    everywhere = await app.store.player_ratings(PLATFORM, ratings.EVERYWHERE, "alice")
    assert everywhere["duel"].games == ratings.PAIR_GAMES
    before = (await rows(app, RATINGS), await rows(app, HISTORY))
    await ratings_rebuild.rebuild(app)
    assert (await rows(app, RATINGS), await rows(app, HISTORY)) == before
