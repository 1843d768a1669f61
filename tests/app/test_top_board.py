"""/top: the duel leaderboard counts duels only and never lists the computer opponent; `/top GAME`
takes the game in any language's words, as /daily does (`/top думи`). The real App over SQLite."""

from __future__ import annotations

from tests.app.harness import Table, texts
from tests.app.test_duel_flow import start_duel


async def test_the_duel_leaderboard_is_duels_of_people(table: Table) -> None:
    _gid, _first, second = await start_duel(table)  # alice and bob
    await table.say(second, "/resign")
    r = await table.say("carol", "/logik <@dave>")  # a Logik game with a result: not a duel
    await table.say("dave", "/accept")
    r = await table.say("carol", "/resign")
    assert "resign" in texts(r).lower() or "gave up" in texts(r).lower(), texts(r)
    r = await table.say("erin", "/duel bot")  # against the computer: erin is listed, the bot is not
    r = await table.say("erin", "/resign")
    r = await table.say("frank", "/top")
    board = texts(r)
    assert "Alice" in board and "Bob" in board and "Erin" in board, board
    assert "Carol" not in board and "Dave" not in board, board
    assert "Bot" not in board.split(":", 1)[1], board


async def test_top_takes_a_game_in_any_language(table: Table) -> None:
    for word, game in (("думи", "Bulls & Cows with words"), ("wörter", "Bulls & Cows with words"),
                       ("Words", "Bulls & Cows with words"), ("logik", "Logik")):
        r = await table.say("alice", f"/top {word}")
        assert texts(r) == f"{game}: no rated games in this chat yet.", (word, texts(r))
    r = await table.say("alice", "/top chess")
    assert "duel, kegeln, words, logik" in texts(r)
