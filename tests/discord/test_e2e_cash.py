"""The cash box on Discord, end to end: the real discord.py client against the strict stand-in and the
real App on a real SQLite file. A chat admin is a member whose interaction carries the Manage Server
permission (`member.permissions`, https://discord.com/developers/docs/interactions/receiving-and-responding
#interaction-object); refusals are ephemeral; the cash book is an attachment; a button id naming the
other channel does nothing here."""

from __future__ import annotations

import csv
import io

import openpyxl

from bot.app.app import App

from .conftest import MakeAdapter
from .model import CHANNEL_ID, OTHER_CHANNEL_ID, Call, User
from .standin import StandIn

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
    assert "Anna: owes €0.10" in view.content and "Paid in: €0.50" in view.content
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
    assert [r[3] for r in rows[1:]] == ["from the throws"] * 4 + ["paid"]
    assert [r[5] for r in rows[1:]] == ["0.10", "-0.10", "0.10", "0.50", "-0.50"]


async def test_the_treasurers_book_on_discord(standin: StandIn, make_adapter: MakeAdapter, app: App) -> None:
    """A fee for a member without a game, the dues, an expense and the till, a payment with the box off, and
    the reasons in the statement and in both files of the export (the XLSX read back with openpyxl)."""
    bob = standin.add_user("Bob")
    dave = standin.add_user("Dave", permissions=str(int(User.permissions) | MANAGE_GUILD))
    await make_adapter(app.handle, app.command_menu())
    await run(standin, dave, "kasse", {"what": "on"})
    fee = await run(standin, dave, "kasse", {"what": "fee Dora Berg 20 joined in March"})
    assert "Entry fee for Dora Berg: €20.00 — joined in March" in fee.content, fee.content
    assert "€5.00 a month" in (await run(standin, dave, "kasse", {"what": "dues 5 monthly"})).content
    spent = await run(standin, dave, "kasse", {"what": "expense 45 lane rent"})
    assert "Paid out €45.00 — lane rent" in spent.content and "In the till: −€45.00" in spent.content
    await run(standin, dave, "kasse", {"what": "off"})
    paid = await run(standin, dave, "kasse", {"what": "pay Dora Berg 20 cash"})
    assert "Dora Berg paid €20.00 — cash" in paid.content, paid.content  # with the box off
    refused = await run(standin, bob, "kasse", {"what": "expense 5 beer"})
    assert refused.ephemeral and "Only the treasurer Dave books money" in refused.content
    view = await run(standin, bob, "kasse", {})
    assert "Paid in: €20.00 · paid out: €45.00 · in the till: −€25.00" in view.content, view.content
    mine = await run(standin, bob, "kasse", {"what": "Dora Berg"})
    assert "entry fee €20.00 — joined in March" in mine.content and "paid −€20.00 — cash" in mine.content
    mark = len(standin.calls)
    await standin.slash(CHANNEL_ID, bob, "kasse", {"what": "book"})
    await standin.wait_for(lambda c: c.status < 300 and any(f[0].endswith(".xlsx") for f in c.files), after=mark,
                           timeout=10)
    await standin.settle()
    files = dict(f for c in standin.calls[mark:] if c.status < 300 for f in c.files)
    (csv_name,) = [n for n in files if n.endswith(".csv")]
    rows = list(csv.DictReader(io.StringIO(files[csv_name].decode("utf-8-sig"))))
    assert [r["note"] for r in rows] == ["joined in March", "lane rent", "cash"]
    sheet = openpyxl.load_workbook(io.BytesIO(files[csv_name.removesuffix(".csv") + ".xlsx"])).worksheets[1]
    assert [tuple(r) for r in sheet.iter_rows(min_row=2, values_only=True)] == [("Dora Berg", 0, "EUR")]
