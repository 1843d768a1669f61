"""Edits of commands (issue 35): a typed command carried out once is never carried out again by an edit
of its message. Discord sends an edit as MESSAGE_UPDATE with the whole message and its
`edited_timestamp` (https://discord.com/developers/docs/events/gateway-events#message-update); the
stand-in's `edit` does so. Real discord.py, the real App on a real SQLite file."""

from __future__ import annotations

from bot.app.app import App

from .conftest import MakeAdapter
from .model import CHANNEL_ID, User
from .standin import StandIn
from .test_e2e_cash import run

MANAGE_GUILD = 1 << 5  # https://discord.com/developers/docs/topics/permissions#permissions-bitwise-permission-flags


async def said(standin: StandIn, mark: int) -> str:
    await standin.settle()
    return "\n".join(c.content for c in standin.calls[mark:] if c.in_channel(CHANNEL_ID) and c.status < 300)


async def typed(standin: StandIn, user: User, text: str) -> tuple[dict[str, object], str]:
    mark = len(standin.calls)
    message = await standin.say(CHANNEL_ID, user, text)
    await standin.wait_for(lambda c: c.in_channel(CHANNEL_ID) and bool(c.content), after=mark)
    return message, await said(standin, mark)


async def edited(standin: StandIn, user: User, message: dict[str, object], text: str) -> str:
    mark = len(standin.calls)
    await standin.edit(CHANNEL_ID, user, message, text)
    await standin.wait_for(lambda c: c.in_channel(CHANNEL_ID) and bool(c.content), after=mark)
    return await said(standin, mark)


async def test_an_edited_payment_is_not_booked_again(standin: StandIn, make_adapter: MakeAdapter,
                                                     app: App) -> None:
    alice = standin.add_user("Alice")
    dave = standin.add_user("Dave", permissions=str(int(User.permissions) | MANAGE_GUILD))
    await make_adapter(app.handle, app.command_menu())
    await run(standin, dave, "kasse", {"what": "on"})  # a slash command carries Dave's permissions
    await run(standin, dave, "kegeln", {"mode": "high", "places": "2", "names": "Anna Ben"})  # a club game
    await run(standin, dave, "wurf", {"pins": "0", "position": "10"})
    pay, answer = await typed(standin, dave, "!kasse pay Anna 0,10")
    assert "Anna paid €0.10" in answer, answer
    for amount in ("0,05", "0,02"):
        answer = await edited(standin, dave, pay, f"!kasse pay Anna {amount}")
        assert "paid" not in answer and "not carried out again" in answer, answer
    _, view = await typed(standin, alice, "!kasse")
    assert "Paid in: €0.10" in view, view


async def test_a_refused_command_corrected_by_an_edit_runs_once(standin: StandIn, make_adapter: MakeAdapter,
                                                                app: App) -> None:
    alice = standin.add_user("Alice")
    dave = standin.add_user("Dave", permissions=str(int(User.permissions) | MANAGE_GUILD))
    await make_adapter(app.handle, app.command_menu())
    await run(standin, dave, "kasse", {"what": "on"})  # a slash command carries Dave's permissions
    await run(standin, dave, "kegeln", {"mode": "high", "places": "2", "names": "Anna Ben"})  # a club game
    await run(standin, dave, "wurf", {"pins": "0", "position": "10"})
    pay, _ = await typed(standin, dave, "!kasse pay Anna zehn")
    assert "Anna paid €0.10" in await edited(standin, dave, pay, "!kasse pay Anna 0,10")
    answer = await edited(standin, dave, pay, "!kasse pay Anna 0,20")
    assert "paid" not in answer and "not carried out again" in answer, answer
    _, view = await typed(standin, alice, "!kasse")
    assert "Paid in: €0.10" in view, view

