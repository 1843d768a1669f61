"""/mydata as a person reads it and a program parses it (issue 40): every section explained in the reader's
language, every time ISO 8601 in the reader's zone (no Unix seconds), a skill rating as /rating shows it beside
its raw mu and sigma, a practice grade and an achievement in the reader's words beside the stored code."""

from __future__ import annotations

import json
from datetime import datetime, timedelta
from typing import Any
from zoneinfo import ZoneInfo

from bot.app.app import App
from bot.texts.i18n import Catalogs
from tests.app.harness import PLATFORM
from tests.yourdata.players import ZEB_ID, People, practice_won, rated_duel
from tests.yourdata.test_mydata import the_file

RU = Catalogs().catalogs["ru"]
TIMES = {"at", "created", "updated", "started", "finished", "set_at", "starts", "exported"}


def times(value: Any, key: str = "") -> list[Any]:
    """Every value of a time field anywhere in the file."""
    if isinstance(value, dict):
        return [t for k, v in value.items() for t in times(v, k)]
    if isinstance(value, list):
        return [t for v in value for t in times(v, key)]
    return [value] if key in TIMES and value is not None else []


async def test_mydata_is_explained_in_the_readers_language_with_times_in_their_zone(app: App) -> None:
    t = People(app, locale="ru")
    await rated_duel(t, "alice", "zeb")
    await practice_won(t, "zeb")
    await app.store.set_chat_tz(PLATFORM, ZEB_ID, "Europe/Moscow")  # /timezone in the private chat
    data = the_file(await t.say("zeb", "/mydata"), ZEB_ID)  # asked in the group, sent privately
    json.loads(json.dumps(data))  # plain JSON
    assert data["format"] == "mydata/2" and data["language"] == "ru" and data["time_zone"] == "Europe/Moscow"
    assert data["about"].startswith("Всё, что бот хранит о тебе")
    sections = [*data["tables"].values(), data["games"]]
    assert sections and all(isinstance(s["about"], str) and s["about"] and "rows" in s for s in sections)
    assert data["tables"]["results"]["about"].startswith("Твой результат")
    found = times(data)
    assert found and all(isinstance(v, str) for v in found), [v for v in found if not isinstance(v, str)]
    moscow = ZoneInfo("Europe/Moscow")
    for v in found:
        at = datetime.fromisoformat(v)
        assert at.utcoffset() == at.astimezone(moscow).utcoffset() == timedelta(hours=3), v
    rating = data["tables"]["ratings"]["rows"][0]
    assert rating["rating"] == round(rating["mu"] - 3 * rating["sigma"], 1)  # as /rating shows it, raw beside
    practice = next(r for r in data["tables"]["results"]["rows"] if r["kind"] == "practice")
    assert practice["rating_code"] in {"Genie", "Profi", "Solide", "Geknackt"}
    assert practice["rating"] == RU[f"rating.{practice['rating_code']}"]  # "Профи", not the stored "Profi"
    assert practice["game"] == RU["game.practice"]
    assert all(g["game"] == RU[f"game.{g['kind']}"] for g in data["games"]["rows"])
