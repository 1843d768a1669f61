"""Issue 36.4, /forgetme leaves nothing on disk: right after the erase, the raw bytes of the SQLite file and
its write-ahead log hold neither the player's id nor their name (the WAL held them hundreds of times
until a later checkpoint; freed pages kept old rows), and the log the bot wrote at INFO — the whole
session, not only the forget — never names them (a person appears there only as a keyed hash, drawn
anew at each start). Through the real App on a real SQLite file, scanned while the App still runs."""

from __future__ import annotations

import logging
from pathlib import Path

import pytest

from bot.app.app import App
from core.messages import Chat
from tests.app.conftest import Clock
from tests.app.harness import PLATFORM, texts
from tests.yourdata.players import (
    ZEB_ID,
    ZEB_NAME,
    People,
    daily_solved,
    kegeln_scored,
    logik_won,
    practice_won,
    rated_duel,
)
from tests.yourdata.test_forgetme import confirm

NEEDLES = (ZEB_ID, ZEB_NAME, "Zebediah")


def on_disk(db: str) -> dict[str, list[str]]:
    """Which needles the database file and its WAL hold, as raw bytes (UTF-8, SQLite's text encoding)."""
    found: dict[str, list[str]] = {}
    for suffix in ("", "-wal", "-journal"):
        path = Path(db + suffix)
        if path.exists():
            raw = path.read_bytes()
            found[path.name] = [n for n in NEEDLES if n.encode("utf-8") in raw or n.lower().encode() in raw]
    return found


async def test_nothing_of_them_on_disk_or_in_the_log(app: App, db: str, clock: Clock,
                                                     caplog: pytest.LogCaptureFixture) -> None:
    caplog.set_level(logging.INFO)
    t = People(app)
    for _ in range(3):
        await rated_duel(t, "alice", "zeb")
        clock.now += 60
    await logik_won(t, "zeb", "alice")
    await practice_won(t, "zeb")
    await daily_solved(t, "zeb")
    await kegeln_scored(t, "zeb")
    await t.say("zeb", "/lang de", Chat(PLATFORM, ZEB_ID, private=True))
    await t.say("zeb", "/stats")
    assert any(on_disk(db).values())  # the scan finds them before
    r = await t.press("zeb", await confirm(t))
    assert "forgotten you" in texts(r) or "vergessen" in texts(r), texts(r)
    assert on_disk(db) == {Path(db).name: [], **({Path(db + "-wal").name: []}
                                                 if Path(db + "-wal").exists() else {})}
    logged = caplog.text
    assert "forgotten" in logged  # the forget is logged …
    assert [n for n in NEEDLES if n.lower() in logged.lower()] == []  # … and no line names them
