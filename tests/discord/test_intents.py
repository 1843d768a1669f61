"""The Message Content intent, through the real discord.py client and the stand-in: refused by the
portal (gateway close 4014), the adapter runs without it instead of not at all; without it, a guess
that mentions the bot anywhere (`1234 @Bot`) is read."""

from __future__ import annotations

import logging

import pytest

from adapters.discord.adapter import NO_MESSAGE_CONTENT
from adapters.discord.inbound import strip_bot_mention
from bot.app.app import App

from .conftest import MakeAdapter
from .model import APP_ID, CHANNEL_ID, GUILD_MEMBERS, MESSAGE_CONTENT
from .standin import StandIn
from .test_e2e_games import act, in_channel, said


class _Bot:
    id = APP_ID


@pytest.mark.parametrize(("typed", "read"), [
    (f"<@{APP_ID}> 1234", "1234"),
    (f"1234 <@{APP_ID}>", "1234"),
    (f"1234 <@!{APP_ID}>", "1234"),
    (f"  12 <@{APP_ID}> 34 ", "12 34"),
    (f"!duel <@{APP_ID}>", f"!duel <@{APP_ID}>"),  # a typed command's argument: play the computer
    ("1234 <@1>", "1234 <@1>"),  # someone else's mention stays
    ("1234", "1234"),
])
def test_the_bots_mention_is_taken_out_wherever_it_stands(typed: str, read: str) -> None:
    assert strip_bot_mention(typed, _Bot()) == read


async def test_a_refused_message_content_intent_falls_back_to_running_without_it(
    standin: StandIn, make_adapter: MakeAdapter, app: App, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.WARNING)
    standin.refuse_intents(MESSAGE_CONTENT)  # not enabled in the Developer Portal
    adapter = await make_adapter(app.handle, app.command_menu())  # message_content=True: asked for
    assert standin.identifies_refused == 1  # the first IDENTIFY got 4014
    assert not standin.identified[-1]["intents"] & MESSAGE_CONTENT  # the second did without it
    assert adapter.connected and adapter.note == NO_MESSAGE_CONTENT and adapter.failure is None
    lines = [r for r in caplog.records if "4014" in r.getMessage()]
    assert len(lines) == 1 and "Message Content" in lines[0].getMessage()  # one clear line
    # it plays: slash commands work, and a guess that mentions the bot
    alice = standin.add_user("Alice")
    await act(standin, standin.slash(CHANNEL_ID, alice, "practice", {"length": "4"}))
    calls = await act(standin, standin.say(CHANNEL_ID, alice, f"0123 {standin.bot.mention}"))
    assert any("0123" in c.content for c in in_channel(standin, calls) if said(c)), [c.content for c in calls]


async def test_a_plain_guess_without_the_intent_is_not_read_but_one_mentioning_the_bot_is(
    standin: StandIn, make_adapter: MakeAdapter, app: App
) -> None:
    alice = standin.add_user("Alice")
    await make_adapter(app.handle, app.command_menu(), message_content=False)
    await act(standin, standin.slash(CHANNEL_ID, alice, "practice", {"length": "4"}))
    mark = len(standin.calls)
    await standin.say(CHANNEL_ID, alice, "0123")  # arrives empty: not read
    await standin.settle(0.3)
    assert not [c for c in standin.calls[mark:] if "0123" in c.content]
    calls = await act(standin, standin.say(CHANNEL_ID, alice, f"0123 {standin.bot.mention}"))
    assert any("0123" in c.content for c in in_channel(standin, calls) if said(c)), [c.content for c in calls]


async def test_another_refused_intent_is_not_hidden(standin: StandIn, make_adapter: MakeAdapter, app: App) -> None:
    """Only the message content intent has a fallback; the adapter never asks for members, and a
    refusal it cannot work around is raised (bot/process/platforms.py stops that platform only)."""
    import discord

    standin.refuse_intents(MESSAGE_CONTENT, GUILD_MEMBERS)
    adapter = await make_adapter(app.handle, app.command_menu(), start=False)
    adapter.client._connection._intents.members = True  # as a bot that asked for members would
    with pytest.raises(discord.PrivilegedIntentsRequired):
        await adapter._start()
    assert not adapter.transient(discord.PrivilegedIntentsRequired(0))
