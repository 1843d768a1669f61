"""The scorer's pin pad on Telegram, end to end (the real PTB Application against the strict stand-in, the
real App on a SQLite file): the standings message carries the pins 0–9, then the places, so a throw is two
taps and the one message is edited in place; within Telegram's inline keyboards (at most 8 buttons a row,
100 in all — not in the Bot API's reference; the sources are in tests/telegram/botapi_rules.py, whose limits
the stand-in enforces), six places in two rows; typing stays possible; a non-scorer's press and a press from
another chat change nothing."""

from __future__ import annotations

from typing import Any

import pytest

from core import serial
from core.games.kegeln.state import State, shown
from tests.telegram.standin import StandIn
from tests.telegram.standin_calls import Call
from tests.telegram.standin_objects import Chat
from tests.telegram.test_e2e_app import ALICE, BOB, GROUP, Club, Deed, sent

pytestmark = pytest.mark.filterwarnings("ignore::telegram.warnings.PTBDeprecationWarning")
OTHER = Chat(id=-100778, type="group", title="Another club")


def keys(call: Call) -> list[list[str]]:
    """The keyboard's rows as callback data (the adapter's settle mark taken off)."""
    markup = call.params.get("reply_markup") or {}
    rows = markup.get("inline_keyboard", []) if isinstance(markup, dict) else []
    return [[str(b.get("callback_data", "")).lstrip("!") for b in row] for row in rows]


def within_telegram(call: Call) -> None:
    rows = keys(call)
    assert all(len(r) <= 8 for r in rows) and sum(map(len, rows)) <= 100, rows


async def state_of(club: Club, game: int) -> State:
    assert club.app is not None
    row = await club.app.store.get_game(game)
    assert row is not None
    loaded: State = serial.load(State, row.state)
    return loaded


async def test_a_throw_is_two_taps_on_the_one_message(standin: StandIn, club: Club) -> None:
    calls = await club.act(club.say(GROUP, ALICE, "/kegeln high 6 Anna Ben Cleo"))
    standings = [c for c in sent(calls, GROUP.id) if keys(c)][-1]
    game = int(keys(standings)[0][0].split(":")[1])
    message_id = standings.result["message_id"]
    assert keys(standings) == [[f"g:{game}:n{n}" for n in range(5)], [f"g:{game}:n{n}" for n in range(5, 10)]]
    labels = [b["text"] for row in standings.params["reply_markup"]["inline_keyboard"] for b in row]
    assert labels == [str(n) for n in range(10)]
    within_telegram(standings)

    # tap 1: the pins — the same message now offers the six places, two rows of three, and Undo
    calls = await club.act(club.press(ALICE, standings, f"g:{game}:n7"))
    (edit,) = sent(calls, GROUP.id)
    assert edit.method == "editMessageText" and edit.params["message_id"] == message_id
    assert keys(edit) == [[f"g:{game}:p5", f"g:{game}:p4", f"g:{game}:p3"],
                          [f"g:{game}:p2", f"g:{game}:p1", f"g:{game}:p0"], [f"g:{game}:undo"]]
    within_telegram(edit)

    # tap 2: the place — the throw is in, the pad is back on the same message
    calls = await club.act(club.press(ALICE, edit, f"g:{game}:p5"))
    (edit,) = sent(calls, GROUP.id)
    assert edit.method == "editMessageText" and edit.params["message_id"] == message_id
    assert "Anna 7_____" in edit.text
    assert keys(edit)[:2] == [[f"g:{game}:n{n}" for n in range(5)], [f"g:{game}:n{n}" for n in range(5, 10)]]
    assert keys(edit)[2] == [f"g:{game}:undo"]

    # typing stays possible, and edits the same message
    calls = await club.act(club.say(GROUP, ALICE, "/wurf 3 100000"))
    (edit,) = sent(calls, GROUP.id)
    assert edit.method == "editMessageText" and edit.params["message_id"] == message_id and "Ben  3_____" in edit.text

    # a member who is not the scorer taps: nothing changes
    before = await state_of(club, game)
    await club.act(club.press(BOB, edit, f"g:{game}:n9"))
    assert (await state_of(club, game)) == before

    # the same button pressed in another chat (forged there): nothing changes here
    await club.act(club.say(OTHER, ALICE, "/help"))
    forged: Any = lambda: standin.press(OTHER, ALICE, 1, f"g:{game}:n9")  # noqa: E731
    await club.act(Deed(OTHER, ALICE, forged))
    after = await state_of(club, game)
    assert after == before and shown(after, 2) == "______" and after.pending is None
