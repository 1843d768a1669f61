"""The adapter's plumbing against the stand-in, with a scripted fake `handle`.

Proves the mapping rules (update → Inbound, Response → Discord calls) with the
real discord.py client over loopback, before any game is involved.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from collections.abc import Callable

import discord
import pytest
from discord.http import Route

from adapters.discord import DiscordAdapter
from adapters.discord.inbound import lang_of, option_args, parse_typed_command
from adapters.discord.markdown import split_content
from core.messages import Actor, Chat, CommandInfo, Inbound, Outbound, OutButton, Response

from .conftest import MakeAdapter
from .model import APP_ID, BOT_TOKEN, CHANNEL_ID, GUILD_ID, MESSAGE_CONTENT
from .standin import StandIn

MENUS = {
    "en": [
        CommandInfo("duel", "Challenge someone to a duel", ("opponent", "length", "repeats"),
                    {"length": ("3", "4", "5")}),
        CommandInfo("guess", "Guess a code", ("code",)),
        CommandInfo("help", "How to play"),
        CommandInfo("lang", "Choose the language", ("code",)),
    ],
    "de": [
        CommandInfo("duel", "Jemanden zum Duell fordern", ("opponent", "length", "repeats")),
        CommandInfo("guess", "Einen Code raten", ("code",)),
        CommandInfo("help", "Spielanleitung"),
    ],
    "sv": [CommandInfo("duel", "Utmana någon på duell", ("opponent", "length", "repeats"))],
}


class FakeApp:
    """Records inbounds; answers with whatever `reply` says (default: nothing)."""

    def __init__(self) -> None:
        self.inbounds: list[Inbound] = []
        self.reply: Callable[[Inbound], Response] = lambda _inbound: Response()
        self._seen = asyncio.Event()

    async def handle(self, inbound: Inbound) -> Response:
        self.inbounds.append(inbound)
        self._seen.set()
        return self.reply(inbound)

    async def next(self, count: int = 1, timeout: float = 5.0) -> Inbound:
        deadline = time.monotonic() + timeout
        while len(self.inbounds) < count:
            self._seen.clear()
            left = deadline - time.monotonic()
            if left <= 0:
                raise AssertionError("no inbound arrived")
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self._seen.wait(), timeout=left)
        return self.inbounds[count - 1]


def group(chat_id: int = CHANNEL_ID) -> Chat:
    return Chat("discord", str(chat_id), private=False)


def player(user_id: int) -> Actor:
    return Actor("discord", str(user_id), "x")


# ------------------------------------------------------------------ pure helpers
def test_pure_helpers() -> None:
    assert lang_of("en-US") == "en" and lang_of("de") == "de" and lang_of("sv-SE") == "sv"
    assert lang_of(None) is None
    known = {"guess", "duel"}
    assert parse_typed_command("/guess 1234", known) == ("guess", ("1234",))
    assert parse_typed_command("!DUEL <@5> 5 repeats", known) == ("duel", ("<@5>", "5", "repeats"))
    assert parse_typed_command("!nonsense", known) is None
    assert parse_typed_command("1234", known) is None
    assert option_args(("opponent", "length", "repeats"), {"length": 5, "repeats": True}) == (
        "5", "repeats")
    assert option_args(("repeats",), {"repeats": False}) == ()
    long = "\n".join("x" * 50 for _ in range(100))
    chunks = split_content(long)
    assert all(len(c) <= 2000 for c in chunks) and "".join(chunks) == long


# ---------------------------------------------------------------- connection
async def test_connects_over_loopback_without_logging_the_token(
    standin: StandIn, make_adapter: MakeAdapter, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.DEBUG, logger="adapters")
    caplog.set_level(logging.INFO, logger="discord")
    app = FakeApp()
    adapter = await make_adapter(app.handle, MENUS)
    assert standin.identified and standin.identified[0]["token"] == BOT_TOKEN
    assert standin.identified[0]["shard"] == [0, 1]
    assert adapter.client.application_id == APP_ID
    assert adapter.client.get_guild(GUILD_ID) is not None
    assert standin.heartbeats >= 1
    assert standin.api_base == Route.BASE
    await adapter.stop()
    assert Route.BASE == "https://discord.com/api/v10"  # the process-wide base is restored
    assert not standin._sockets  # the gateway connection is closed
    await adapter.start()  # and the same adapter can start again
    assert len(standin.identified) == 2 and standin.api_base == Route.BASE
    assert BOT_TOKEN not in caplog.text


# ------------------------------------------------------------ slash commands
async def test_slash_command_becomes_inbound_and_is_answered(
    standin: StandIn, make_adapter: MakeAdapter
) -> None:
    app = FakeApp()
    alice = standin.add_user("Alice", locale="de")
    bob = standin.add_user("Bob")
    standin.guild_locale = "sv-SE"

    def reply(inbound: Inbound) -> Response:
        return Response(
            messages=(Outbound(inbound.chat, "duel posted",
                               buttons=((OutButton("Accept", "g:17:accept"),),)),),
            notice="challenge sent",
        )

    app.reply = reply
    await make_adapter(app.handle, MENUS)
    token = await standin.slash(CHANNEL_ID, alice, "duel",
                                {"opponent": bob, "length": 5, "repeats": True})
    inbound = await app.next()
    assert inbound.command == "duel"
    assert inbound.args == (bob.mention, "5", "repeats")
    assert inbound.actor == Actor("discord", str(alice.id), "Alice", "de")
    assert inbound.chat == Chat("discord", str(CHANNEL_ID), private=False, locale="sv")
    # the chat's title as the gateway's guild and channel objects name them: "guild #channel"
    assert inbound.chat.title == f"Game Club #game-{CHANNEL_ID % 10}"
    state = await standin.answered(token)
    assert state["responded"] == 4  # answered at once: no "thinking…" placeholder
    assert state["responded_at"] - state["created"] < 3
    notice = await standin.wait_for(lambda c: c.content == "challenge sent")
    assert notice.interaction_token == token and notice.ephemeral and notice.path.endswith("/callback")
    posted = await standin.wait_for(lambda c: c.content == "duel posted")
    # the public answer is a followup of the interaction, not a channel post
    assert posted.in_channel(CHANNEL_ID) and posted.interaction_token == token and posted.channel_id is None
    assert [b["custom_id"] for b in posted.buttons()] == ["g:17:accept"]


async def test_a_slash_answer_is_the_initial_response(
    standin: StandIn, make_adapter: MakeAdapter
) -> None:
    app = FakeApp()
    app.reply = lambda i: Response(messages=(Outbound(i.chat, "help text"),))
    alice = standin.add_user("Alice")
    await make_adapter(app.handle, MENUS)
    mark = len(standin.calls)
    token = await standin.slash(CHANNEL_ID, alice, "help")
    answer = await standin.wait_for(lambda c: c.content == "help text")
    await standin.settle()
    assert answer.interaction_token == token and answer.path.endswith("/callback") and not answer.ephemeral
    assert [c.path for c in standin.calls[mark:]] == [answer.path]  # one call: no defer, post, delete


async def test_a_slash_command_with_nothing_to_say_is_still_acknowledged(
    standin: StandIn, make_adapter: MakeAdapter
) -> None:
    app = FakeApp()
    app.reply = lambda i: Response()
    alice = standin.add_user("Alice")
    await make_adapter(app.handle, MENUS)
    token = await standin.slash(CHANNEL_ID, alice, "help")
    await standin.wait_for(lambda c: c.method == "DELETE" and c.interaction_token == token)
    assert standin.interactions[token]["responded"] == 5 and standin.interactions[token]["deleted_original"]


async def test_guess_text_option_and_dm_slash(standin: StandIn, make_adapter: MakeAdapter) -> None:
    app = FakeApp()
    alice = standin.add_user("Alice")
    await make_adapter(app.handle, MENUS)
    await standin.slash(CHANNEL_ID, alice, "guess", {"code": " 0123 "})
    inbound = await app.next()
    assert (inbound.command, inbound.args) == ("guess", ("0123",))
    await standin.slash(None, alice, "help")  # in the DM with the bot
    inbound = await app.next(2)
    assert inbound.chat.private and inbound.chat.locale is None
    assert inbound.chat.chat_id == str(standin.dm_channels[alice.id])


# ------------------------------------------------------------ channel messages
async def test_channel_messages(standin: StandIn, make_adapter: MakeAdapter) -> None:
    app = FakeApp()
    alice = standin.add_user("Alice")
    bob = standin.add_user("Bob")
    app.reply = lambda i: (
        Response(notice="use DM", delete_inbound=True) if i.text == "9876" else Response()
    )
    await make_adapter(app.handle, MENUS)
    standin.grant(CHANNEL_ID, "manage_messages")  # so it may delete the secret below

    msg = await standin.say(CHANNEL_ID, alice, "1234")
    inbound = await app.next()
    assert inbound.text == "1234" and inbound.command is None
    assert inbound.event_id == msg["id"] and inbound.actor.user_id == str(alice.id)

    await standin.say(CHANNEL_ID, alice, f"!duel {bob.mention} 5")
    inbound = await app.next(2)
    assert (inbound.command, inbound.args) == ("duel", (bob.mention, "5"))

    await standin.say(CHANNEL_ID, standin.bot, "I am a bot")  # ignored
    secret = await standin.say(CHANNEL_ID, alice, "9876")
    inbound = await app.next(3)
    assert inbound.text == "9876"
    await standin.wait_for(
        lambda c: c.method == "DELETE" and c.path.endswith(f"/messages/{secret['id']}"))
    dm = await standin.wait_for(lambda c: c.content == "use DM")
    assert dm.channel_id == standin.dm_channels[alice.id]

    await standin.say(None, alice, "4567")  # a DM to the bot
    inbound = await app.next(4)
    assert inbound.chat.private and inbound.text == "4567"


async def test_delete_without_permission_is_survived(
    standin: StandIn, make_adapter: MakeAdapter
) -> None:
    app = FakeApp()
    alice = standin.add_user("Alice", dms_closed=True)
    standin.no_manage_messages = True
    app.reply = lambda i: Response(notice="use the button", delete_inbound=True)
    await make_adapter(app.handle, MENUS)
    await standin.say(CHANNEL_ID, alice, "1234")
    await standin.wait_for(lambda c: c.method == "DELETE" and c.status == 403)
    # DMs closed too: the notice becomes a reply in the channel
    reply = await standin.wait_for(lambda c: "use the button" in c.content and c.status == 200)
    assert reply.channel_id == CHANNEL_ID


# ------------------------------------------------------------------- buttons
async def test_button_press_is_answered_and_becomes_action(
    standin: StandIn, make_adapter: MakeAdapter
) -> None:
    app = FakeApp()
    alice = standin.add_user("Alice")
    app.reply = lambda i: (
        Response(messages=(Outbound(i.chat, "pick", buttons=(
            (OutButton("Yes", "g:1:yes"), OutButton("No", "g:1:no")),
            (OutButton("Rules", "x", url="https://example.org/rules"),),
        )),))
        if i.command else Response(notice="not your game")
    )
    await make_adapter(app.handle, MENUS)
    await standin.slash(CHANNEL_ID, alice, "help")
    posted = await standin.wait_for(lambda c: c.content == "pick")
    assert posted.in_channel(CHANNEL_ID)
    assert [b.get("url") for b in posted.buttons()][-1] == "https://example.org/rules"
    mid, _ = standin.message_with_button(lambda cid: cid == "g:1:no")
    token = await standin.press(CHANNEL_ID, alice, mid, "g:1:no")
    inbound = await app.next(2)
    assert inbound.action == "g:1:no" and inbound.text is None
    state = await standin.answered(token)
    assert state["responded"] == 6  # deferred update, no visible placeholder
    notice = await standin.wait_for(lambda c: c.content == "not your game")
    assert notice.ephemeral and notice.interaction_token == token


async def test_image_and_edit_key(standin: StandIn, make_adapter: MakeAdapter) -> None:
    app = FakeApp()
    alice = standin.add_user("Alice")
    png = b"\x89PNG\r\n\x1a\nfake"
    app.reply = lambda i: Response(messages=(
        Outbound(i.chat, f"board {i.args}", image=png, edit_key="board:1"),))
    await make_adapter(app.handle, MENUS)
    await standin.say(CHANNEL_ID, alice, "!help 1")
    first = await standin.wait_for(lambda c: c.content == "board ('1',)")
    assert first.method == "POST" and first.files == [("board.png", png)]
    await standin.say(CHANNEL_ID, alice, "!help 2")
    second = await standin.wait_for(lambda c: c.content == "board ('2',)")
    assert second.method == "PATCH" and second.files == [("board.png", png)]


# ------------------------------------------------ DMs, fallbacks and the modal
async def test_closed_dms_fall_back_to_a_prompt_button_and_modal(
    standin: StandIn, make_adapter: MakeAdapter
) -> None:
    app = FakeApp()
    alice = standin.add_user("Alice")
    bob = standin.add_user("Bob", dms_closed=True)

    def reply(inbound: Inbound) -> Response:
        if inbound.command == "duel":
            return Response(messages=tuple(
                Outbound(player(u.id), "send me your secret",
                         fallback=Outbound(inbound.chat, f"<@{u.id}> set your secret here",
                                           buttons=((OutButton("Set secret", "g:5:secret",
                                                               prompt="Your secret code"),),)))
                for u in (alice, bob)))
        if inbound.action == "g:5:secret" and inbound.text:
            return Response(messages=(Outbound(inbound.actor, f"secret {inbound.text} saved"),
                                      Outbound(inbound.chat, "Bob is ready")))
        return Response()

    app.reply = reply
    await make_adapter(app.handle, MENUS)
    await standin.slash(CHANNEL_ID, alice, "duel", {"opponent": bob})
    await app.next()
    # Alice's DM arrives; Bob's fails with 50007 and the group gets the fallback
    await standin.wait_for(lambda c: c.content == "send me your secret" and c.status == 200)
    await standin.wait_for(lambda c: c.status == 403)
    fallback = await standin.wait_for(lambda c: "set your secret here" in c.content)
    assert fallback.in_channel(CHANNEL_ID)
    assert [b["custom_id"] for b in fallback.buttons()] == ["~g:5:secret"]

    mid, cid = standin.message_with_button(lambda c: c == "~g:5:secret")
    token = await standin.press(CHANNEL_ID, bob, mid, cid)
    state = await standin.answered(token)
    assert state["responded"] == 9  # the modal is the answer
    modal = state["modal"]
    assert modal["title"] == "Your secret code" and modal["custom_id"] == "~g:5:secret"

    before = len(standin.calls)
    token = await standin.submit_modal(CHANNEL_ID, bob, modal, " 4711 ", message_id=mid)
    inbound = await app.next(2)
    assert (inbound.action, inbound.text) == ("g:5:secret", "4711")
    assert inbound.actor.user_id == str(bob.id)
    saved = await standin.wait_for(lambda c: c.content == "secret 4711 saved", after=before)
    assert saved.ephemeral and saved.interaction_token == token
    await standin.wait_for(lambda c: c.content == "Bob is ready", after=before)
    await standin.settle()
    assert not any("4711" in c.text() for c in standin.channel_calls())


async def test_private_reply_to_interacting_user_with_closed_dms_is_ephemeral(
    standin: StandIn, make_adapter: MakeAdapter
) -> None:
    app = FakeApp()
    bob = standin.add_user("Bob", dms_closed=True)
    app.reply = lambda i: Response(messages=(Outbound(i.actor, "your secret is 0246"),))
    await make_adapter(app.handle, MENUS)
    token = await standin.slash(CHANNEL_ID, bob, "help")
    refused = await standin.wait_for(lambda c: c.content == "your secret is 0246")
    assert refused.status == 403 and refused.channel_id == standin.dm_channels[bob.id]
    sent = await standin.wait_for(
        lambda c: c.content == "your secret is 0246" and c.interaction_token is not None)
    assert sent.ephemeral and sent.interaction_token == token
    await standin.settle()
    assert not any("0246" in c.text() for c in standin.channel_calls())


# ---------------------------------------------------------------- restarts
async def test_old_buttons_work_after_a_restart(
    standin: StandIn, make_adapter: MakeAdapter
) -> None:
    app = FakeApp()
    alice = standin.add_user("Alice")
    app.reply = lambda i: Response(messages=(Outbound(i.chat, "rematch?", buttons=(
        (OutButton("Rematch", "g:42:rematch"), OutButton("Secret", "g:42:s", prompt="Code")),)),))
    first = await make_adapter(app.handle, MENUS)
    await standin.say(CHANNEL_ID, alice, "!help")
    await standin.wait_for(lambda c: c.content == "rematch?")
    await first.stop()

    app2 = FakeApp()
    await make_adapter(app2.handle, MENUS)
    mid, cid = standin.message_with_button(lambda c: c == "g:42:rematch")
    token = await standin.press(CHANNEL_ID, alice, mid, cid)
    inbound = await app2.next()
    assert inbound.action == "g:42:rematch"
    assert (await standin.answered(token))["responded"] == 6
    token = await standin.press(CHANNEL_ID, alice, mid, "~g:42:s")
    state = await standin.answered(token)
    assert state["responded"] == 9 and state["modal"]["title"] == "Secret"  # label after restart


# ------------------------------------------------------------ failures
async def test_api_failures_are_survived(standin: StandIn, make_adapter: MakeAdapter) -> None:
    app = FakeApp()
    alice = standin.add_user("Alice")
    app.reply = lambda i: Response(messages=(
        Outbound(Chat("discord", "12345", private=False), "to nowhere"),
        Outbound(Actor("discord", "999", "ghost"), "to nobody"),
        Outbound(i.chat, "still here"),
    ))
    await make_adapter(app.handle, MENUS)
    await standin.say(CHANNEL_ID, alice, "hello")
    await standin.wait_for(lambda c: c.content == "still here")

    def boom(_inbound: Inbound) -> Response:
        raise RuntimeError("bug")

    app.reply = boom
    token = await standin.slash(CHANNEL_ID, alice, "help")
    await standin.wait_for(lambda c: c.method == "DELETE" and c.interaction_token == token)


# -------------------------------------------------------------- command sync
async def test_sync_commands_puts_localised_commands(
    standin: StandIn, make_adapter: MakeAdapter
) -> None:
    app = FakeApp()
    adapter = await make_adapter(app.handle, MENUS, start=False)
    await adapter.sync_commands()  # works without a gateway connection
    assert not standin.identified
    commands = {c["name"]: c for c in standin.commands["global"]}
    assert set(commands) == {"duel", "guess", "help", "lang"}
    duel = commands["duel"]
    assert duel["description"] == "Challenge someone to a duel"
    assert duel["description_localizations"]["de"] == "Jemanden zum Duell fordern"
    assert duel["description_localizations"]["sv-SE"] == "Utmana någon på duell"
    options = {o["name"]: o for o in duel["options"]}
    assert options["opponent"]["type"] == 6
    assert [c["value"] for c in options["length"]["choices"]] == ["3", "4", "5"]  # as the App offers them
    assert options["repeats"]["type"] == 5
    assert {o["name"]: o["type"] for o in commands["guess"]["options"]} == {"code": 3}
    lang_choices = commands["lang"]["options"][0]["choices"]
    assert [c["value"] for c in lang_choices] == ["de", "en", "sv"]

    await adapter.sync_commands(guild_id=GUILD_ID)
    assert {c["name"] for c in standin.commands[str(GUILD_ID)]} == set(commands)
    puts = [c for c in standin.calls if c.method == "PUT"]
    assert len(puts) == 2


# ------------------------------------------------------- intents and shards
async def test_without_message_content_intent_slash_commands_still_work(
    standin: StandIn, make_adapter: MakeAdapter
) -> None:
    app = FakeApp()
    alice = standin.add_user("Alice")
    await make_adapter(app.handle, MENUS, message_content=False)
    assert not standin.identified[-1]["intents"] & MESSAGE_CONTENT
    await standin.say(CHANNEL_ID, alice, "1234")  # arrives empty: ignored
    await standin.slash(CHANNEL_ID, alice, "guess", {"code": "1234"})
    inbound = await app.next()
    assert (inbound.command, inbound.args) == ("guess", ("1234",))
    await standin.say(None, alice, "5678")  # DMs keep their content
    inbound = await app.next(2)
    assert inbound.text == "5678" and inbound.chat.private
    await standin.say(CHANNEL_ID, alice, f"{standin.bot.mention} 4321")  # so do mentions
    inbound = await app.next(3)
    assert inbound.text == "4321" and not inbound.chat.private
    assert len(app.inbounds) == 3


async def test_explicit_shards_use_the_stand_in_gateway(
    standin: StandIn, make_adapter: MakeAdapter
) -> None:
    app = FakeApp()
    alice = standin.add_user("Alice")
    await make_adapter(app.handle, MENUS, shard_ids=[0], shard_count=1)
    assert standin.identified[-1]["shard"] == [0, 1]
    assert standin.identified[-1]["intents"] & MESSAGE_CONTENT
    await standin.say(CHANNEL_ID, alice, "hello")
    assert (await app.next()).text == "hello"


async def test_a_wrong_token_fails_cleanly(
    standin: StandIn, make_adapter: MakeAdapter, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.DEBUG, logger="adapters")
    caplog.set_level(logging.INFO, logger="discord")
    app = FakeApp()
    adapter = DiscordAdapter("not-the-token", app.handle, MENUS, api_base=standin.api_base)
    with pytest.raises(discord.LoginFailure):
        await adapter.start()
    assert Route.BASE == "https://discord.com/api/v10"
    assert not standin.identified
    assert "not-the-token" not in caplog.text


async def test_interactions_are_acknowledged_before_the_app_answers(
    standin: StandIn, make_adapter: MakeAdapter
) -> None:
    """A slow App must not cost the 3 s window: a "thinking…" defer comes in time."""
    release = asyncio.Event()
    seen: list[Inbound] = []

    async def slow(inbound: Inbound) -> Response:
        seen.append(inbound)
        await release.wait()
        return Response(notice="done")

    alice = standin.add_user("Alice")
    await make_adapter(slow, MENUS)
    token = await standin.slash(CHANNEL_ID, alice, "help")
    for _ in range(500):  # the App is now busy with it...
        if seen:
            break
        await asyncio.sleep(0.01)
    state = await standin.answered(token)  # ...and the defer goes out in time
    assert state["responded"] == 5 and state["responded_at"] - state["created"] < 3
    release.set()
    await standin.wait_for(lambda c: c.content == "done" and c.interaction_token == token)
