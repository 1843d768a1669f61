"""The morning post on Discord: the real discord.py client against the strict stand-in, the real App with
an injected clock. An admin turns the post on and Bob opts in by slash commands; the post the scheduler
makes the next morning names Alice and Bob but pings exactly Bob: `<@bob>` in the content and
`allowed_mentions` naming only him, no `parse`, no roles, no replied user
(https://discord.com/developers/docs/resources/message#allowed-mentions-object — "users: Array of
user_ids to mention"; the stand-in refuses a body Discord would refuse, tests/discord/limits.py)."""

from __future__ import annotations

from pathlib import Path

from bot.app.app import App
from core.messages import Actor, Chat, Inbound
from tests.app.conftest import Clock
from tests.games.daily.test_morning_post import MORNING, NOON, secret

from .conftest import MakeAdapter
from .model import CHANNEL_ID, User
from .standin import StandIn
from .test_e2e_games import act, in_channel, said
from .test_e2e_mentions import pings_exactly

ADMIN = str(int(User.permissions) | 0x8)  # ADMINISTRATOR


async def test_the_morning_post_pings_exactly_the_opted_in(
        standin: StandIn, make_adapter: MakeAdapter, tmp_path: Path) -> None:
    clock = Clock()
    clock.now = NOON
    app = await App.open(str(tmp_path / "posts.sqlite"), seed=5, clock=clock)
    try:
        alice, bob = standin.add_user("Alice", permissions=ADMIN), standin.add_user("Bob")
        adapter = await make_adapter(app.handle, app.command_menu())
        refused = await act(standin, standin.slash(CHANNEL_ID, bob, "posts", {"setting": "morning", "value": "6"}))
        assert any("Only a chat admin" in c.content for c in refused if said(c))
        calls = await act(standin, standin.slash(CHANNEL_ID, alice, "posts", {"setting": "morning", "value": "08:00"}))
        assert any("Morning post: at 08:00" in c.content for c in calls if said(c))
        calls = await act(standin, standin.slash(CHANNEL_ID, bob, "pings", {"switch": "on"}))
        assert any("mention you from now on" in c.content for c in calls if said(c))

        group = Chat("discord", str(CHANNEL_ID), False)
        for user in (alice, bob):  # yesterday's dailies (the daily itself on Discord: test_e2e_daily.py)
            await app.handle(Inbound(Actor("discord", str(user.id), user.name, "en"), group, command="daily"))
        me = Actor("discord", str(alice.id), "Alice", "en")
        await app.handle(Inbound(me, Chat("discord", f"dm-{alice.id}", True), text=await secret(app, "2026-11-30")))

        clock.now = MORNING + 5
        mark = len(standin.calls)
        await adapter.send(await app.scheduler.tick())
        await standin.settle()
        (post,) = [c for c in in_channel(standin, standin.calls[mark:]) if "Good morning" in c.content]
        assert "Alice 1/10" in post.content
        pings_exactly(post, bob.id)
        assert f"<@{alice.id}>" not in post.content
        assert StandIn.notified(post.message) == [bob.id]  # whom Discord would notify: Bob alone
    finally:
        await app.close()
