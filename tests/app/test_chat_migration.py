"""A Telegram group that becomes a supergroup takes all its rows along (bot/storage/store.py
`migrate_chat`: the shared tables' moves plus each game's `Schema.chat_moves`): after the move no table
of the database that has a chat id still holds the old one — found by reading the schema, so a table a
game adds later and forgets to move fails here."""

from __future__ import annotations

import sqlite3

from bot.app.app import App
from bot.schedule.scheduler import schedule_job
from core.messages import Actor, Inbound
from tests.app.harness import GROUP, PLATFORM, Table, texts
from tests.club.harness import appoint
from tests.games.kegeln.test_rules import SEED_THROWS

NEW = "supergroup-1"


def tables_with_chat_id(db: str) -> list[str]:
    with sqlite3.connect(db) as conn:
        names = [r[0] for r in conn.execute("SELECT name FROM sqlite_master WHERE type = 'table'")]
        return [n for n in names if any(c[1] == "chat_id" for c in conn.execute(f"PRAGMA table_info({n})"))]


def rows_of(db: str, chat_id: str) -> dict[str, int]:
    with sqlite3.connect(db) as conn:
        counts = {t: conn.execute(f"SELECT COUNT(*) FROM {t} WHERE chat_id = ?", (chat_id,)).fetchone()[0]
                  for t in tables_with_chat_id(db)}
    return {t: n for t, n in counts.items() if n}


async def test_every_table_with_a_chat_id_moves_to_the_supergroup(app: App, table: Table, db: str) -> None:
    await appoint(table, "alice")  # a club game: its rows, and the club's own, move too
    r = await table.say("alice", "/kegeln high 3 Birgit Klaus Sven Hanne")
    assert "Hausnummern #" in texts(r)
    for pins, pos in SEED_THROWS:
        r = await table.say("alice", f"/wurf {pins} {10 ** pos}")
    assert "Winner: Sven" in texts(r)
    await table.say("bob", "/daily")  # draws the chat's puzzle of the day
    await table.say("alice", "/duel bob")  # a challenge: a game, a seat
    await app.store.run(schedule_job("kegeln", PLATFORM, GROUP.chat_id, "evening", 2e9, {}, 1e6))
    await app.handle(Inbound(Actor(PLATFORM, "root", "Root", is_admin=True), GROUP, command="posts",
                             args=("morning", "08:00")))  # the chat's own posts (bot/retention/)
    await table.say("bob", "/pings on")
    before = rows_of(db, GROUP.chat_id)
    assert {"games", "seats", "kegeln_games", "kegeln_members", "kegeln_throws", "daily_puzzles",
            "scheduled_jobs", "chat_members", "chat_posts", "ping_optins"} <= set(before), before

    await app.store.migrate_chat(PLATFORM, GROUP.chat_id, NEW)

    assert rows_of(db, GROUP.chat_id) == {}
    assert rows_of(db, NEW) == before
