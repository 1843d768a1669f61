"""Club games and casual games through the App on a real SQLite file (issue 34's attack): with the cash box
on, a plain member's `/kegeln high 2 Mallory Klaus` thrown 9/0/9/0, twenty times, books nothing, changes no
club record, season table, rating, title or achievement, and says it is casual; the appointed scorer's game
beside it counts. A casual game cannot become a club game by handing the role on, and a stored game from
before the roles existed reads as a club game."""

from __future__ import annotations

from typing import Any

from bot.club.cash import storage as cash_storage
from bot.club.host import is_club_game
from bot.storage.base import GameRow
from bot.storage.sql import Query
from core import serial
from core.games.kegeln import records
from core.games.kegeln.state import State
from tests.app.harness import GROUP, PLATFORM, Table, texts
from tests.club.test_cash_app import turned_on
from tests.club.test_season import game

ATTACK = {"Mallory": (9, 9), "Klaus": (0, 0)}  # 9/0/9/0: Klaus last, a Pumpe each round


async def counts(t: Table) -> dict[str, Any]:
    """Everything a game can change for the club, as the store reads it."""
    async def n(sql: str) -> Any:
        return (await t.app.store.fetch(Query(sql)))[0][0]
    return {"book": [(b.member, b.amount) for b in await cash_storage.book(t.app.store, PLATFORM, GROUP.chat_id)],
            "games": await n("SELECT COUNT(*) FROM kegeln_games"),
            "members": await n("SELECT COUNT(*) FROM kegeln_members"),
            "throws": await n("SELECT COUNT(*) FROM kegeln_throws"),
            "ratings": await n("SELECT COUNT(*) FROM ratings WHERE kind = 'kegeln'"),
            "history": await n("SELECT COUNT(*) FROM rating_history WHERE kind = 'kegeln'"),
            "awards": await n("SELECT COUNT(*) FROM achievements"),
            "roster": await n("SELECT COUNT(*) FROM club_members")}


async def test_a_plain_members_game_books_and_records_nothing(table: Table) -> None:
    await turned_on(table)  # dave: the chat's admin and the treasurer
    await game(table, "high", {"Birgit": (5, 5), "Klaus": (7, 2)})  # alice, the club's scorer: a club evening
    await game(table, "high", {"Birgit": (0, 5), "Klaus": (7, 2)})  # and a Pumpe of Birgit's
    before = await counts(table)
    assert before["book"] and before["members"] == 4 and before["ratings"] == 2, before
    season, stats, top = [texts(await table.say("bob", c)) for c in ("/saison", "/kegelstats", "/top kegeln")]
    for _ in range(20):
        r = await table.say("mallory", "/kegeln high 2 Mallory Klaus")
        assert "🎲 A casual game: Mallory is not one of the club's scorers" in texts(r), texts(r)
        for pins, place in ((9, 10), (0, 10), (9, 1), (0, 1)):
            r = await table.say("mallory", f"/wurf {pins} {place}")
        assert "🎲 Casual game — counts nothing for the club\n🏁 Result" in texts(r), texts(r)
    assert await counts(table) == before
    assert [texts(await table.say("bob", c)) for c in ("/saison", "/kegelstats", "/top kegeln")] == [
        season, stats, top]
    r = await table.say("bob", "/kasse Klaus")
    assert "Mallory" not in texts(r)
    assert "Mallory" not in texts(await table.say("bob", "/abend"))
    assert "Mallory" not in texts(await table.say("bob", "/verein"))


async def test_a_casual_game_is_not_handed_into_the_club(table: Table) -> None:
    """mallory hands her casual game to the club's scorer alice: it stays casual (decided when it started)."""
    await table.say("mallory", "/kegeln high 2 Xaver Klaus")
    r = await table.say("mallory", "/scorer alice")
    assert "Alice is now the scorer" in texts(r), texts(r)
    for pins, place in ((9, 10), (0, 10), (9, 1), (0, 1)):
        r = await table.say("alice", f"/wurf {pins} {place}")
    assert "Casual game" in texts(r), texts(r)
    assert (await counts(table))["members"] == 0


async def test_a_stored_game_from_before_the_roles_is_a_club_game(table: Table) -> None:
    await game(table, "high", {"Birgit": (5, 5), "Klaus": (7, 2)})
    await table.say("mallory", "/kegeln high 2 Xaver Klaus")
    rows = [r for r in await table.app.store.fetch(Query("SELECT id FROM games ORDER BY id"))]
    club, casual = [await table.app.store.get_game(int(r[0])) for r in rows]
    assert isinstance(club, GameRow) and isinstance(casual, GameRow)
    assert is_club_game(table.app, club) and not is_club_game(table.app, casual)
    old = dict(club.state)
    del old["casual"]  # as every state stored before this field existed
    assert is_club_game(table.app, GameRow(**{**club.__dict__, "state": old}))
    assert records.is_club(serial.load(State, old))
