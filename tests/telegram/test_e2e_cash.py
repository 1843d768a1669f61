"""The cash box on Telegram, end to end: the real PTB adapter against the stand-in and the real App on a
real SQLite file. Whether a sender administers the group is what Telegram's getChatAdministrators says
(the stand-in's `admins`, https://core.telegram.org/bots/api#getchatadministrators); the cash book comes
as a document (sendDocument); a button naming another group does nothing there."""

from __future__ import annotations

import csv
import io

import pytest

from tests.telegram.standin import Call, Chat, StandIn
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
    assert "Anna: owes €0.10" in view.text and "paid in so far: €0.50" in view.text, view.text
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
    (doc,) = [c for c in calls if c.ok and c.method == "sendDocument"]
    name, data = doc.files["document"]
    assert name == f"kasse-{GROUP.id}-{rows_season(data)}.csv"
    rows = list(csv.reader(io.StringIO(data.decode("utf-8-sig"))))
    assert [r[3] for r in rows[1:]] == ["auto", "auto", "auto", "auto", "payment"]
    assert sum(float(r[5]) for r in rows[1:]) == pytest.approx(0.10)
    assert "Anna" in doc.text or "cash book" in doc.text


def rows_season(data: bytes) -> str:
    """The season the file's lines were booked in (its second column)."""
    return next(csv.reader(io.StringIO(data.decode("utf-8-sig").splitlines()[1])))[1]
