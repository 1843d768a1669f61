"""The event log reads back as the code before typed events wrote it: events of every game, made by
seeded games (tests/app/recorded_events.py), go through the real Store into a SQLite file; the rows
stored (type and JSON text) are the ones the dict-based events wrote (tests/app/events_recorded.json,
recorded with that code), character for character; and the log read back gives each event again, as
its game's typed event. The computer opponent's "bot" event (logged by bot/, read back by SQL for its
level) is checked the same way."""

from __future__ import annotations

import json
import sqlite3
from pathlib import Path

from bot.games.computer.storage import bot_level
from bot.games.registry import GAMES
from bot.storage.sqlite import SqliteStore
from core.games.base import Logged
from core.games.challenge_events import BotLevel
from tests.app.recorded_events import RECORDED, seeded_events


async def test_stored_events_are_the_rows_the_dict_events_wrote(tmp_path: Path) -> None:
    recorded = json.loads(RECORDED.read_text(encoding="utf-8"))
    made = seeded_events()
    assert [[kind, e.type] for kind, e in made] == [[kind, t] for kind, t, _ in recorded]
    path = tmp_path / "log.sqlite3"
    store = SqliteStore(str(path))
    await store.open()
    games: dict[str, int] = {}
    try:
        for kind in dict.fromkeys(k for k, _ in made):
            events = [e for k, e in made if k == kind]
            games[kind] = await store.create_game("p", kind, False, kind, {"v": 0}, [], events, 1.0)
        for kind, gid in games.items():
            read = [row.read(GAMES[kind].events) for row in await store.event_log(gid)]
            assert read == [e for k, e in made if k == kind], kind
        bot_game = await store.create_game("p", "c", False, "duel", {"v": 0}, ["ann"], [BotLevel("easy")], 2.0)
        assert await bot_level(store, "p", "c", "duel", bot_game, "ann") == "easy"
        assert await store.event_log(bot_game) == [Logged("bot", {"level": "easy"})]
    finally:
        await store.close()
    with sqlite3.connect(path) as db:
        for kind, gid in games.items():
            rows = [list(r) for r in db.execute("SELECT type, data FROM events WHERE game_id = ? ORDER BY id", (gid,))]
            assert rows == [[t, data] for k, t, data in recorded if k == kind], kind
        old_bot_row = ["bot", json.dumps({"level": "easy"})]  # as bot/games/duel.py wrote it with a dict
        assert [list(r) for r in db.execute("SELECT type, data FROM events WHERE game_id = ?", (bot_game,))] == [
            old_bot_row]
