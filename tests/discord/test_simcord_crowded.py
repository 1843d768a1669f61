"""Issue 35's Discord cases through SimCord (PyPI `simcord` 3.2.1, an in-process Discord simulator; see
tests/discord/test_simcord.py): the real adapter and the real App on a real SQLite file.

Proven here: an opponent picked in /duel's user picker is named by the member SimCord resolves (the
server nickname), one mentioned in a typed `!duel @bob` by the mention's user — never by a bare id; a
mention of the bot anywhere in a plain message is the guess it carries; an edited command (SimCord's
MESSAGE_UPDATE) is not carried out again; a thread deleted mid-game (SimCord's THREAD_DELETE) ends the game
and its players are told by DM; a duel asked for in a private thread the bot is not in (SimCord's access
rules: the bot cannot see it) does not start; removed from a private thread mid-game, the bot's next post
there is refused (SimCord's 403 50001), the game ends and its players are told by DM.

What SimCord cannot model, so proven on the project's stand-in only (tests/discord/test_opponent_names.py,
test_threads_gone.py, test_intent_after_reconnect.py): a typed mention's server nickname (SimCord's
`mentions` carry users without the partial `member` Discord adds in a guild's MESSAGE_CREATE,
https://discord.com/developers/docs/topics/gateway-events#message-create-message-create-extra-fields);
a thread deleted while the bot was away (SimCord always sends THREAD_DELETE with the deletion, so the
404 10003 at the next post is never reached); a 4014 after a reconnect (SimCord checks the intents at
the first IDENTIFY only; tests/discord/test_simcord.py's 4014 is at start). SimCord's own leniencies,
worked around: it announces a private thread to a bot that may not see it (THREAD_CREATE goes only where
"relevant to the current user"), and its clock stands still, so two edits carry one `edited_timestamp`."""

from __future__ import annotations

from typing import Any

import discord
import pytest

from bot.app.app import App
from core.messages import Chat, Outbound
from tests.discord.test_simcord import (
    app,
    by_bot,
    contents,
    duel_in,
    duel_in_a_thread,
    simulated,
    synced,
    thread_in,
)

simcord = pytest.importorskip("simcord")
__all__ = ["app"]  # the fixture: the App on a fresh SQLite file

MANAGE_GUILD = discord.Permissions(manage_guild=True)


async def over(app: App, game: int) -> bool:
    row = await app.store.get_game(game)
    return row is not None and row.over


def dms(user: Any, env: Any) -> list[str]:
    channel = user.user.dm_channel if hasattr(user, "user") else user.dm_channel
    return [m.content for m in channel.history() if m.author.id == env.bot.user.id] if channel else []


async def test_an_opponent_is_named_by_the_member_discord_resolves(app: App) -> None:
    async with simulated(app) as (adapter, env):
        guild = env.create_guild("Game Club")
        general, elsewhere = guild.create_text_channel("general"), guild.create_text_channel("elsewhere")
        alice = guild.add_member(env.create_user("alice"))
        bob = guild.add_member(env.create_user("bob"), nick="Bobby the Bowler")
        await synced(adapter)
        await bob.send(elsewhere, "hello")  # known from another channel only
        thread = thread_in(env, general, "duel night", alice)
        await env.settle()
        for where in (general, thread):
            shown = await alice.slash(where, "duel", opponent=bob, length="4")
            assert shown.response is not None
            text = shown.response.content
            assert "Bobby the Bowler" in text and str(bob.id) not in text.replace(bob.mention, ""), text
            await alice.slash(where, "cancel")
            await alice.send(where, f"!duel {bob.mention} 4")
            await env.settle()
            (challenge,) = [m for m in by_bot(where, env) if "accept" in str(m.components)][-1:]
            text = challenge.content  # SimCord's mention carries the user alone (no partial member): his name
            assert "challenges bob " in text and str(bob.id) not in text.replace(bob.mention, ""), text
            await alice.slash(where, "cancel")


async def test_a_mention_of_the_bot_anywhere_is_the_guess(app: App) -> None:
    async with simulated(app) as (adapter, env):
        guild = env.create_guild("Game Club")
        general = guild.create_text_channel("general")
        alice = guild.add_member(env.create_user("alice"))
        await synced(adapter)
        await alice.slash(general, "practice", length="4")
        me = env.bot.user.mention
        for typed, code in ((f"{me} 8901", "8901"), (f"2345 {me}", "2345")):
            await alice.send(general, typed)
            await env.settle()
            assert [m for m in by_bot(general, env) if f"{code} →" in m.content], (typed, contents(general))


async def test_an_edited_command_is_not_carried_out_again(app: App) -> None:
    async with simulated(app) as (adapter, env):
        guild = env.create_guild("Kegelclub")
        general = guild.create_text_channel("general")
        treasurers = guild.create_role("Vorstand", permissions=MANAGE_GUILD)
        dave = guild.add_member(env.create_user("dave"), roles=[treasurers])
        alice = guild.add_member(env.create_user("alice"))
        await synced(adapter)
        await dave.slash(general, "kasse", what="on")
        await dave.slash(general, "kegeln", mode="high", places="2", names="Anna Ben")
        await dave.slash(general, "wurf", pins="0", position="tens")
        pay = await dave.send(general, "!kasse pay Anna 0,10")
        await env.settle()
        assert any("Anna paid €0.10" in t for t in contents(general)), contents(general)
        for amount in ("0,05", "0,02"):
            before = len(by_bot(general, env))
            await env.advance_time(5)  # SimCord's clock stands still: each edit its own edited_timestamp
            await dave.edit(pay, f"!kasse pay Anna {amount}")
            await env.settle()
            answer = [m.content for m in by_bot(general, env)][before:]
            assert answer and "not carried out again" in answer[-1] and "paid" not in " ".join(answer), answer
        await alice.send(general, "!kasse")
        await env.settle()
        assert "Paid in: €0.10" in by_bot(general, env)[-1].content, contents(general)


async def test_a_deleted_thread_ends_its_game(app: App) -> None:
    async with simulated(app) as (adapter, env):
        _, thread, alice, bob, game = await duel_in_a_thread(app, adapter, env)
        env.backend.delete_channel(thread.id)  # THREAD_DELETE
        await env.settle()
        assert await over(app, game)
        for who in (alice, bob):
            assert any("has been deleted" in t for t in dms(who, env)), dms(who, env)


async def private_thread(adapter: Any, env: Any, with_bot: bool) -> tuple[Any, Any, Any]:
    """A private thread Alice opened and Bob is in — the bot too if `with_bot` — where the bot may not manage
    threads (so it sees none it is not in): the thread, Alice, Bob."""
    guild = env.create_guild("Game Club")
    alice, bob = guild.add_member(env.create_user("alice")), guild.add_member(env.create_user("bob"))
    general = guild.create_text_channel("general", overwrites={
        guild.me: discord.PermissionOverwrite(manage_threads=False)})
    await synced(adapter)
    # Discord tells a bot of a thread only when it is "relevant to the current user" (THREAD_CREATE,
    # https://discord.com/developers/docs/topics/gateway-events#thread-create): not at its creation here,
    # when the bot is added to it (SimCord would announce it to everyone)
    private = env.backend.create_thread(general.id, "duel night", alice.id, broadcast=False,
                                        type=discord.ChannelType.private_thread.value)
    for member in (bob.id, env.bot.user.id) if with_bot else (bob.id,):
        env.backend.add_thread_member(private.id, member)
    if with_bot:
        env.backend.announce_thread_create(private)
    await env.settle()
    return simcord.ChannelHandle(env, env.guild, private), alice, bob


async def test_a_duel_in_a_private_thread_without_the_bot_does_not_start(app: App) -> None:
    async with simulated(app) as (adapter, env):
        thread, alice, bob = await private_thread(adapter, env, with_bot=False)
        shown = await alice.slash(thread, "duel", opponent=bob, length="4")
        assert shown.response is not None and shown.response.ephemeral, shown.response
        assert "private thread" in shown.response.content, shown.response.content
        assert await app.store.chat_games("discord", str(thread.id)) == []


async def test_removed_from_a_private_thread_mid_game_its_players_are_told(app: App) -> None:
    async with simulated(app) as (adapter, env):
        thread, alice, bob = await private_thread(adapter, env, with_bot=True)
        game = await duel_in(app, env, thread, alice, bob)
        env.backend.remove_thread_member(thread.id, env.bot.user.id)
        await env.settle()
        await adapter.send([Outbound(to=Chat("discord", str(thread.id), False), text="⏰ a timeout notice")])
        await env.settle()
        assert await over(app, game)
        for who in (alice, bob):
            assert any("can no longer post" in t for t in dms(who, env)), dms(who, env)
