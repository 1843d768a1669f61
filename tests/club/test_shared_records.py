"""The year in review: a record two members share names each with the game they set it in (it named
the first holder's game for both)."""

from __future__ import annotations

from tests.app.harness import Table, texts


async def play(table: Table, setup: str, throws: tuple[str, ...]) -> None:
    await table.say("alice", setup)
    for throw in throws:
        r = await table.say("alice", f"/wurf {throw}")
    assert "🏆" in texts(r), texts(r)


async def test_each_holder_of_a_shared_record_gets_their_own_game(table: Table) -> None:
    await play(table, "/kegeln high 2 Anna Cem", ("7 10", "3 10", "2 1", "5 1"))  # #1: Anna 72
    await play(table, "/kegeln high 2 Ben Dan", ("7 10", "1 10", "2 1", "1 1"))  # #2: Ben 72
    r = await table.say("bob", "/yearreview")
    assert "🔝 Highest Hausnummer: Anna (game #1), Ben (game #2) — 72" in texts(r), texts(r)
    table.locale = "de"
    r = await table.say("bob", "/jahresrueckblick")
    assert "Anna (Spiel #1), Ben (Spiel #2) — 72" in texts(r), texts(r)


async def test_a_shared_champion_names_all_who_share_the_wins(table: Table) -> None:
    await play(table, "/kegeln high 2 Anna Cem", ("7 10", "3 10", "2 1", "5 1"))  # Anna wins
    await play(table, "/kegeln high 2 Ben Dan", ("7 10", "1 10", "2 1", "1 1"))  # Ben wins
    r = await table.say("bob", "/yearreview")
    assert "🏆 Club champions, level on wins: Anna, Ben — 1 win each" in texts(r), texts(r)
    await play(table, "/kegeln high 2 Anna Dan", ("7 10", "1 10", "2 1", "1 1"))  # Anna again: alone
    r = await table.say("bob", "/yearreview")
    assert "🏆 Club champion: Anna — 2 wins" in texts(r), texts(r)
