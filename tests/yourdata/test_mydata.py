"""/mydata through the real App on a real database: the player's own rows and games as a JSON file, sent
privately also when asked in a group; no other player's secret of a running game, nothing of another player."""

from __future__ import annotations

import json
from typing import Any

from bot.app.app import App
from core.messages import Actor, Chat, Response
from tests.app.harness import PLATFORM
from tests.yourdata.players import ZEB_ID, ZEB_NAME, People, daily_solved, practice_won, rated_duel


def the_file(r: Response, to: str) -> dict[str, Any]:
    files = [m for m in r.messages if m.file is not None]
    assert len(files) == 1
    out = files[0]
    assert isinstance(out.to, Actor) and out.to.user_id == to  # privately, to the one who asked
    assert out.file is not None and out.file[0] == "mydata.json"
    data: dict[str, Any] = json.loads(out.file[1])
    return data


async def test_mydata_sends_the_players_own_data_privately(app: App) -> None:
    t = People(app)
    await rated_duel(t, "alice", "zeb")
    await practice_won(t, "zeb")
    await daily_solved(t, "zeb")
    await rated_duel(t, "alice", "carol")  # not Zeb's
    # a running duel: Zeb's opponent's secret is in its state, and must not be in the file
    r = await t.say("carol", f"/duel <@{ZEB_ID}>")
    accept = t.button(r, ":accept")
    await t.press("zeb", accept)
    await t.dm("carol", "9876")
    await t.dm("zeb", "5678")

    r = await t.say("zeb", "/mydata")
    assert all(not (isinstance(m.to, Chat) and not m.to.private) for m in r.messages)  # nothing in the group
    shown = next(m for m in r.messages if m.file is not None)
    assert "here is everything I keep about you" in shown.text and shown.fallback is not None
    assert "Open a private chat with me" in shown.fallback.text  # where the platform cannot write privately
    data = the_file(r, ZEB_ID)
    tables = {t: section["rows"] for t, section in data["tables"].items()}
    assert tables["users"][0]["name"] == ZEB_NAME
    assert {row["kind"] for row in tables["results"]} == {"duel", "practice"}
    assert all(row["user_id"] == ZEB_ID for rows in tables.values() for row in rows if "user_id" in row)
    assert len(tables["daily_plays"]) == 1 and tables["ratings"]
    games = data["games"]["rows"]
    kinds = sorted(g["kind"] for g in games)
    assert kinds == ["daily", "duel", "duel", "practice"]
    running = [g for g in games if not g["over"]]
    assert len(running) == 1 and "state" not in running[0] and "events" not in running[0]
    text = json.dumps(data)
    assert "9876" not in text  # Carol's secret of the running game
    finished = [g for g in games if g["over"] and g["kind"] == "duel"]
    assert finished[0]["events"] and finished[0]["state"]["phase"] == "finished"
    # the game between Alice and Carol is not Zeb's
    assert all(ZEB_ID in json.dumps(g["state"]) for g in games if "state" in g)


async def test_mydata_privately_in_german(app: App) -> None:
    t = People(app, locale="de")
    await practice_won(t, "zeb")
    r = await t.say("zeb", "/meinedaten", Chat(PLATFORM, ZEB_ID, private=True))
    shown = next(m for m in r.messages if m.file is not None)
    assert "hier ist alles, was ich über dich speichere" in shown.text and shown.to == Chat(PLATFORM, ZEB_ID, True)
