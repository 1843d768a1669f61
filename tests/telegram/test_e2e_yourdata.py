"""/mydata and /forgetme end to end on Telegram: the real PTB Application polling the strict stand-in Bot API
(which answers 403 to a private message for a user who never started the bot), the real App on a real SQLite
file. The file goes privately as a document; a player the bot cannot write to is told in the group how to
open the private chat; after /forgetme no column of the database holds the player's id, first name or
username, and another player's press of the confirmation does nothing."""

from __future__ import annotations

import json
import sqlite3

import pytest

from tests.telegram.standin import StandIn
from tests.telegram.standin_objects import Chat, User
from tests.telegram.test_e2e_app import ALICE, GROUP, Club, answers, sent
from tests.yourdata.players import traces

pytestmark = pytest.mark.filterwarnings("ignore::telegram.warnings.PTBDeprecationWarning")

ZEB = User(id=4909, first_name="Zebediah", username="zeb_quux", language_code="en")


def practice_secret(club: Club) -> str:
    with sqlite3.connect(club.db_path) as conn:
        (state,), = conn.execute("SELECT state FROM games WHERE kind = 'practice' AND over = 0").fetchall()
    return str(json.loads(state)["secret"])


async def test_mydata_privately_or_how_to_open_the_chat_then_forgetme(standin: StandIn, club: Club) -> None:
    standin.blocked.add(ZEB.id)  # Zeb has never started the bot
    await club.act(club.say(GROUP, ZEB, "/practice"))
    await club.act(club.say(GROUP, ZEB, practice_secret(club)))
    calls = await club.act(club.say(GROUP, ZEB, "/mydata"))
    assert not [c for c in calls if c.ok and c.chat_id == ZEB.id]  # refused: 403 for a user who never started it
    assert any("Open a private chat with me" in c.text for c in sent(calls, GROUP.id))
    assert not [c for c in calls if c.method == "sendDocument" and c.ok]  # the file never goes to the group

    await club.act(club.say(Chat.private(ZEB), ZEB, "/start"))
    calls = await club.act(club.say(GROUP, ZEB, "/mydata"))
    (doc,) = [c for c in calls if c.method == "sendDocument" and c.ok]
    assert doc.chat_id == ZEB.id and doc.files["document"][0] == "mydata.json"
    data = json.loads(doc.files["document"][1])
    assert data["user_id"] == str(ZEB.id) and data["tables"]["users"]["rows"][0]["name"] == "Zebediah"
    assert [g["kind"] for g in data["games"]["rows"]] == ["practice"]

    calls = await club.act(club.say(GROUP, ZEB, "/forgetme"))
    (ask,) = [c for c in sent(calls, GROUP.id) if "this erases your data" in c.text]
    button = str(ask.buttons[0]["callback_data"])
    calls = await club.act(club.press(ALICE, ask, button))
    assert any("Only the player who sent /forgetme here" in n.get("text", "") for n in answers(calls))
    calls = await club.act(club.press(ZEB, ask, button))
    assert any("I have forgotten you" in c.text for c in sent(calls, GROUP.id))
    assert club.app is not None
    assert await traces(club.app, str(club.db_path), (str(ZEB.id), "Zebediah", "zeb_quux")) == []
