"""End to end: slash commands are answered through the interaction, refusals and help to the actor
alone, the bot opponent by slash command. The real App on a real SQLite file behind the real
discord.py client, on the strict stand-in (3 s window, one initial response, channel permissions)."""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from bot.app import App

from .conftest import MakeAdapter
from .standin import CHANNEL_ID, OTHER_CHANNEL_ID, StandIn, User


@pytest.fixture
async def app(tmp_path: Path) -> AsyncIterator[App]:
    app = await App.open(db_path=str(tmp_path / "games.sqlite"), seed=1234)
    try:
        yield app
    finally:
        await app.close()


def answers(standin: StandIn, token: str) -> list[tuple[str, bool, str]]:
    """What the interaction `token` showed: (kind, ephemeral, content) of each successful reply."""
    out = []
    for c in standin.calls:
        if c.interaction_token == token and c.status < 300 and c.method != "DELETE":
            kind = "callback" if c.path.endswith("/callback") else "followup"
            out.append((kind, c.ephemeral, c.content))
    return out


async def slash_answered(standin: StandIn, user: User, name: str, options: dict[str, object] | None = None,
                         channel: int = CHANNEL_ID) -> str:
    mark = len(standin.calls)
    token = await standin.slash(channel, user, name, options)
    await standin.answered(token)
    await standin.settle()
    state = standin.interactions[token]
    assert state["responded_at"] - state["created"] < 3.0
    assert not [c for c in standin.calls[mark:] if c.status >= 400], "a call was refused"
    return token


async def test_a_slash_command_is_answered_through_the_interaction(
    standin: StandIn, make_adapter: MakeAdapter, app: App
) -> None:
    alice = standin.add_user("Alice")
    await make_adapter(app.handle, app.command_menu())
    mark = len(standin.calls)
    token = await slash_answered(standin, alice, "stats")
    shown = answers(standin, token)
    assert shown and shown[0][0] == "callback" and not shown[0][1]  # the initial response, public
    assert "Alice" in shown[0][2]
    # one call: no placeholder to delete, no channel post
    assert [c for c in standin.calls[mark:] if c.channel_id is not None] == []
    assert not [c for c in standin.calls[mark:] if c.method == "DELETE"]


async def test_a_slash_command_is_answered_where_the_bot_may_not_post(
    standin: StandIn, make_adapter: MakeAdapter, app: App
) -> None:
    alice, bob = standin.add_user("Alice"), standin.add_user("Bob")
    standin.deny(CHANNEL_ID, "send_messages")
    standin.deny(OTHER_CHANNEL_ID, "view_channel")
    await make_adapter(app.handle, app.command_menu())
    for channel in (CHANNEL_ID, OTHER_CHANNEL_ID):
        token = await slash_answered(standin, alice, "stats", channel=channel)
        assert any("Alice" in text for _, _, text in answers(standin, token))
    # a challenge, with its buttons, is the public answer to /duel
    token = await slash_answered(standin, alice, "duel", {"opponent": bob})
    shown = standin.calls
    accept = [c for c in shown if c.interaction_token == token and any(
        cid.endswith(":accept") for cid in c.custom_ids())]
    assert accept and not accept[0].ephemeral


async def test_refusals_and_help_go_to_the_actor_alone(
    standin: StandIn, make_adapter: MakeAdapter, app: App
) -> None:
    alice = standin.add_user("Alice")
    await make_adapter(app.handle, app.command_menu())
    mark = len(standin.calls)
    for name in ("accept", "help", "resign"):
        token = await slash_answered(standin, alice, name)
        shown = answers(standin, token)
        assert shown and all(ephemeral for _, ephemeral, _ in shown), (name, shown)
    assert standin.channel_calls(after=mark) == []  # nothing of it in the channel
