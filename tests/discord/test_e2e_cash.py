"""The cash box on Discord, end to end: the real discord.py client against the strict stand-in and the
real App on a real SQLite file. A chat admin is a member whose interaction carries the Manage Server
permission (`member.permissions`, https://discord.com/developers/docs/interactions/receiving-and-responding
#interaction-object); refusals are ephemeral; the cash book is an attachment; a button id naming the
other channel does nothing here."""

from __future__ import annotations

import csv
import io

from bot.app import App

from .conftest import MakeAdapter
from .standin import CHANNEL_ID, OTHER_CHANNEL_ID, Call, StandIn, User

MANAGE_GUILD = 1 << 5  # https://discord.com/developers/docs/topics/permissions#permissions-bitwise-permission-flags


async def run(standin: StandIn, user: User, command: str, options: dict[str, str],
              channel: int = CHANNEL_ID) -> Call:
    """`/command options` by `user`: the bot's first answer with text (public or ephemeral)."""
    mark = len(standin.calls)
    await standin.slash(channel, user, command, options)
    answer = await standin.wait_for(lambda c: c.status < 300 and bool(c.content), after=mark, timeout=10)
    await standin.settle()
    return answer


async def test_a_cash_evening_on_discord(standin: StandIn, make_adapter: MakeAdapter, app: App) -> None:
    # alice manages the server too: a chat admin, so her game is a club game (docs/club.md)
    alice = standin.add_user("Alice", permissions=str(int(User.permissions) | MANAGE_GUILD))
    bob = standin.add_user("Bob")
    dave = standin.add_user("Dave", permissions=str(int(User.permissions) | MANAGE_GUILD))
    await make_adapter(app.handle, app.command_menu())
    refused = await run(standin, bob, "kasse", {"what": "on"})
    assert refused.ephemeral and "Only a chat admin can change" in refused.content
    assert "The cash box is on (EUR)" in (await run(standin, dave, "kasse", {"what": "on"})).content
    await run(standin, alice, "kegeln", {"mode": "high", "places": "2", "names": "Anna Ben"})
    await run(standin, alice, "wurf", {"pins": "0", "position": "10"})
    assert "Anna: owes €0.10" in (await run(standin, alice, "kasse", {})).content
    await run(standin, alice, "undo", {})
    assert "Nobody owes anything." in (await run(standin, alice, "kasse", {})).content
    for pins, position in (("0", "10"), ("5", "10"), ("3", "1"), ("5", "1")):
        await run(standin, alice, "wurf", {"pins": pins, "position": position})
    refused = await run(standin, alice, "kasse", {"what": "pay Anna 0,60"})
    assert refused.ephemeral and "Only the treasurer Dave books money" in refused.content, refused.content
    paid = await run(standin, dave, "kasse", {"what": "pay Anna 0,50"})
    assert "Anna paid €0.50 (booked by Dave). Balance: €0.10." in paid.content, paid.content
    view = await run(standin, bob, "kasse", {})
    assert "Anna: owes €0.10" in view.content and "paid in so far: €0.50" in view.content
    button = f"kegeln:{CHANNEL_ID}:cash_csv"
    mid, _ = standin.message_with_button(lambda cid: cid == button)  # the overview's button

    # the other channel is another club: its cash box is its own, and this channel's button does nothing there
    assert "The cash box is off" in (await run(standin, bob, "kasse", {}, OTHER_CHANNEL_ID)).content
    mark = len(standin.calls)
    await standin.press(OTHER_CHANNEL_ID, bob, mid, button)
    await standin.settle()
    assert not [c for c in standin.calls[mark:] if c.files]

    # in its own channel: the season's cash book as an attachment
    mark = len(standin.calls)
    await standin.press(CHANNEL_ID, bob, mid, button)
    doc = await standin.wait_for(lambda c: c.status < 300 and bool(c.files), after=mark, timeout=10)
    ((name, data),) = [f for f in doc.files if f[0].endswith(".csv")]
    assert name.startswith(f"kasse-{CHANNEL_ID}-")
    rows = list(csv.reader(io.StringIO(data.decode("utf-8-sig"))))
    assert [r[3] for r in rows[1:]] == ["auto", "auto", "auto", "auto", "payment"]
    assert [r[5] for r in rows[1:]] == ["0.10", "-0.10", "0.10", "0.50", "-0.50"]
