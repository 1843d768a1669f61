"""The club's wing on an existing database: the evenings' reminders that Hausnummern's plugin ran before
(scheduler owner `kegeln`) are moved to the club's own owner by the `club` schema's entry 2, once, and are
posted by the club as before (SQLite here, PostgreSQL in tests/postgres/test_club_pg.py)."""

from __future__ import annotations

from bot.app.app import App
from bot.club.evenings import storage as tstore
from bot.schedule.scheduler import pending
from bot.storage.sql import Query, Tx
from tests.app.conftest import Clock
from tests.app.harness import GROUP, PLATFORM
from tests.club.test_termin_app import START, Club, plan

AS_BEFORE = (  # the database as the bot before the wing left it: the reminders the game's, the club at 1
    Query("UPDATE scheduled_jobs SET owner = 'kegeln' WHERE owner = 'club_evenings'"),
    Query("UPDATE schema_versions SET version = 1 WHERE owner = 'club'"),
)


async def test_the_reminders_of_an_older_bot_are_the_club_s_and_posted(db: str) -> None:
    clock = Clock()
    app = await App.open(db, seed=1, clock=clock)
    try:
        await plan(Club(app), clock)

        async def older(tx: Tx) -> None:
            for q in AS_BEFORE:
                await tx.execute(q)
        await app.store.run(older)
        assert [j.key for j in await pending(app.store, "kegeln", PLATFORM, GROUP.chat_id)] == [
            "termin:1:day", "termin:1:hour"]
    finally:
        await app.close()
    clock.now = START - 86_400 + 5
    app = await App.open(db, seed=1, clock=clock)  # the new bot on it: the club's migration 2
    try:
        assert await pending(app.store, "kegeln", PLATFORM, GROUP.chat_id) == []
        assert [j.key for j in await pending(app.store, tstore.OWNER, PLATFORM, GROUP.chat_id)] == [
            "termin:1:day", "termin:1:hour"]
        (day,) = await app.scheduler.tick()
        assert day.to == GROUP and day.text.startswith("⏰ Tomorrow is club evening: Sat, Dec 12, 2026, 19:30")
        assert [b.action for row in day.buttons for b in row] == ["kegeln:group-1:t1y", "kegeln:group-1:t1n"]
        assert await app.scheduler.tick() == []
    finally:
        await app.close()
