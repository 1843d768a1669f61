"""Every refusal says its actual reason, and bad input is never left unanswered (issues 14, 18):
the App on a real SQLite file."""

from __future__ import annotations

from core.messages import Actor, Chat, Inbound
from tests.app.harness import Table, group_texts, texts


async def challenge_accepted(t: Table, opts: str = "") -> int:
    r = await t.say("alice", f"/duel <@bob> {opts}".strip())
    accept = t.button(r, ":accept")
    await t.press("bob", accept)
    return int(accept.split(":")[1])


async def test_a_private_secret_that_is_no_code_gets_the_rules(table: Table) -> None:
    gid = await challenge_accepted(table)
    out = texts(await table.dm("alice", "12a4"))
    assert "“12a4” is not a code" in out and "4 digits 0–9, all digits different" in out, out
    out = texts(await table.dm("alice", "hello there"))  # anything typed while the secret is due
    assert "is not a code" in out and "4 digits 0–9, all digits different" in out, out
    assert (await table.state(gid))["secrets"] == {}
    await challenge_repeats(table)


async def challenge_repeats(t: Table) -> None:
    """With repeats the rule says so, in the game's length."""
    r = await t.say("cy", "/duel <@dan> 3 repeats")
    await t.press("dan", t.button(r, ":accept"))
    out = texts(await t.dm("dan", "1x"))
    assert "3 digits 0–9, repeated digits allowed" in out, out


async def test_a_guess_before_the_opponent_set_a_secret_names_them(table: Table) -> None:
    await challenge_accepted(table)
    await table.dm("alice", "1234")
    out = texts(await table.say("alice", "5678"))
    assert "Bob has not set a secret code yet" in out, out
    assert "current stage" not in out


async def test_a_guess_before_the_challenge_is_accepted_says_so(table: Table) -> None:
    await table.say("alice", "/duel <@bob>")
    out = texts(await table.say("alice", "5678"))
    assert "not been accepted yet" in out, out


async def test_giveup_and_resign_both_end_a_duel(table: Table) -> None:
    await challenge_accepted(table)
    await table.dm("alice", "1234")
    await table.dm("bob", "5678")
    out = texts(await table.say("alice", "/giveup"))
    assert "Bob wins" in out, out
    await table.say("alice", "/rematch")
    await table.say("bob", "/accept")
    await table.dm("alice", "1234")
    await table.dm("bob", "5678")
    out = texts(await table.say("bob", "/resign"))
    assert "Alice wins" in out, out


async def test_giveup_withdraws_an_own_challenge_like_resign(table: Table) -> None:
    await table.say("alice", "/duel <@bob>")
    out = texts(await table.say("alice", "/giveup"))
    assert "withdrew" in out, out


async def test_duel_bot_options_in_any_order(table: Table) -> None:
    for who, opts in (("ann", "3 bot easy"), ("ben", "easy bot"), ("cid", "repeats 5 bot strong")):
        r = await table.say(who, f"/duel {opts}")
        out = texts(r)
        assert "I do not understand" not in out and "do not know" not in out, out
        games = await table.app.store.seated_games("test", who)
        assert len(games) == 1 and games[0].kind == "duel", out
    st = (await table.app.store.seated_games("test", "ann"))[0].state
    assert st["rules"]["length"] == 3
    st = (await table.app.store.seated_games("test", "cid"))[0].state
    assert st["rules"] == {"length": 5, "repeats": True}


async def test_slash_alone_is_answered(table: Table) -> None:
    """A lone `/` (or `/ duel`) reaches the App as text: the console and Telegram parse no command."""
    out = texts(await table.send(Inbound(table.actor("alice"), table.group, text="/", event_id="e1")))
    assert "/help" in out, out
    dm = Chat("test", "dm-alice", private=True)
    out = texts(await table.send(Inbound(table.actor("alice"), dm, text="/ duel", event_id="e2")))
    assert "/help" in out and "no space" in out, out


async def test_help_for_an_unknown_command_says_so(table: Table) -> None:
    out = texts(await table.say("alice", "/help foo"))
    assert "I do not know /foo" in out and "/practice" in out, out
    out = texts(await table.say("alice", "/help /duel"))
    assert "I do not know" not in out and "/duel" in out


async def test_no_secret_is_echoed_in_the_group(table: Table) -> None:
    await challenge_accepted(table)
    r = await table.dm("alice", "12a4")
    assert group_texts(r) == "" and all(isinstance(m.to, Actor) or m.to.private for m in r.messages)
