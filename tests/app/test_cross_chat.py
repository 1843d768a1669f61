"""A game is driven only from its own chat: the App refuses a button, deep link or modal that names a
game from another chat (one rule in `App._on_action`), except a player's own secret asked privately.
Real App on a real SQLite file."""

from __future__ import annotations

from bot.app.app import App
from core.messages import Actor, Chat, Inbound, Response
from tests.app.harness import GROUP, PLATFORM, Table, texts

OTHER_GROUP = Chat(PLATFORM, "group-2", private=False)
REFUSED = "belongs to a game in another chat"


def dm(who: str) -> Chat:
    return Chat(PLATFORM, f"dm-{who}", private=True)


async def press_in(t: Table, who: str, chat: Chat, action: str, text: str | None = None,
                   actor: Actor | None = None) -> Response:
    return await t.send(Inbound(actor or t.actor(who), chat, action=action, text=text, event_id=t._event()))


async def open_duel(t: Table) -> int:
    """alice challenges bob in the group; the game waits for bob's acceptance."""
    r = await t.say("alice", "/duel <@bob>")
    return int(t.button(r, ":accept").split(":")[1])


async def accepted_duel(t: Table) -> int:
    """A duel in the group that waits for both secrets."""
    gid = await open_duel(t)
    await t.press("bob", f"g:{gid}:accept")
    assert (await t.state(gid))["phase"] == "secrets"
    return gid


async def test_accept_from_a_private_chat_is_refused_and_changes_nothing(table: Table) -> None:
    """The '/start <payload>' attack: bob accepts a duel of the group from his private chat."""
    gid = await open_duel(table)
    before = await table.state(gid)
    r = await press_in(table, "bob", dm("bob"), f"g:{gid}:accept")
    assert r.notice is not None and REFUSED in r.notice
    assert not r.messages
    assert await table.state(gid) == before


async def test_join_pressed_in_another_group_is_refused(table: Table) -> None:
    r = await table.say("alice", "/words")
    join = table.button(r, ":join")
    gid = int(join.split(":")[1])
    before = await table.state(gid)
    r = await press_in(table, "carol", OTHER_GROUP, join)
    assert r.notice is not None and REFUSED in r.notice
    assert await table.state(gid) == before
    r = await table.press("carol", join)  # the same press in the game's own chat works
    assert await table.state(gid) != before


async def test_scorer_cannot_decide_a_tie_from_private(table: Table) -> None:
    r = await table.say("alice", "/kegeln hoch 2 Anna Ben Cem")
    gid = int(texts(r).split("#")[1].split(":")[0])
    for cmd in ("5 T", "5 T", "3 T", "1 O", "1 O"):
        await table.say("alice", f"/wurf {cmd}")
    r = await table.say("alice", "/wurf 9")
    decide = table.button(r, ":w1")
    before = await table.state(gid)
    for chat in (dm("alice"), OTHER_GROUP):
        r = await press_in(table, "alice", chat, decide)
        assert r.notice is not None and REFUSED in r.notice
        assert await table.state(gid) == before
    r = await table.press("alice", decide)
    assert "named the winner: Ben" in texts(r)


async def test_own_secret_privately_is_allowed_others_are_refused(table: Table) -> None:
    gid = await accepted_duel(table)
    # bob, seated and awaited, asks privately to enter his secret: prompted
    r = await press_in(table, "bob", dm("bob"), f"g:{gid}:secret")
    assert r.notice is None and r.messages and r.messages[0].to == table.actor("bob")
    await table.dm("bob", "5678")
    assert "bob" in (await table.state(gid))["secrets"]
    # carol is not seated: her private press is refused; bob has set his: nothing more to ask
    before = await table.state(gid)
    r = await press_in(table, "carol", dm("carol"), f"g:{gid}:secret")
    assert r.notice is not None and REFUSED in r.notice
    r = await press_in(table, "bob", dm("bob"), f"g:{gid}:random")
    assert r.notice is not None and REFUSED in r.notice
    assert await table.state(gid) == before
    # alice's "random secret" button in her private prompt sets her secret
    r = await press_in(table, "alice", dm("alice"), f"g:{gid}:random")
    assert (await table.state(gid))["phase"] == "playing", texts(r)


async def test_a_secret_from_another_group_is_refused(table: Table) -> None:
    """A modal answer (action + text) submitted in another channel changes nothing."""
    gid = await accepted_duel(table)
    before = await table.state(gid)
    r = await press_in(table, "bob", OTHER_GROUP, f"g:{gid}:secret", text="5678")
    assert r.notice is not None and REFUSED in r.notice
    assert await table.state(gid) == before
    r = await press_in(table, "bob", GROUP, f"g:{gid}:secret", text="5678")  # in its own channel: taken
    assert "bob" in (await table.state(gid))["secrets"]


async def test_an_action_from_another_platform_is_refused(table: Table, app: App) -> None:
    gid = await open_duel(table)
    before = await table.state(gid)
    stranger = Actor("discord", "bob", "Bob", "en")
    r = await press_in(table, "bob", Chat("discord", GROUP.chat_id, private=False), f"g:{gid}:accept",
                       actor=stranger)
    assert r.notice is not None and REFUSED in r.notice
    r = await press_in(table, "bob", Chat("discord", "dm-bob", private=True), f"g:{gid}:secret",
                       actor=stranger)
    assert r.notice is not None and REFUSED in r.notice
    assert await table.state(gid) == before
