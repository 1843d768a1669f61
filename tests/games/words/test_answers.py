"""Word-game refusals say their actual reason (issue 14) — the App on a real SQLite file. Each answer is
checked as its catalog entry renders for the player (the key and its parameters), not as an English sentence."""

from __future__ import annotations

from core.messages import Chat
from tests.app.harness import Table, texts
from tests.games.words.test_app_flow import open_game, said, set_word


async def test_begin_by_someone_outside_the_lobby_says_who_begins(table: Table) -> None:
    await table.say("ann", "/words")
    out = texts(await table.say("bob", "/begin"))
    assert said(table, "error.words.not_in_lobby", name="Ann") in out, out
    assert said(table, "error.words.no_lobby") not in out, out
    await table.say("bob", "/join")
    out = texts(await table.say("bob", "/begin"))
    assert said(table, "error.words.not_opener", name="Ann") in out, out


async def test_a_guess_with_a_hyphen_is_not_a_word(table: Table) -> None:
    dm = Chat("test", "dm-ann", private=True)
    await table.say("ann", "/words solo length 4 lang ru", dm)
    for typed in ("рос-т", "ро-т", "рос1"):
        out = texts(await table.say("ann", f"/guess {typed}", dm))
        assert said(table, "error.words.not_a_word", word=typed) in out, out
    out = texts(await table.say("ann", "/guess tree", dm))  # letters, but of another alphabet
    assert said(table, "error.words.letters", word="tree", lang="русский") in out, out


async def test_a_two_player_give_up_says_the_penalty(table: Table) -> None:
    gid = await open_game(table, "rounds 2", ("ann", "bob"))
    setter = (await table.state(gid))["setter"]
    g = await set_word(table, gid, "crane")
    await table.say(g, "slate")
    out = texts(await table.say(g, "/giveup"))
    assert said(table, "words.abandoned_penalty", word="crane", n=10, name=g.capitalize(),
                setter=setter.capitalize()) in out, out
    assert (await table.state(gid))["counts"][g] == 11
