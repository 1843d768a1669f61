"""Deleting needs Manage Messages (issue 22, item 5) and edited messages (item 7), against the stand-in's
model of Discord (https://discord.com/developers/docs/resources/message#delete-message, MESSAGE_UPDATE):
real discord.py, and the real App on a real SQLite file for what players are told."""

from __future__ import annotations

from typing import Any

import discord
import pytest
from discord.http import Route

from .conftest import MakeAdapter, OpenApp
from .model import CHANNEL_ID, Call, User
from .standin import StandIn
from .test_e2e_app import challenge, duel_state


async def _nothing(_: Any) -> Any:
    from core.messages import Response

    return Response()


async def test_the_standin_deletes_anothers_message_only_with_manage_messages(
    standin: StandIn, make_adapter: MakeAdapter
) -> None:
    adapter = await make_adapter(_nothing, {})
    http = adapter.client.http
    alice = standin.add_user("Alice")

    def delete(channel: int, message: dict[str, Any]) -> Any:
        return http.request(Route("DELETE", "/channels/{channel_id}/messages/{message_id}",
                                  channel_id=channel, message_id=message["id"]))

    theirs = await standin.say(CHANNEL_ID, alice, "1234")
    with pytest.raises(discord.Forbidden) as refused:
        await delete(CHANNEL_ID, theirs)
    assert refused.value.code == 50013
    own = await http.request(Route("POST", "/channels/{channel_id}/messages", channel_id=CHANNEL_ID),
                             json={"content": "mine"})
    await delete(CHANNEL_ID, own)  # its own: no permission needed
    in_dm = await standin.say(None, alice, "5678")
    with pytest.raises(discord.Forbidden) as refused:
        await delete(int(in_dm["channel_id"]), in_dm)
    assert refused.value.code == 50003
    standin.grant(CHANNEL_ID, "manage_messages")
    await delete(CHANNEL_ID, theirs)
    assert int(theirs["id"]) not in standin.messages


async def duel_with_secrets_asked(standin: StandIn, make_adapter: MakeAdapter, open_app: OpenApp
                                  ) -> tuple[Any, int, User, User]:
    alice, bob = standin.add_user("Alice"), standin.add_user("Bob")
    app = await open_app()
    await make_adapter(app.handle, app.command_menu())
    mid, game = await challenge(standin, alice, bob)
    await standin.answered(await standin.press(CHANNEL_ID, bob, mid, f"g:{game}:accept"))
    await standin.wait_for(lambda c: c.status == 200 and c.channel_id is not None
                           and c.channel_id == standin.dm_channels.get(bob.id) and "secret code" in c.content)
    return app, game, alice, bob


def in_channel(text: str) -> Any:
    return lambda c: c.in_channel(CHANNEL_ID) and c.status < 300 and text in c.content


async def test_a_secret_the_bot_cannot_delete_is_ruled_out_and_the_channel_told_why(
    standin: StandIn, make_adapter: MakeAdapter, open_app: OpenApp
) -> None:
    app, game, alice, _ = await duel_with_secrets_asked(standin, make_adapter, open_app)
    mark = len(standin.calls)
    await standin.say(CHANNEL_ID, alice, "1234")
    await standin.wait_for(lambda c: c.method == "DELETE" and c.status == 403, after=mark)
    told = await standin.wait_for(in_channel("no longer be your secret"), after=mark)
    await standin.wait_for(in_channel("“Manage Messages”"), after=mark)
    assert "1234" not in told.content
    mark = len(standin.calls)
    await standin.say(None, alice, "1234")
    await standin.wait_for(lambda c: "Everyone in the group has seen that code" in c.content, after=mark)
    assert str(alice.id) not in (await duel_state(app, game)).secrets


async def test_an_edited_guess_counts_once_and_an_edit_of_a_counted_one_is_answered(
    standin: StandIn, make_adapter: MakeAdapter, open_app: OpenApp
) -> None:
    app, game, alice, bob = await duel_with_secrets_asked(standin, make_adapter, open_app)
    for who, code in ((alice, "1234"), (bob, "5678")):
        mark = len(standin.calls)
        await standin.say(None, who, code)
        def echoed(c: Call, code: str = code) -> bool:
            return code in c.content

        await standin.wait_for(echoed, after=mark)
    state = await duel_state(app, game)
    mover = alice if state.turn == str(alice.id) else bob
    mark = len(standin.calls)
    typo = await standin.say(CHANNEL_ID, mover, "123")
    await standin.wait_for(in_channel("digits"), after=mark)
    assert (await duel_state(app, game)).attempts[str(mover.id)] == []
    mark = len(standin.calls)
    await standin.edit(CHANNEL_ID, mover, typo, "1024")
    await standin.wait_for(in_channel("1024"), after=mark)
    state = await duel_state(app, game)
    assert len(state.attempts[str(mover.id)]) == 1 and state.turn != str(mover.id)
    mark = len(standin.calls)
    await standin.edit(CHANNEL_ID, mover, typo, "2048")
    await standin.wait_for(in_channel("already counted"), after=mark)
    state = await duel_state(app, game)
    assert len(state.attempts[str(mover.id)]) == 1 and state.turn != str(mover.id)
