"""Achievements through the real App on a real database: earned in the move that ends a game, announced
once in its chat, listed in /stats, the same again when replayed from the stored games."""

from __future__ import annotations

import asyncio
import itertools
from datetime import datetime
from zoneinfo import ZoneInfo

import pytest

from bot.__main__ import main
from bot.app import achievements
from bot.app.app import App
from bot.storage.sql import Query
from core.achievements import CRACK_IN_4, FIRST_WIN, LOGIK_IN_5, WEEK_OF_DAILIES, Feat, earned
from core.messages import Actor, Inbound
from tests.app.conftest import Clock
from tests.app.harness import GROUP, group_texts, texts
from tests.yourdata.players import People, kegeln_scored, logik_won, practice_won, rated_duel

NOON = datetime(2026, 11, 30, 12, 0, tzinfo=ZoneInfo("UTC")).timestamp()
DAY = 24 * 3600.0


def test_the_catalog_rules() -> None:
    assert earned((FIRST_WIN, CRACK_IN_4), [Feat("a", "A", True, 4), Feat("b", "B", False, None)]) == [
        (Feat("a", "A", True, 4), FIRST_WIN), (Feat("a", "A", True, 4), CRACK_IN_4)]  # None: b never cracked it
    assert earned((FIRST_WIN, CRACK_IN_4), [Feat("d", "D", False, 3)]) == [  # a crack in a drawn duel counts
        (Feat("d", "D", False, 3), CRACK_IN_4)]
    assert earned((LOGIK_IN_5,), [Feat("d", "D", False, 3)]) == []  # "Won Logik …": a draw is no win
    assert earned((CRACK_IN_4,), [Feat("a", "A", True, 5), Feat("b", "B", True, None)]) == []  # None: resigned
    week = tuple(f"2026-11-{d:02d}" for d in range(24, 31))
    assert earned((WEEK_OF_DAILIES,), [Feat("a", "A", False, days=week)])
    gap = week[:3] + week[4:]
    assert earned((WEEK_OF_DAILIES,), [Feat("a", "A", True, days=gap)]) == []


async def held(app: App) -> list[tuple[str, str, str]]:
    rows = await app.store.fetch(Query("SELECT kind, user_id, code FROM achievements ORDER BY kind, user_id, code"))
    return [(str(k), str(u), str(c)) for k, u, c in rows]


async def test_earned_once_announced_listed_and_replayed(app: App, clock: Clock) -> None:
    clock.now = NOON
    t = People(app)
    await t.say("zeb", "/practice")
    row = await app.store.last_game("test", t.group.chat_id, "u9731zeb")
    assert row is not None
    secret = str(row.state["secret"])
    misses = [c for c in ("".join(p) for p in itertools.permutations("0123456789", 4)) if c != secret][:2]
    for code in misses:
        await t.say("zeb", code)
    r = await t.say("zeb", secret)  # three guesses: a first win and a crack in ≤ 4
    out = group_texts(r)
    assert "🎖 Zebediah Quux earned an achievement: First win" in out
    assert "🎖 Zebediah Quux earned an achievement: Cracked the code in 4 guesses or fewer" in out
    r2 = await t.say("zeb", "/practice")
    assert "achievement" not in texts(r2)
    await practice_won(t, "zeb")  # again: nothing new, told nothing
    assert (await held(app)).count(("practice", "u9731zeb", "first_win")) == 1

    await rated_duel(t, "alice", "zeb")  # cracked after 3 guesses: the starter has both
    await logik_won(t, "alice", "zeb")
    await kegeln_scored(t, "carol")  # Birgit wins; 7 and 5 pins: nobody threw nine
    await t.say("carol", "/kegeln high 2 Birgit Klaus")
    for pins, pos in ((9, 10), (2, 10), (1, 1), (3, 1)):
        r = await t.say("carol", f"/wurf {pins} {pos}")
    assert "🎖 Birgit earned an achievement: Alle Neune" in group_texts(r)
    kinds = {k for k, _u, _c in await held(app)}
    assert {"practice", "duel", "logik", "kegeln"} <= kinds
    assert ("kegeln", "birgit", "alle_neune") in await held(app)  # the club member's, by name
    assert not any(u == "carol" for _k, u, _c in await held(app))  # the scorer's account earns none of it
    kegel = texts(await t.say("alice", "/kegelstats Birgit"))
    assert "🎖 Achievements here:" in kegel and "Alle Neune: all nine pins with one throw (Hausnummern)" in kegel

    stats = texts(await t.say("alice", "/stats"))
    assert "🎖 Achievements here:" in stats and "Won Logik in 5 rows or fewer (Logik)" in stats
    t.locale = "de"
    assert "Erster Sieg" in texts(await t.say("zeb", "/stats"))

    before = await achievements.stored(app.store)
    assert await achievements.replay(app) == before
    await app.store.run(_wipe)
    assert await held(app) == []
    assert await achievements.rebuild(app) == len(before)
    assert await achievements.stored(app.store) == before


async def _wipe(tx: object) -> None:
    await tx.execute(Query("DELETE FROM achievements"))  # type: ignore[attr-defined]


async def test_a_week_of_dailies(app: App, clock: Clock) -> None:
    t = People(app)
    clock.now = NOON
    told = []
    for day in range(7):
        clock.now = NOON + day * DAY
        await t.say("zeb", "/daily")
        secret = await app.store.fetch(Query(
            "SELECT secret FROM daily_puzzles WHERE chat_id = :c ORDER BY day DESC LIMIT 1"), c=t.group.chat_id)
        r = await t.dm("zeb", str(secret[0][0]))
        told.append("A full week: 7 days in a row" in group_texts(r))
    assert told == [False] * 6 + [True]
    assert await achievements.replay(app) == await achievements.stored(app.store)


def test_the_rebuild_command_replays_them(db: str, capsys: pytest.CaptureFixture[str]) -> None:
    async def play() -> list[achievements.Award]:
        app = await App.open(db, seed=3)
        try:
            await practice_won(People(app), "zeb")
            kept = await achievements.stored(app.store)
            await app.store.run(_wipe)
            return kept
        finally:
            await app.close()

    async def read() -> list[achievements.Award]:
        app = await App.open(db)
        try:
            return await achievements.stored(app.store)
        finally:
            await app.close()

    kept = asyncio.run(play())
    assert len(kept) == 2 and asyncio.run(read()) == []  # a practice won in one guess: a first win, a crack in 4
    assert main(["ratings", "rebuild", "--db", db]) == 0
    assert "achievements rebuilt: 2" in capsys.readouterr().out
    assert asyncio.run(read()) == kept


async def test_results_only_keeps_the_announcement_out_of_the_group_not_the_award(app: App) -> None:
    """`/posts noise results` (bot/retention/noise.py): the announcement is chatter; the award and /stats stay."""
    admin = Actor("test", "root", "Root", "en", is_admin=True)
    await app.handle(Inbound(admin, GROUP, command="posts", args=("noise", "results")))
    t = People(app)
    await t.say("zeb", "/practice")
    row = await app.store.last_game("test", GROUP.chat_id, "u9731zeb")
    assert row is not None
    r = await t.say("zeb", str(row.state["secret"]))
    assert "Zebediah Quux" in group_texts(r)  # the game's own end stays
    assert "achievement" not in group_texts(r)
    assert ("practice", "u9731zeb", "first_win") in await held(app)
    assert "First win (1A2B practice)" in texts(await t.say("zeb", "/stats"))
