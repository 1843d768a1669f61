"""The real Discord adapter and the real App driven by SimCord (PyPI `simcord`: an in-process
Discord simulator for discord.py with server-side permissions, threads and forum posts, the
interaction lifecycle and 4014 on disallowed intents) — a second, independent model of Discord
besides the project's own stand-in (tests/discord/standin.py) and dpytest (issue 22, items 8–10):
a duel in a thread, a Kegeln game in a forum post, a thread where the bot may not post, and the
Message Content intent refused by the (simulated) Developer Portal."""

from __future__ import annotations

from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any

import discord
import pytest

from adapters.discord import DiscordAdapter
from adapters.discord.adapter import NO_MESSAGE_CONTENT
from bot.app.app import App
from core import serial
from core.games.duel import rules as duel

simcord = pytest.importorskip("simcord")

TOKEN = "simulated-discord-bot-token"  # never logged (tests/leakscan.py checks every record)


@asynccontextmanager
async def simulated(app: App, **options: Any) -> AsyncIterator[tuple[DiscordAdapter, Any]]:
    """The adapter's client attached to SimCord (through the adapter's own intent fallback), its
    slash commands synced; detached and stopped at the end."""
    adapter = DiscordAdapter(TOKEN, app.handle, app.command_menu(), paced=False)
    runs: list[Any] = []

    async def attach() -> Any:
        run = simcord.run(adapter.client, shard_count=1, **options)
        env = await run.__aenter__()  # fake login, IDENTIFY (PrivilegedIntentsRequired on 4014), READY
        runs.append(run)
        return env

    env = await adapter.connect_with_fallback(attach)
    try:
        yield adapter, env
    finally:
        try:
            await runs[-1].__aexit__(None, None, None)
        finally:
            await adapter.stop()


async def synced(adapter: DiscordAdapter) -> None:
    await adapter.sync_commands()  # SimCord refuses a command that was never synced (strict_sync)


@pytest.fixture
async def app(tmp_path: Path) -> AsyncIterator[App]:
    app = await App.open(db_path=str(tmp_path / "simcord.sqlite"), seed=1234)
    try:
        yield app
    finally:
        await app.close()


def thread_in(env: Any, parent: Any, name: str, owner: Any) -> Any:
    """A thread (in a forum: a post) a member opened, as SimCord's backend models it."""
    forum = env.backend.get_channel(parent.id).type == discord.ChannelType.forum.value
    thread = env.backend.create_thread(parent.id, name, owner.id, broadcast=not forum)
    if forum:
        env.backend.announce_thread_create(thread)  # a post comes with THREAD_CREATE
    return simcord.ChannelHandle(env, env.guild, thread)


def contents(channel: Any) -> list[str]:
    return [m.content for m in channel.history()]


def by_bot(channel: Any, env: Any) -> list[discord.Message]:
    return [m for m in channel.history() if m.author.id == env.bot.user.id]


async def press(user: Any, channel: Any, env: Any, ending: str) -> Any:
    """`user` presses the bot's newest button in `channel` whose custom id ends with `ending`."""
    for message in reversed(by_bot(channel, env)):
        for row in message.components:
            for item in getattr(row, "children", []):
                cid = getattr(item, "custom_id", None) or ""
                if cid.endswith(ending):
                    return await user.click(message, custom_id=cid)
    raise AssertionError(f"no button …{ending} in {contents(channel)}")


async def duel_in(app: App, env: Any, thread: Any, alice: Any, bob: Any) -> int:
    """Alice challenges Bob in `thread`, he accepts, both send their secrets by DM: the game's id."""
    shown = await alice.slash(thread, "duel", opponent=bob, length="4")
    assert shown.response is not None and "accept" in str(shown.response.components)
    await press(bob, thread, env, ":accept")
    await alice.send_dm("1234")
    await bob.send_dm("5678")
    await env.settle()
    (row,) = await app.store.seated_games("discord", str(alice.id), str(thread.id))
    return int(row.id)


async def duel_in_a_thread(app: App, adapter: DiscordAdapter, env: Any) -> tuple[Any, Any, Any, Any, int]:
    """A duel of Alice and Bob under way in a thread of #general: the channel, the thread, the players, the game."""
    guild = env.create_guild("Game Club")
    general = guild.create_text_channel("general")
    alice, bob = guild.add_member(env.create_user("alice")), guild.add_member(env.create_user("bob"))
    await synced(adapter)
    thread = thread_in(env, general, "duel night", alice)
    await env.settle()
    return general, thread, alice, bob, await duel_in(app, env, thread, alice, bob)


async def test_a_duel_in_a_thread(app: App) -> None:
    async with simulated(app) as (adapter, env):
        general, thread, alice, bob, game = await duel_in_a_thread(app, adapter, env)
        row = await app.store.get_game(game)
        assert row is not None
        state = serial.load(duel.State, row.state)
        starter, second = (alice, bob) if state.turn == str(alice.id) else (bob, alice)
        await starter.send(thread, "5678" if starter is alice else "1234")
        await second.send(thread, "0987")
        await env.settle()
        said = [m.content for m in by_bot(thread, env)]
        assert any("0987" in t for t in said), said
        state = serial.load(duel.State, (await app.store.get_game(row.id)).state)  # type: ignore[union-attr]
        assert state.winner == str(starter.id)
        # the game lived in the thread: nothing of it in the parent channel
        assert not [m for m in by_bot(general, env) if "0987" in m.content or "accept" in str(m.components)]


async def test_kegeln_in_a_forum_post(app: App) -> None:
    async with simulated(app) as (adapter, env):
        guild = env.create_guild("Kegelclub Elbe")
        forum = guild.create_forum_channel("kegelabende")
        alice = guild.add_member(env.create_user("alice"))
        await synced(adapter)
        post = thread_in(env, forum, "Freitag", alice)
        await env.settle()

        await alice.slash(post, "kegeln", mode="high", places="3", names="Anna Ben")
        standings = [m for m in by_bot(post, env) if "Hausnummern #" in m.content and "```" in m.content]
        assert len(standings) == 1, contents(post)  # the standings table, posted in the post
        await alice.slash(post, "wurf", pins="7", position="hundreds")
        await env.settle()
        edited = [m for m in by_bot(post, env) if m.id == standings[0].id]
        assert edited and "Anna 7__" in edited[0].content  # edited in place, in the post
        assert len([m for m in by_bot(post, env) if "```" in m.content]) == 1  # not posted anew


async def test_a_thread_where_the_bot_may_not_post(app: App) -> None:
    """SimCord refuses the bot's post in a thread without Send Messages in Threads (403 50013); the
    adapter sees it coming and the asker alone is told which permission is missing."""
    async with simulated(app) as (adapter, env):
        guild = env.create_guild("Game Club")
        alice, bob = guild.add_member(env.create_user("alice")), guild.add_member(env.create_user("bob"))
        await synced(adapter)
        quiet = guild.create_text_channel("quiet", overwrites={
            guild.me: discord.PermissionOverwrite(send_messages_in_threads=False)})
        thread = thread_in(env, quiet, "no posting", alice)
        await env.settle()
        assert not env.bot.get_channel(thread.id).permissions_for(guild.me).send_messages_in_threads

        shown = await alice.slash(thread, "duel", opponent=bob, length="4")
        assert shown.response is not None and shown.response.ephemeral
        assert "Send Messages in Threads" in shown.response.content
        assert await app.store.seated_games("discord", str(alice.id), str(thread.id)) == []
        assert by_bot(thread, env) == []
        # typed in the thread: a DM to the asker
        await bob.send(thread, f"!duel {alice.mention}")
        await env.settle()
        dms = [m.content for m in bob.user.dm_channel.history() if m.author.id == env.bot.user.id]
        assert any("Send Messages in Threads" in t for t in dms), dms
        assert by_bot(thread, env) == []


async def test_a_refused_message_content_intent(app: App, caplog: pytest.LogCaptureFixture) -> None:
    """The portal has not approved Message Content: SimCord raises PrivilegedIntentsRequired on
    attach, as discord.py does on close code 4014; the adapter attaches again without it, a plain
    guess stays unread and `0123 @Bot` is read."""
    portal = discord.Intents.default()  # message_content not approved
    async with simulated(app, approved_intents=portal) as (adapter, env):
        assert adapter.note == NO_MESSAGE_CONTENT and not adapter.client.intents.message_content
        guild = env.create_guild("Game Club")
        general = guild.create_text_channel("general")
        alice = guild.add_member(env.create_user("alice"))
        await synced(adapter)
        await alice.slash(general, "practice", length="4")
        await alice.send(general, "0123")
        await env.settle()
        assert not [m for m in by_bot(general, env) if "0123" in m.content]  # arrived empty
        await alice.send(general, f"0123 {env.bot.user.mention}")
        await env.settle()
        assert [m for m in by_bot(general, env) if "0123" in m.content], contents(general)
    assert sum("4014" in r.getMessage() for r in caplog.records) == 1

