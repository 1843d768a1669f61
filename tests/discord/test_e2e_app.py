"""End to end: the real App on a real SQLite file behind the real discord.py client.

Users act through the stand-in Discord; assertions are on structure (who got
what, where, with which buttons, which codes are present or absent), not on
exact wording.
"""

from __future__ import annotations

import logging
import re
from collections.abc import Callable
from typing import Any

import pytest

from core.games.duel import rules as duel
from core.games.practice import rules as practice

from .conftest import MakeAdapter, OpenApp
from .model import CHANNEL_ID, OTHER_CHANNEL_ID, Call, User
from .standin import StandIn

app_module = pytest.importorskip("bot.app.app")
App = app_module.App


ALICE_SECRET = "1234"
BOB_SECRET = "5678"


def game_id_of(call: Call, verb: str) -> int:
    for cid in call.custom_ids():
        m = re.fullmatch(rf"~?g:(\d+):{verb}", cid)
        if m:
            return int(m.group(1))
    raise AssertionError(f"no {verb} button in {call.custom_ids()}")


def has_button(verb: str) -> Callable[[Call], bool]:
    return lambda c: c.status < 300 and any(
        re.fullmatch(rf"~?g:\d+:{verb}", cid) for cid in c.custom_ids())


async def duel_state(app: Any, game_id: int) -> Any:
    from core import serial

    row = await app.store.get_game(game_id)
    return serial.load(duel.State, row.state)


def assert_all_answered(standin: StandIn) -> None:
    """Every interaction acknowledged once, in time; no Discord call refused except closed DMs."""
    refused = [c for c in standin.calls if c.status >= 400
               and not (c.status == 403 and c.channel_id in standin.dm_owner)]
    assert not refused, [(c.method, c.path, c.status) for c in refused]
    for token, state in standin.interactions.items():
        assert state["responded"] is not None, f"{token} never answered"
        assert state["responded_at"] - state["created"] < 3.0


def secret_free(calls: list[Call], *secrets: str) -> None:
    for call in calls:
        for secret in secrets:
            assert secret not in call.text(), f"secret {secret} leaked in {call.method} {call.path}"


async def challenge(standin: StandIn, alice: User, bob: User) -> tuple[int, int]:
    """Alice challenges Bob by slash command; returns (message id, game id)."""
    await standin.slash(CHANNEL_ID, alice, "duel", {"opponent": bob, "length": 4})
    posted = await standin.wait_for(
        lambda c: c.in_channel(CHANNEL_ID) and has_button("accept")(c))
    game = game_id_of(posted, "accept")
    mid, _ = standin.message_with_button(lambda cid: cid == f"g:{game}:accept")
    return mid, game


async def test_complete_duel(
    standin: StandIn, make_adapter: MakeAdapter, open_app: OpenApp,
    caplog: pytest.LogCaptureFixture,
) -> None:
    caplog.set_level(logging.DEBUG, logger="adapters")
    caplog.set_level(logging.DEBUG, logger="bot")
    caplog.set_level(logging.INFO, logger="discord")
    alice = standin.add_user("Alice")
    bob = standin.add_user("Bob", locale="de", dms_closed=True)
    app = await open_app()
    await make_adapter(app.handle, app.command_menu())

    mid, game = await challenge(standin, alice, bob)
    posted = await standin.wait_for(lambda c: f"g:{game}:accept" in c.custom_ids())
    # the challenge pings Bob, whom it mentions, and no one else: never @everyone, roles or any user
    mentions = posted.message["allowed_mentions"]
    assert mentions["parse"] == [] and [str(u) for u in mentions["users"]] == [str(bob.id)]
    assert re.findall(r"<@(\d+)>", posted.content) == [str(bob.id)]

    # Bob accepts by button: the press is acknowledged, both players are asked privately
    mark = len(standin.calls)
    token = await standin.press(CHANNEL_ID, bob, mid, f"g:{game}:accept")
    assert (await standin.answered(token))["responded"] == 6
    dm = await standin.wait_for(
        lambda c: c.channel_id is not None and c.channel_id == standin.dm_channels.get(alice.id)
        and c.status == 200, after=mark)
    assert f"g:{game}:random" in dm.custom_ids()
    # Bob's DMs are closed: the channel gets a prompt button instead
    fallback = await standin.wait_for(
        lambda c: c.in_channel(CHANNEL_ID) and has_button("secret")(c), after=mark)
    assert f"~g:{game}:secret" in fallback.custom_ids()
    assert bob.mention in fallback.content or "Bob" in fallback.content

    # Alice types her code in the channel by mistake: deleted (the bot may: Manage Messages), never echoed
    standin.grant(CHANNEL_ID, "manage_messages")
    oops = await standin.say(CHANNEL_ID, alice, ALICE_SECRET)
    await standin.wait_for(lambda c: c.method == "DELETE" and c.path.endswith(oops["id"]))

    # Alice sets her secret by DM; the confirmation stays in the DM
    mark = len(standin.calls)
    await standin.say(None, alice, ALICE_SECRET)
    locked = await standin.wait_for(lambda c: ALICE_SECRET in c.content, after=mark)
    assert locked.channel_id == standin.dm_channels[alice.id]

    # Bob sets his through the button → modal, answered ephemerally
    fb_mid, cid = standin.message_with_button(lambda c: c == f"~g:{game}:secret")
    token = await standin.press(CHANNEL_ID, bob, fb_mid, cid)
    modal = (await standin.answered(token))["modal"]
    assert modal and modal["custom_id"] == f"~g:{game}:secret"
    mark = len(standin.calls)
    token = await standin.submit_modal(CHANNEL_ID, bob, modal, BOB_SECRET, message_id=fb_mid)
    mine = await standin.wait_for(lambda c: BOB_SECRET in c.content, after=mark)
    assert mine.interaction_token == token and mine.ephemeral

    state = await duel_state(app, game)
    assert state.secrets == {str(alice.id): ALICE_SECRET, str(bob.id): BOB_SECRET}
    starter = alice if state.turn == str(alice.id) else bob
    second = bob if starter is alice else alice
    target = {alice.id: BOB_SECRET, bob.id: ALICE_SECRET}

    async def guess(user: User, code: str, *, slash: bool) -> Call:
        mark = len(standin.calls)
        if slash:
            await standin.slash(CHANNEL_ID, user, "guess", {"code": code})
        else:
            await standin.say(CHANNEL_ID, user, code)
        return await standin.wait_for(
            lambda c: c.in_channel(CHANNEL_ID) and code in c.content, after=mark)

    # round 1: a channel message and a /guess, both miss
    await guess(starter, "9012" if target[starter.id] != "9012" else "9013", slash=False)
    await guess(second, "0987", slash=True)
    await standin.settle()
    secret_free(standin.channel_calls(), ALICE_SECRET, BOB_SECRET)

    # round 2: the starter cracks, the second misses the last chance → reveal + rematch button
    mark = len(standin.calls)
    await guess(starter, target[starter.id], slash=False)
    secret_free(standin.channel_calls(), target[second.id])
    await guess(second, "0986", slash=True)
    reveal = await standin.wait_for(
        lambda c: c.in_channel(CHANNEL_ID) and has_button("rematch")(c), after=mark)
    assert ALICE_SECRET in reveal.content and BOB_SECRET in reveal.content
    assert "🟩" in reveal.content
    assert (await duel_state(app, game)).winner == str(starter.id)

    # rematch by button: a new challenge with fresh accept/decline buttons
    r_mid, _ = standin.message_with_button(lambda c: c == f"g:{game}:rematch")
    mark = len(standin.calls)
    await standin.press(CHANNEL_ID, second, r_mid, f"g:{game}:rematch")
    again = await standin.wait_for(lambda c: has_button("accept")(c), after=mark)
    assert game_id_of(again, "accept") != game

    # /stats shows the result
    mark = len(standin.calls)
    await standin.slash(CHANNEL_ID, alice, "stats")
    stats = await standin.wait_for(lambda c: c.in_channel(CHANNEL_ID) and "Alice" in c.content,
                                   after=mark)
    assert "duel" in stats.content

    # guess lines do not ping anyone
    line = await standin.wait_for(lambda c: c.content.startswith(f"{second.mention} #")
                                  or c.content.startswith(f"{second.name} #"))
    assert line.message["allowed_mentions"]["parse"] == []

    # every interaction was answered within Discord's 3 seconds
    assert_all_answered(standin)
    # the logs never hold a secret
    assert BOB_SECRET not in caplog.text and ALICE_SECRET not in caplog.text

    # nothing ever sent to the channel held a secret before the reveal
    before_reveal = standin.channel_calls()[: standin.channel_calls().index(reveal)]
    for call in before_reveal:
        if target[starter.id] in call.content:
            assert call.content.count(target[starter.id]) == 1  # the cracking guess itself
    secret_free(before_reveal, target[second.id])


async def test_practice_game(
    standin: StandIn, make_adapter: MakeAdapter, open_app: OpenApp
) -> None:
    from core import serial

    alice = standin.add_user("Alice")
    app = await open_app()
    await make_adapter(app.handle, app.command_menu())
    mark = len(standin.calls)
    await standin.slash(CHANNEL_ID, alice, "practice", {"length": 3})
    await standin.wait_for(lambda c: c.in_channel(CHANNEL_ID) and c.status == 200, after=mark)
    rows = await app.store.seated_games("discord", str(alice.id))
    assert len(rows) == 1
    secret = serial.load(practice.State, rows[0].state).secret
    assert len(secret) == 3
    wrong = next(code for code in ("012", "345", "678", "901") if code != secret)
    mark = len(standin.calls)
    await standin.say(CHANNEL_ID, alice, wrong)
    await standin.wait_for(lambda c: c.in_channel(CHANNEL_ID) and wrong in c.content, after=mark)
    mark = len(standin.calls)
    await standin.slash(CHANNEL_ID, alice, "guess", {"code": secret})
    won = await standin.wait_for(
        lambda c: c.in_channel(CHANNEL_ID) and has_button("again")(c), after=mark)
    assert secret in won.content
    mark = len(standin.calls)
    await standin.slash(CHANNEL_ID, alice, "stats")
    stats = await standin.wait_for(lambda c: c.in_channel(CHANNEL_ID) and "practice" in c.content,
                                   after=mark)
    assert "3 digits, all digits different: 2" in stats.content  # best: 3 digits in 2 attempts
    mark = len(standin.calls)
    await standin.slash(CHANNEL_ID, alice, "lang", {"code": "en"})  # a choice, sent as the code
    await standin.wait_for(lambda c: c.in_channel(CHANNEL_ID) and c.status == 200, after=mark)
    assert_all_answered(standin)


async def test_restart_mid_duel(
    standin: StandIn, make_adapter: MakeAdapter, open_app: OpenApp
) -> None:
    alice = standin.add_user("Alice")
    bob = standin.add_user("Bob", dms_closed=True)
    app = await open_app()
    first = await make_adapter(app.handle, app.command_menu())
    mid, game = await challenge(standin, alice, bob)

    # the bot restarts: a new client and a new App on the same SQLite file
    await first.stop()
    await app.close()
    app2 = await open_app()
    await make_adapter(app2.handle, app2.command_menu())

    mark = len(standin.calls)
    token = await standin.press(CHANNEL_ID, bob, mid, f"g:{game}:accept")  # the old button
    assert (await standin.answered(token))["responded"] == 6
    await standin.wait_for(lambda c: has_button("secret")(c) and c.in_channel(CHANNEL_ID),
                           after=mark)
    await standin.say(None, alice, "random")
    fb_mid, cid = standin.message_with_button(lambda c: c == f"~g:{game}:secret")
    token = await standin.press(CHANNEL_ID, bob, fb_mid, cid)
    modal = (await standin.answered(token))["modal"]
    await standin.submit_modal(CHANNEL_ID, bob, modal, BOB_SECRET, message_id=fb_mid)
    await standin.wait_for(lambda c: BOB_SECRET in c.content and c.ephemeral)
    state = await duel_state(app2, game)
    assert state.turn in (str(alice.id), str(bob.id)) and len(state.secrets) == 2
    await standin.settle()
    secret_free(standin.channel_calls(), BOB_SECRET, state.secrets[str(alice.id)])

    # /board mid-duel shows the game, never a secret
    mark = len(standin.calls)
    await standin.slash(CHANNEL_ID, alice, "board")
    board = await standin.wait_for(lambda c: c.in_channel(CHANNEL_ID) and f"#{game}" in c.content,
                                   after=mark)
    secret_free([board], BOB_SECRET, state.secrets[str(alice.id)])

    # a press that is no longer valid gets an ephemeral explanation
    mark = len(standin.calls)
    token = await standin.press(CHANNEL_ID, bob, mid, f"g:{game}:accept")
    refused = await standin.wait_for(lambda c: c.interaction_token == token and c.method == "POST"
                                     and "/webhooks/" in c.path, after=mark)
    assert refused.ephemeral and refused.content
    assert_all_answered(standin)


async def test_a_component_or_modal_from_another_channel_changes_nothing(
    standin: StandIn, make_adapter: MakeAdapter, open_app: OpenApp,
) -> None:
    """Custom ids name a game by number: the App takes a press only from the game's own channel
    (privately only the player's own awaited secret), whatever channel the id is replayed in."""
    alice = standin.add_user("Alice")
    bob = standin.add_user("Bob", dms_closed=True)
    app = await open_app()
    await make_adapter(app.handle, app.command_menu())
    mid, game = await challenge(standin, alice, bob)

    for channel in (OTHER_CHANNEL_ID, None):  # another channel of the guild, Bob's DM
        mark = len(standin.calls)
        token = await standin.press(channel, bob, mid, f"g:{game}:accept")
        await standin.answered(token)
        refusal = await standin.wait_for(lambda c: "another chat" in c.content, after=mark)
        assert refusal.ephemeral or refusal.channel_id == standin.dm_channels.get(bob.id)
        assert (await duel_state(app, game)).phase.value == "challenge"

    await standin.press(CHANNEL_ID, bob, mid, f"g:{game}:accept")  # in the game's channel: accepted
    await standin.wait_for(lambda c: c.in_channel(CHANNEL_ID) and has_button("secret")(c))
    assert (await duel_state(app, game)).phase.value == "secrets"

    # Bob's secret modal, submitted from another channel: refused, his secret is not set
    fb_mid, cid = standin.message_with_button(lambda c: c == f"~g:{game}:secret")
    token = await standin.press(CHANNEL_ID, bob, fb_mid, cid)
    modal = (await standin.answered(token))["modal"]
    mark = len(standin.calls)
    await standin.submit_modal(OTHER_CHANNEL_ID, bob, modal, BOB_SECRET, message_id=fb_mid)
    await standin.wait_for(lambda c: "another chat" in c.content, after=mark)
    assert str(bob.id) not in (await duel_state(app, game)).secrets
    # the same modal in the game's channel sets it
    mark = len(standin.calls)
    await standin.submit_modal(CHANNEL_ID, bob, modal, BOB_SECRET, message_id=fb_mid)
    await standin.wait_for(lambda c: BOB_SECRET in c.content, after=mark)
    assert (await duel_state(app, game)).secrets[str(bob.id)] == BOB_SECRET
    assert_all_answered(standin)


MANAGE_GUILD = 1 << 5


async def test_a_server_manager_may_enter_a_kegeln_throw_a_member_may_not(
    standin: StandIn, make_adapter: MakeAdapter, open_app: OpenApp,
) -> None:
    """`Actor.is_admin` from the interaction's member permissions (Manage Server or Administrator)."""
    alice = standin.add_user("Alice")
    bob = standin.add_user("Bob")
    dave = standin.add_user("Dave", permissions=str(int(User.permissions) | MANAGE_GUILD))
    app = await open_app()
    await make_adapter(app.handle, app.command_menu())
    await standin.slash(CHANNEL_ID, alice, "kegeln", {"mode": "high", "places": 2, "names": "Anna Ben"})
    await standin.wait_for(lambda c: "Hausnummern #" in c.content)
    (row,) = await app.store.seated_games("discord", str(alice.id), str(CHANNEL_ID))

    mark = len(standin.calls)
    await standin.slash(CHANNEL_ID, bob, "wurf", {"pins": "5", "position": "T"})
    await standin.wait_for(lambda c: "Only the scorer Alice" in c.content, after=mark)
    assert (after := await app.store.get_game(row.id)) is not None and after.state["throws"] == []

    mark = len(standin.calls)
    await standin.slash(CHANNEL_ID, dave, "wurf", {"pins": "5", "position": "T"})
    await standin.wait_for(lambda c: "Anna: 5 pins → tens." in c.content, after=mark)
    assert (after := await app.store.get_game(row.id)) is not None and len(after.state["throws"]) == 1


async def test_every_slash_option_has_its_own_description(
    standin: StandIn, make_adapter: MakeAdapter, open_app: OpenApp,
) -> None:
    """An option name two commands share (/guess code, /lang code) is described for each command:
    /lang's language is not "the code or row to guess", in no language."""
    app = await open_app()
    adapter = await make_adapter(app.handle, app.command_menu(), start=False)
    await adapter.sync_commands()
    synced = {c["name"]: c for c in standin.commands["global"]}

    def described(command: str, option: str) -> dict[str, str]:
        (opt,) = [o for o in synced[command]["options"] if o["name"] == option]
        return {"": opt["description"], **opt.get("description_localizations", {})}

    guess, lang = described("guess", "code"), described("lang", "code")
    assert set(lang) == set(guess) and len(lang) >= 5  # English and every other language
    for locale, text in lang.items():
        assert text != guess[locale], (locale, text)
    assert "language" in lang[""]
    # every command's options: described, and no two commands' different options share a text
    for name, command in synced.items():
        for opt in command.get("options", []):
            assert opt["description"] and opt["description"] != opt["name"], (name, opt["name"])


async def test_localised_command_names_are_synced_and_typed(
    standin: StandIn, make_adapter: MakeAdapter, open_app: OpenApp,
) -> None:
    """A command's localised names (bot/app/turn.py `Command.aliases`) are its name_localizations
    (Cyrillic where the language writes it; the stand-in refuses names Discord refuses), and typed
    in a channel every alias runs the command, as does the slash command by its canonical name."""
    alice = standin.add_user("Alice")
    app = await open_app()
    adapter = await make_adapter(app.handle, app.command_menu())
    await adapter.sync_commands()
    assert standin.invalid == []
    synced = {c["name"]: c for c in standin.commands["global"]}
    review = synced["jahresrueckblick"]
    assert review["name_localizations"] == {
        "en-US": "yearreview", "en-GB": "yearreview", "sv-SE": "arsrevy", "ru": "итоги_года",
        "bg": "годишен_преглед"}
    for typed in ("/итоги_года", "!arsrevy 2025", "/godishen_pregled"):
        mark = len(standin.calls)
        await standin.say(CHANNEL_ID, alice, typed)
        await standin.wait_for(lambda c: c.in_channel(CHANNEL_ID) and "No Kegeln game finished in season"
                               in c.content, after=mark)
    mark = len(standin.calls)
    await standin.slash(CHANNEL_ID, alice, "jahresrueckblick", {"season": "2025"})
    await standin.wait_for(lambda c: "season 2025" in c.content, after=mark)
