"""Issue 23.5: the computer opponent's level for a rematch is read from the last game of the same
kind against the bot — a Logik game against the strong bot in between leaves an easy duel easy."""

from __future__ import annotations

from pathlib import Path

from bot.games.computer.storage import bot_level
from bot.storage.sqlite import SqliteStore
from core.games.challenge_events import BotLevel


async def test_a_rematch_takes_the_level_of_its_own_kind(tmp_path: Path) -> None:
    store = SqliteStore(str(tmp_path / "levels.sqlite3"))
    await store.open()
    async def ended(kind: str, level: str, at: float) -> int:
        game_id = await store.create_game("p", "c", False, kind, {"v": 0}, ["ann"], [BotLevel(level)], at)
        row = await store.get_game(game_id)
        assert row is not None
        await store.save_game(row, {"v": 1}, True, [], [], [], at + 1)
        return game_id

    try:
        duel = await ended("duel", "easy", 1.0)
        logik = await ended("logik", "strong", 2.0)
        rematch = await store.create_game("p", "c", False, "duel", {"v": 0}, ["ann"], [], 3.0)
        assert await bot_level(store, "p", "c", "duel", rematch, "ann") == "easy"
        assert await bot_level(store, "p", "c", "logik", logik, "ann") == "strong"
        assert await bot_level(store, "p", "c", "duel", duel, "ann") == "easy"
    finally:
        await store.close()
