"""The club as a club on Telegram, end to end (issue 34): the real PTB adapter against the stand-in and the
real App on a real SQLite file. Dave administers the group (getChatAdministrators, the stand-in's `admins`)
and keeps the cash box; he appoints Alice the club's scorer with /club. Her evening books its fines and
fills the club's table; beside it Mallory, a plain member, plays the issue's attack — `/kegeln high 2
Mallory Klaus` thrown 9/0/9/0 — which is a casual game: it says so, books nothing for Klaus and changes no
record or rating. Mallory cannot appoint herself either."""

from __future__ import annotations

import pytest

from bot.storage.sql import Query
from tests.telegram.standin import StandIn
from tests.telegram.standin_calls import Call
from tests.telegram.standin_objects import User
from tests.telegram.test_e2e_app import ALICE, GROUP, Club
from tests.telegram.test_e2e_games import DAVE

pytestmark = pytest.mark.filterwarnings("ignore::telegram.warnings.PTBDeprecationWarning")

MALLORY = User(id=4666, first_name="Mallory", username="mallory_k", language_code="en")


def said(calls: list[Call]) -> str:
    return "\n".join(c.text for c in calls if c.ok and c.chat_id == GROUP.id)


async def game(club: Club, who: User, names: str, throws: tuple[str, ...]) -> str:
    out = said(await club.act(club.say(GROUP, who, f"/kegeln high 2 {names}")))
    for throw in throws:
        out += "\n" + said(await club.act(club.say(GROUP, who, f"/wurf {throw}")))
    return out


async def test_a_club_evening_and_a_casual_game_beside_it(standin: StandIn, club: Club) -> None:
    standin.admins[GROUP.id] = [DAVE]
    assert "The cash box is on (EUR)" in said(await club.act(club.say(GROUP, DAVE, "/kasse on")))
    await club.act(club.say(GROUP, ALICE, "hello"))
    refused = said(await club.act(club.say(GROUP, MALLORY, "/club scorer Mallory")))
    assert "Only a chat admin appoints" in refused, refused
    appointed = said(await club.act(club.say(GROUP, DAVE, "/club scorer Alice")))
    assert "Alice is now one of the club's scorers" in appointed, appointed

    evening = await game(club, ALICE, "Birgit Klaus", ("0 10", "5 10", "3", "5"))  # Birgit 03, Klaus 55
    assert "Winner: Klaus" in evening and "Casual" not in evening, evening
    assert club.app is not None
    book = Query("SELECT member, SUM(amount) FROM kegel_cash_book GROUP BY member ORDER BY member")
    before = [tuple(r) for r in await club.app.store.fetch(book)]
    assert before == [("birgit", 60)], before  # her Pumpe and last place
    records = Query("SELECT (SELECT COUNT(*) FROM kegeln_members), (SELECT COUNT(*) FROM ratings)")
    kept = [tuple(r) for r in await club.app.store.fetch(records)]

    attack = await game(club, MALLORY, "Mallory Klaus", ("9 10", "0 10", "9 1", "0 1"))
    assert "A casual game: Mallory is not one of the club's scorers" in attack, attack
    assert "Casual game — counts nothing for the club" in attack, attack
    assert [tuple(r) for r in await club.app.store.fetch(book)] == before  # Klaus owes nothing
    assert [tuple(r) for r in await club.app.store.fetch(records)] == kept
    table = said(await club.act(club.say(GROUP, MALLORY, "/kegelstats")))
    assert "Klaus" in table and "Mallory" not in table, table
    roster = said(await club.act(club.say(GROUP, MALLORY, "/club")))
    assert "• Birgit" in roster and "• Klaus" in roster and "Mallory" not in roster, roster
