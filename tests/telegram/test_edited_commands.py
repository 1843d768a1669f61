"""Edits of commands (issue 35): a command carried out once is never carried out again by an edit of its
message. Telegram sends an edit as an `edited_message` update with the message's own id and an
`edit_date` (https://core.telegram.org/bots/api#update, #message); the stand-in's `user_edit` does so.
The real PTB adapter and the real App on a real SQLite file."""

from __future__ import annotations

import pytest

from tests.telegram.standin import StandIn
from tests.telegram.standin_calls import Call
from tests.telegram.test_delete_rights import edit
from tests.telegram.test_e2e_app import ALICE, GROUP, Club, Deed
from tests.telegram.test_e2e_games import DAVE

pytestmark = pytest.mark.filterwarnings("ignore::telegram.warnings.PTBDeprecationWarning")


def said(calls: list[Call]) -> str:
    return "\n".join(c.text for c in calls if c.ok and c.chat_id == GROUP.id)


async def test_an_edited_payment_is_not_booked_again(standin: StandIn, club: Club) -> None:
    standin.admins[GROUP.id] = [DAVE]
    await club.act(club.say(GROUP, DAVE, "/kasse on"))
    await club.act(club.say(GROUP, DAVE, "/kegeln high 2 Anna Ben"))
    await club.act(club.say(GROUP, DAVE, "/wurf 0 10"))
    message: dict[str, object] = {}
    calls = await club.act(Deed(GROUP, DAVE, lambda: message.update(
        standin.user_message(GROUP, DAVE, "/kasse pay Anna 0,10"))))
    message_id = int(str(message["message_id"]))
    assert "Anna paid €0.10" in said(calls), said(calls)
    for amount in ("0,05", "0,02"):  # edited twice: booked neither time, and said so
        calls = await club.act(edit(club, DAVE, message_id, f"/kasse pay Anna {amount}"))
        assert "paid" not in said(calls), said(calls)
        assert "not carried out again" in said(calls), said(calls)
    view = said(await club.act(club.say(GROUP, ALICE, "/kasse")))
    assert "Paid in: €0.10" in view, view


async def test_a_refused_command_corrected_by_an_edit_runs_once(standin: StandIn, club: Club) -> None:
    standin.admins[GROUP.id] = [DAVE]
    await club.act(club.say(GROUP, DAVE, "/kasse on"))
    await club.act(club.say(GROUP, DAVE, "/kegeln high 2 Anna Ben"))
    await club.act(club.say(GROUP, DAVE, "/wurf 0 10"))
    message: dict[str, object] = {}
    await club.act(Deed(GROUP, DAVE, lambda: message.update(standin.user_message(GROUP, DAVE, "/kasse pay Anna zehn"))))
    message_id = int(str(message["message_id"]))
    calls = await club.act(edit(club, DAVE, message_id, "/kasse pay Anna 0,10"))
    assert "Anna paid €0.10" in said(calls), said(calls)
    calls = await club.act(edit(club, DAVE, message_id, "/kasse pay Anna 0,20"))
    assert "paid" not in said(calls) and "not carried out again" in said(calls), said(calls)
    view = said(await club.act(club.say(GROUP, ALICE, "/kasse")))
    assert "Paid in: €0.10" in view, view
