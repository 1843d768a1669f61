"""Opponents named as Discord names them (issue 35): `/duel` with a member picked in the user picker names
them by the member Discord resolved in that very interaction (`resolved.members`/`users`,
https://discord.com/developers/docs/interactions/receiving-and-responding#interaction-object-resolved-data-structure:
the server nickname where there is one, discord.py's `display_name`), and a typed `!duel @bob` by the
mention's partial member (https://discord.com/developers/docs/resources/message#message-object `mentions`) —
never a bare id, and never a name the bot stored from another channel. In a channel and in a thread.
Real discord.py against the stand-in, the real App on a real SQLite file."""

from __future__ import annotations

from bot.app.app import App

from .conftest import MakeAdapter
from .model import CHANNEL_ID, OTHER_CHANNEL_ID, User
from .standin import StandIn
from .test_e2e_games import act, has_button


async def challenge_text(standin: StandIn, where: int, alice: User, bob: User, typed: bool) -> str:
    doing = (standin.say(where, alice, f"!duel {bob.mention} 4") if typed
             else standin.slash(where, alice, "duel", {"opponent": bob, "length": 4}))
    calls = await act(standin, doing, has_button("accept"))
    (challenge,) = [c for c in calls if c.status < 300 and c.in_channel(where) and has_button("accept")(c)]
    await act(standin, standin.slash(where, alice, "cancel", {}))
    return challenge.content


async def test_a_picked_or_mentioned_opponent_is_named_by_the_server_nickname(
    standin: StandIn, make_adapter: MakeAdapter, app: App
) -> None:
    alice = standin.add_user("Alice")
    bob = standin.add_user("bob", nick="Bobby the Bowler")  # has never written where he is challenged
    await make_adapter(app.handle, app.command_menu())
    await standin.say(OTHER_CHANNEL_ID, bob, "hello")  # known from another channel only (nothing to answer)
    await standin.settle()
    thread = await standin.open_thread(CHANNEL_ID, "duel night")
    for where in (CHANNEL_ID, thread):
        for typed in (False, True):
            text = await challenge_text(standin, where, alice, bob, typed)
            assert "Bobby the Bowler" in text, (where, typed, text)
            assert str(bob.id) not in text.replace(bob.mention, ""), (where, typed, text)  # a ping, no bare id
