"""Word-game refusals say their actual reason (issue 14) — the App on a real SQLite file."""

from __future__ import annotations

from core.messages import Chat
from tests.app.harness import Table, texts
from tests.games.words.test_app_flow import open_game, set_word


async def test_begin_by_someone_outside_the_lobby_says_who_begins(table: Table) -> None:
    await table.say("ann", "/words")
    out = texts(await table.say("bob", "/begin"))
    assert "no word game lobby" not in out and "/join" in out and "Ann" in out, out
    await table.say("bob", "/join")
    out = texts(await table.say("bob", "/begin"))
    assert "Only Ann" in out, out


async def test_a_guess_with_a_hyphen_is_not_a_word(table: Table) -> None:
    dm = Chat("test", "dm-ann", private=True)
    await table.say("ann", "/words solo length 4 lang ru", dm)
    for typed in ("рос-т", "ро-т", "рос1"):
        out = texts(await table.say("ann", f"/guess {typed}", dm))
        assert f"“{typed}” is not a word" in out and "letters" in out, out
    out = texts(await table.say("ann", "/guess tree", dm))  # letters, but of another alphabet
    assert "“tree” is not made of русский letters" in out, out


async def test_a_two_player_give_up_says_the_penalty(table: Table) -> None:
    gid = await open_game(table, "rounds 2", ("ann", "bob"))
    g = await set_word(table, gid, "crane")
    await table.say(g, "slate")
    out = texts(await table.say(g, "/giveup"))
    assert "The word is given up; it was crane" in out, out
    assert "10 guesses" in out and "penalty" in out, out
    assert (await table.state(gid))["counts"][g] == 11
