"""A secret the platform would not let the bot delete (`Inbound.undeleted`), and edited messages
(`Inbound.edited`), through the real App on a real SQLite file."""

from __future__ import annotations

from dataclasses import replace

from bot.app.app import App
from core.messages import Actor, Chat, Inbound
from tests.app.harness import PLATFORM, Table, group_texts, texts
from tests.app.test_duel_flow import start_duel


def dm(who: str) -> Chat:
    return Chat(PLATFORM, f"dm-{who}", private=True)


async def challenged(t: Table) -> int:
    """alice challenges bob, bob accepts: both are asked for their secrets."""
    r = await t.say("alice", "/duel <@bob>")
    accept = t.button(r, ":accept")
    await t.press("bob", accept)
    return int(accept.split(":")[1])


async def test_a_secret_the_group_saw_cannot_be_kept(table: Table, app: App) -> None:
    gid = await challenged(table)
    typed = Inbound(table.actor("alice"), table.group, text="1234", event_id="u1", message="g:1")
    r = await table.send(typed)
    assert r.delete_inbound and "1234" not in texts(r)
    # the adapter could not delete it (no right): the group is told plainly, never the code
    r = await table.send(replace(typed, undeleted="rights", event_id="u1:undeleted", message=None))
    out = group_texts(r)
    assert "couldn't delete your message" in out and "no longer be your secret" in out
    assert "Delete messages" not in out  # the test platform has no such right to name
    assert "1234" not in texts(r)
    # alice cannot keep that code; the same row written otherwise is still that code
    r = await table.dm("alice", "1234")
    assert "Everyone in the group has seen that code" in texts(r)
    assert "alice" not in (await table.state(gid))["secrets"]
    r = await table.dm("alice", "4321")
    assert (await table.state(gid))["secrets"]["alice"] == "4321"
    # bob is not bound by what alice showed
    await table.dm("bob", "1234")
    assert (await table.state(gid))["secrets"]["bob"] == "1234"


async def test_the_platforms_right_is_named(app: App) -> None:
    table = Table(app, group=Chat("telegram", "-100", private=False))
    table.actor = lambda name: Actor("telegram", name, name.capitalize(), "en")  # type: ignore[method-assign]
    await challenged(table)
    typed = Inbound(table.actor("alice"), table.group, text="1234", event_id="t1", undeleted="rights")
    out = group_texts(await table.send(typed))
    assert "no longer be your secret" in out and "“Delete messages”" in out
    old = Inbound(table.actor("bob"), table.group, text="5678", event_id="t2", undeleted="old")
    out = group_texts(await table.send(old))
    assert "no longer be your secret" in out and "Delete messages" not in out


async def test_a_logik_row_seen_in_either_spelling_is_ruled_out(table: Table, app: App) -> None:
    r = await table.say("alice", "/logik <@bob>")
    accept = table.button(r, ":accept")
    gid = int(accept.split(":")[1])
    await table.press("bob", accept)
    await table.send(Inbound(table.actor("alice"), table.group, text="12345", event_id="l1", undeleted="rights"))
    r = await table.dm("alice", "12345")
    assert "Everyone in the group has seen that code" in texts(r)
    assert "alice" not in (await table.state(gid))["secrets"]


async def test_an_edited_typo_is_taken_once_and_a_counted_guess_is_not_changed(table: Table, app: App) -> None:
    gid, first, second = await start_duel(table)
    # a typo: refused, nothing counted
    typo = Inbound(table.actor(first), table.group, text="123", event_id="e1", message="g:10")
    assert "digits" in texts(await table.send(typo))
    assert (await table.state(gid))["attempts"][first] == []
    # corrected by editing: taken as the move it now is
    edit = replace(typo, text="1235", event_id="e2", edited="t2")
    r = await table.send(edit)
    assert (await table.state(gid))["attempts"][first] != [], texts(r)
    # the same edit delivered again: nothing, not counted twice
    assert (await table.send(edit)).messages == ()
    # … nor after a restart of the App (a new process on the same database)
    fresh = App(app.store, app.catalogs, seed=1, clock=app.clock)
    assert (await fresh.handle(edit)).messages == ()
    # edited once more: a note, and the guess stays what counted
    again = replace(typo, text="9876", event_id="e3", edited="t3")
    r = await table.send(again)
    assert "already counted" in texts(r)
    st = await table.state(gid)
    assert len(st["attempts"][first]) == 1 and st["turn"] == second


async def test_an_edit_of_a_counted_move_is_noted_without_judging_it(table: Table, app: App) -> None:
    gid, first, _ = await start_duel(table)
    guess = Inbound(table.actor(first), table.group, text="1235", event_id="f1", message="g:20")
    await table.send(guess)
    # even an edit that would now be refused (a wrong length) only gets the note
    r = await table.send(replace(guess, text="12", event_id="f2", edited="t1"))
    assert "already counted" in texts(r) and "digits" not in texts(r)
    assert len((await table.state(gid))["attempts"][first]) == 1


async def test_a_setters_word_the_group_saw_cannot_be_kept(table: Table, app: App) -> None:
    from tests.games.words.test_app_flow import open_game

    gid = await open_game(table)
    setter = (await table.state(gid))["setter"]
    typed = Inbound(table.actor(setter), table.group, text="Crane", event_id="w1", message="g:30")
    r = await table.send(typed)
    assert r.delete_inbound and "crane" not in texts(r).lower()
    r = await table.send(replace(typed, undeleted="rights", event_id="w1:undeleted", message=None))
    assert "everyone here has seen that word" in group_texts(r) and "crane" not in texts(r).lower()
    r = await table.dm(setter, "CRANE")  # the same word, however written
    assert "Everyone in the group has seen that word" in texts(r)
    assert (await table.state(gid))["secret"] == ""
    r = await table.dm(setter, "house")
    assert (await table.state(gid))["secret"] == "house"


async def test_a_duel_secret_is_ruled_out_beside_a_running_daily_attempt(table: Table, app: App) -> None:
    """alice plays today's daily of the group privately and waits for her duel secret: a code she typed
    in the group that stayed there is the duel's secret (her seat), whichever game the store lists first."""
    await table.say("alice", "/daily")
    gid = await challenged(table)
    r = await table.send(Inbound(table.actor("alice"), table.group, text="1234", event_id="d1", undeleted="rights"))
    assert "no longer be your secret" in group_texts(r)
    assert (await table.state(gid))["seen"] == {"alice": ["1234"]}
