"""Threads the bot cannot post in (issue 35), against the stand-in's model of them
(tests/discord/guild.py and gateway.py, threads: a private thread the bot was not invited to answers 403 50001
"Missing Access"; a deleted one sends THREAD_DELETE, then answers 404 10003 "Unknown Channel"):
a game asked for in a private thread without the bot does not start and the asker is told why; a game
whose thread the bot lost (removed from it, the thread deleted — told or unseen) ends as abandoned,
like one in a deleted Telegram topic, and its players are told by DM. Real discord.py, the real App on
a real SQLite file."""

from __future__ import annotations

from typing import Any

from bot.app.app import App
from core.messages import Chat, Outbound

from .conftest import MakeAdapter
from .model import CHANNEL_ID, Call, User
from .standin import StandIn
from .test_e2e_games import said
from .test_e2e_threads import duel_in


def dm_says(standin: StandIn, user: User, words: str) -> Any:
    def pred(c: Call) -> bool:
        return c.status < 300 and c.channel_id == standin.dm_channels.get(user.id) and words in c.content
    return pred


async def over(app: App, game: int) -> bool:
    row = await app.store.get_game(game)
    return row is not None and row.over


async def test_a_duel_asked_for_in_a_private_thread_without_the_bot_does_not_start(
    standin: StandIn, make_adapter: MakeAdapter, app: App
) -> None:
    alice, bob = standin.add_user("Alice"), standin.add_user("Bob")
    await make_adapter(app.handle, app.command_menu())
    thread = await standin.open_thread(CHANNEL_ID, "secret duel", private=True, with_bot=False)
    mark = len(standin.calls)
    await standin.slash(thread, alice, "duel", {"opponent": bob, "length": 4})
    await standin.wait_for(said, after=mark)
    await standin.settle()
    shown = [c for c in standin.calls[mark:] if said(c)]
    assert len(shown) == 1 and shown[0].ephemeral and "private thread" in shown[0].content, shown
    assert await app.store.chat_games("discord", str(thread)) == []
    assert not [c for c in standin.calls[mark:] if c.status == 403]  # nothing posted into the void


async def test_removed_from_a_private_thread_mid_game_its_players_are_told(
    standin: StandIn, make_adapter: MakeAdapter, app: App
) -> None:
    alice, bob = standin.add_user("Alice"), standin.add_user("Bob")
    adapter = await make_adapter(app.handle, app.command_menu())
    thread = await standin.open_thread(CHANNEL_ID, "duel night", private=True)
    game = await duel_in(standin, app, thread, alice, bob)
    await standin.remove_bot_from_thread(thread)
    mark = len(standin.calls)
    await adapter.send([Outbound(to=Chat("discord", str(thread), False), text="⏰ a timeout notice")])
    for who in (alice, bob):
        await standin.wait_for(dm_says(standin, who, "can no longer post"), after=mark)
    assert await over(app, game)
    await adapter.send([Outbound(to=Chat("discord", str(thread), False), text="later")])
    await standin.settle()
    assert len([c for c in standin.calls[mark:] if c.status == 403]) == 1  # the one refusal, then silence


async def test_a_deleted_thread_ends_its_game(standin: StandIn, make_adapter: MakeAdapter, app: App) -> None:
    alice, bob = standin.add_user("Alice"), standin.add_user("Bob")
    await make_adapter(app.handle, app.command_menu())
    thread = await standin.open_thread(CHANNEL_ID, "duel night")
    game = await duel_in(standin, app, thread, alice, bob)
    mark = len(standin.calls)
    await standin.delete_thread(thread)
    for who in (alice, bob):
        await standin.wait_for(dm_says(standin, who, "has been deleted"), after=mark)
    assert await over(app, game)


async def test_a_thread_deleted_unseen_ends_its_game_at_the_first_refused_post(
    standin: StandIn, make_adapter: MakeAdapter, app: App
) -> None:
    alice, bob = standin.add_user("Alice"), standin.add_user("Bob")
    adapter = await make_adapter(app.handle, app.command_menu())
    thread = await standin.open_thread(CHANNEL_ID, "duel night")
    game = await duel_in(standin, app, thread, alice, bob)
    await standin.delete_thread(thread, tell=False)  # while the bot was offline
    mark = len(standin.calls)
    await adapter.send([Outbound(to=Chat("discord", str(thread), False), text="⏰ a timeout notice")])
    for who in (alice, bob):
        await standin.wait_for(dm_says(standin, who, "has been deleted"), after=mark)
    assert await over(app, game)
