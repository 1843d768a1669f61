"""The adapter driven by the third-party test library dpytest (discord.ext.test): a fake discord.py
backend in process, no HTTP, no gateway. dpytest drives a plain client (no shards), so the adapter
is built with `sharded=False`. Message flows only: a guess typed in a channel, a secret sent by DM."""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path

import discord
import pytest

from adapters.discord import DiscordAdapter
from bot.app.app import App

dpytest = pytest.importorskip("discord.ext.test")


@pytest.fixture
async def bot(tmp_path: Path) -> AsyncIterator[tuple[DiscordAdapter, App]]:
    app = await App.open(db_path=str(tmp_path / "dpy.sqlite"), seed=1234)
    # unpaced: dpytest has no rate limits and reads what was sent as soon as a handler returns
    adapter = DiscordAdapter("dpytest-token", app.handle, app.command_menu(), sharded=False, paced=False)
    client = adapter.client
    # dpytest keeps its fake members in discord.py's member cache, which needs the members intent
    # (the adapter does without it: it never asks for the member list)
    client._connection._intents.members = True
    client._connection.member_cache_flags = discord.MemberCacheFlags.from_intents(client._connection._intents)
    await client._async_setup_hook()
    dpytest.configure(client, members=["Alice", "Bob"])
    try:
        yield adapter, app
    finally:
        await dpytest.empty_queue()
        await app.close()


async def test_a_guess_typed_in_a_channel(bot: tuple[DiscordAdapter, App]) -> None:
    config = dpytest.get_config()
    alice = config.members[0]
    await dpytest.message("/practice 4", member=alice)
    await dpytest.message("0123", member=alice)
    texts = []
    while not dpytest.sent_queue.empty():
        texts.append((await dpytest.sent_queue.get()).content)
    assert any("0123" in t for t in texts), texts


async def _sent() -> list[discord.Message]:
    out = []
    while not dpytest.sent_queue.empty():
        out.append(await dpytest.sent_queue.get())
    return out


async def test_a_secret_sent_by_dm(bot: tuple[DiscordAdapter, App]) -> None:
    config = dpytest.get_config()
    alice, bob = config.members[0], config.members[1]
    channel = config.channels[0]
    await dpytest.message(f"!duel <@{bob.id}>", member=alice)
    await dpytest.message("!accept", member=bob)
    asked = await _sent()
    dms = {m.channel.id for m in asked if isinstance(m.channel, discord.DMChannel)}
    dm = await alice.create_dm()
    assert dms == {dm.id, (await bob.create_dm()).id}  # both asked for their secret privately
    await dpytest.message("1234", channel=dm, member=alice)
    answered = await _sent()
    assert answered and all(m.channel.id == dm.id for m in answered if "1234" in m.content)
    assert any("1234" in m.content for m in answered)  # confirmed in the DM
    assert not [m for m in answered if m.channel.id == channel.id and "1234" in m.content]


async def test_the_daily_typed_in_a_channel_and_played_by_dm(bot: tuple[DiscordAdapter, App]) -> None:
    """`!daily` typed in a channel (no interaction, so nothing ephemeral): the start goes by DM, the
    guesses are typed there, the channel gets the spoiler-free result."""
    from tests.games.daily.test_daily import secret_of, wrong_codes

    _adapter, app = bot
    config = dpytest.get_config()
    alice, channel = config.members[0], config.channels[0]
    dm = await alice.create_dm()
    await dpytest.message("!daily", member=alice)
    started = await _sent()
    assert any(m.channel.id == dm.id and "Today's 1A2B daily" in m.content for m in started)
    assert any(m.channel.id == channel.id and "is playing today" in m.content for m in started)
    secret = await secret_of(app, str(channel.id))
    wrong = wrong_codes(secret)[0]
    await dpytest.message(wrong, channel=dm, member=alice)
    await dpytest.message(secret, channel=dm, member=alice)
    answered = await _sent()
    assert any(m.channel.id == dm.id and f"Solved in 2 attempts: {secret}" in m.content for m in answered)
    (result,) = [m for m in answered if m.channel.id == channel.id]
    assert "solved the 1A2B daily" in result.content and ": 2/10\n" in result.content  # dpytest's nick
    assert secret not in result.content and wrong not in result.content
