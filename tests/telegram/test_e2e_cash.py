"""The cash box on Telegram, end to end: the real PTB adapter against the stand-in and the real App on a
real SQLite file. Whether a sender administers the group is what Telegram's getChatAdministrators says
(the stand-in's `admins`, https://core.telegram.org/bots/api#getchatadministrators); the cash book comes
as a document (sendDocument); a button naming another group does nothing there."""

from __future__ import annotations

import csv
import io
from decimal import Decimal

import openpyxl
import pytest

from tests.telegram.standin import StandIn
from tests.telegram.standin_calls import Call
from tests.telegram.standin_objects import Chat, User
from tests.telegram.test_e2e_app import ALICE, BOB, CAROL, GROUP, Club
from tests.telegram.test_e2e_games import DAVE

pytestmark = pytest.mark.filterwarnings("ignore::telegram.warnings.PTBDeprecationWarning")

OTHER = Chat(id=-100777, type="group", title="Another club")


def said(calls: list[Call], chat_id: int = GROUP.id) -> str:
    return "\n".join(c.text for c in calls if c.ok and c.chat_id == chat_id)


async def test_a_cash_evening_on_telegram(standin: StandIn, club: Club) -> None:
    standin.admins[GROUP.id] = [CAROL, DAVE, ALICE]  # alice: an admin, so her game is a club game (docs/club.md)
    assert "Only a chat admin can change" in said(await club.act(club.say(GROUP, BOB, "/kasse on")))
    assert "The cash box is on (EUR)" in said(await club.act(club.say(GROUP, DAVE, "/kasse on")))
    await club.act(club.say(GROUP, ALICE, "/kegeln high 2 Anna Ben"))
    await club.act(club.say(GROUP, ALICE, "/wurf 0 10"))
    assert "Anna: owes €0.10" in said(await club.act(club.say(GROUP, ALICE, "/cashbox")))
    await club.act(club.say(GROUP, ALICE, "/undo"))
    assert "Nobody owes anything." in said(await club.act(club.say(GROUP, ALICE, "/cashbox")))
    for text in ("/wurf 0 10", "/wurf 5 10", "/wurf 3", "/wurf 5"):
        await club.act(club.say(GROUP, ALICE, text))
    refused = said(await club.act(club.say(GROUP, ALICE, "/kasse pay Anna 0,60")))
    assert "Only the treasurer Dave books money" in refused, refused
    paid = said(await club.act(club.say(GROUP, DAVE, "/kasse pay Anna 0,50")))
    assert "Anna paid €0.50 (booked by Dave). Balance: €0.10." in paid, paid
    calls = await club.act(club.say(GROUP, BOB, "/kasse"))
    view = next(c for c in calls if c.ok and c.method == "sendMessage" and "Cash box (EUR)" in c.text)
    assert "Anna: owes €0.10" in view.text and "Paid in: €0.50" in view.text, view.text
    button = f"kegeln:{GROUP.id}:cash_csv"
    assert any(b.get("callback_data") == button for b in view.buttons)

    # the button in another group: nothing of this club's money there
    other_calls = await club.act(club.say(OTHER, BOB, "/kasse"))
    assert "The cash box is off" in said(other_calls, OTHER.id)
    mark = standin.mark()
    other = next(c for c in other_calls if c.ok and c.method == "sendMessage" and c.chat_id == OTHER.id)
    standin.press(OTHER, BOB, other.result["message_id"], button)
    await club.act(club.say(OTHER, BOB, "/help"))
    assert not [c for c in standin.calls[mark:] if c.method == "sendDocument"]

    # the button in its own group: the season's cash book as a document
    calls = await club.act(club.press(BOB, view, button))
    doc, sheet = [c for c in calls if c.ok and c.method == "sendDocument"]  # the CSV, then the XLSX
    name, data = doc.files["document"]
    xlsx_name, xlsx = sheet.files["document"]
    assert xlsx_name == name.removesuffix(".csv") + ".xlsx"
    book = openpyxl.load_workbook(io.BytesIO(xlsx))
    assert sum(Decimal(str(row[5])) for row in book.worksheets[0].iter_rows(min_row=2, values_only=True)) \
        == Decimal("0.10")
    assert name == f"kasse-{GROUP.id}-{rows_season(data)}.csv"
    rows = list(csv.reader(io.StringIO(data.decode("utf-8-sig"))))
    assert [r[3] for r in rows[1:]] == ["from the throws"] * 4 + ["paid"]
    assert sum(float(r[5]) for r in rows[1:]) == pytest.approx(0.10)
    assert "Anna" in doc.text or "cash book" in doc.text


def rows_season(data: bytes) -> str:
    """The season the file's lines were booked in (its second column)."""
    return next(csv.reader(io.StringIO(data.decode("utf-8-sig").splitlines()[1])))[1]


async def test_a_linked_members_statement_goes_privately_on_telegram(standin: StandIn, club: Club) -> None:
    """/kasse me: to the member's private chat (sendMessage to their user id); before they started the bot
    (Telegram answers 403), the group is told how to open the private chat, as for /mydata — the statement
    itself never goes to the group."""
    standin.admins[GROUP.id] = [DAVE]
    zeb = User(id=4909, first_name="Zebediah", username="zeb_quux", language_code="en")
    standin.blocked.add(zeb.id)  # Zeb has never started the bot
    await club.act(club.say(GROUP, zeb, "hello"))
    await club.act(club.say(GROUP, DAVE, "/kasse on"))
    linked = said(await club.act(club.say(GROUP, DAVE, "/kasse member Zeb Q @Zebediah")))
    assert "Zeb Q is a member of the cash box now, linked to Zebediah" in linked, linked
    await club.act(club.say(GROUP, DAVE, "/kasse fine Zeb Q 0,30 phone at the table"))
    calls = await club.act(club.say(GROUP, zeb, "/kasse me"))
    assert not [c for c in calls if c.ok and c.chat_id == zeb.id]
    assert "Open a private chat with me" in said(calls) and "phone at the table" not in said(calls)
    await club.act(club.say(Chat.private(zeb), zeb, "/start"))
    calls = await club.act(club.say(GROUP, zeb, "/kasse me"))
    private = said(calls, zeb.id)
    assert "Zeb Q: balance €0.30" in private and "— phone at the table" in private, private
    assert "phone at the table" not in said(calls)  # nothing of it in the group
    calls = await club.act(club.say(GROUP, BOB, "/kasse me"))  # not linked: nobody's statement
    assert "not linked to a member" in said(calls) + said(calls, BOB.id) and not said(calls, BOB.id).count("€")
