"""The club evenings' own storage (/termin): the tables (`EVENING_MIGRATIONS`, bot/club/schema.py), the
evening and its ✅/❌ answers, and the write jobs that set, move and cancel an evening together with its
reminders (bot/schedule/scheduler.py jobs of owner `OWNER`) in one transaction."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from bot.schedule.scheduler import cancel_job, schedule_job
from bot.storage.base import Store
from bot.storage.migrations import Migration
from bot.storage.sql import Query, Tx, TxJob
from core.club.termin import REMINDERS, Answer, reminders

OWNER = "club_evenings"  # the scheduler's owner of the reminders (bot/club/evenings/termin.py `reminder` runs them;
# the club's migration 2 gave the reminders set before it this owner)

EVENING_MIGRATIONS: tuple[Migration, ...] = (
    # 1: a club's evenings (/termin) and who answered ✅ or ❌ (one answer per account and evening)
    Migration("""
    CREATE TABLE kegel_evening_dates (
        id        {SERIAL} PRIMARY KEY,
        platform  TEXT NOT NULL,
        chat_id   TEXT NOT NULL,
        starts    {REAL} NOT NULL,
        note      TEXT NOT NULL,
        set_by    TEXT NOT NULL,
        set_at    {REAL} NOT NULL,
        shown     INTEGER NOT NULL,
        cancelled {REAL}
    );
    CREATE INDEX kegel_evening_dates_chat ON kegel_evening_dates (platform, chat_id, id);
    CREATE TABLE kegel_evening_answers (
        evening_id {BIGINT} NOT NULL REFERENCES kegel_evening_dates (id),
        user_id    TEXT NOT NULL,
        name       TEXT NOT NULL,
        yes        INTEGER NOT NULL,
        at         {REAL} NOT NULL,
        PRIMARY KEY (evening_id, user_id)
    );
    """),
)

# A Telegram group became a supergroup: its evenings move along (the answers hang on the evening; the
# reminders are scheduled_jobs rows, which the shared moves take)
EVENING_CHAT_MOVES = (
    Query("UPDATE kegel_evening_dates SET chat_id = :new WHERE platform = :platform AND chat_id = :old"),
)

_COLS = "id, platform, chat_id, starts, note, set_by, shown, cancelled"
CURRENT = Query(f"SELECT {_COLS} FROM kegel_evening_dates WHERE platform = :platform AND chat_id = :chat_id"
                " AND cancelled IS NULL AND starts > :now ORDER BY id DESC LIMIT 1")
BY_ID = Query(f"SELECT {_COLS} FROM kegel_evening_dates WHERE id = :id")
INSERT = Query("INSERT INTO kegel_evening_dates (platform, chat_id, starts, note, set_by, set_at, shown)"
               " VALUES (:platform, :chat_id, :starts, :note, :set_by, :now, 0) RETURNING id")
MOVE = Query("UPDATE kegel_evening_dates SET starts = :starts, note = :note, set_by = :set_by, set_at = :now,"
             " shown = shown + 1 WHERE id = :id")
CANCEL = Query("UPDATE kegel_evening_dates SET cancelled = :now WHERE id = :id AND cancelled IS NULL")
SHOW = Query("UPDATE kegel_evening_dates SET shown = shown + 1 WHERE id = :id RETURNING shown")
CLEAR = Query("DELETE FROM kegel_evening_answers WHERE evening_id = :id")
ANSWER = Query(
    "INSERT INTO kegel_evening_answers (evening_id, user_id, name, yes, at)"
    " VALUES (:id, :user_id, :name, :yes, :now)"
    " ON CONFLICT (evening_id, user_id) DO UPDATE SET yes = excluded.yes, name = excluded.name, at = excluded.at"
    " WHERE kegel_evening_answers.yes <> excluded.yes RETURNING evening_id")
ANSWERS = Query("SELECT user_id, name, yes, at FROM kegel_evening_answers WHERE evening_id = :id"
                " ORDER BY at, user_id")


@dataclass(frozen=True)
class Evening:
    """A club's planned evening: where, when it starts (Unix time), the note, who set it (user id), which
    list message shows it (`shown`: a new list message is a new edit key), and whether it was cancelled."""

    id: int
    platform: str
    chat_id: str
    starts: float
    note: str
    set_by: str
    shown: int
    cancelled: float | None

    @classmethod
    def of(cls, row: Sequence[Any]) -> Evening:
        id_, platform, chat_id, starts, note, set_by, shown, cancelled = row
        return cls(int(id_), platform, chat_id, float(starts), note, set_by, int(shown),
                   None if cancelled is None else float(cancelled))

    @property
    def edit_key(self) -> str:
        """The one list message the answers keep up to date (`Message.edit_key`)."""
        return f"termin:{self.id}:{self.shown}"


@dataclass(frozen=True)
class Planned:
    """What setting an evening did: the evening as it now stands, whether it moved an evening that was set
    already (its answers were asked again if the time changed: `cleared`)."""

    evening: Evening
    moved: bool
    cleared: bool
    same: bool = False  # set again as it was (the same time, no other note): nothing changed


def reminder_key(evening_id: int, name: str) -> str:
    return f"termin:{evening_id}:{name}"


async def current(store: Store, platform: str, chat_id: str, now: float) -> Evening | None:
    """The chat's next evening: set, not cancelled, not yet begun."""
    rows = await store.fetch(CURRENT, platform=platform, chat_id=chat_id, now=now)
    return Evening.of(rows[0]) if rows else None


async def evening(store: Store, evening_id: int) -> Evening | None:
    rows = await store.fetch(BY_ID, id=evening_id)
    return Evening.of(rows[0]) if rows else None


async def answers(store: Store, evening_id: int) -> list[Answer]:
    return [Answer(u, n, bool(y), float(a)) for u, n, y, a in await store.fetch(ANSWERS, id=evening_id)]


async def _schedule(tx: Tx, ev_id: int, platform: str, chat_id: str, starts: float, now: float) -> None:
    """The evening's reminders, due a day and an hour before `starts` (moved if set; one already past at
    `now` removed): in the transaction that sets the evening."""
    ahead = dict(reminders(starts, now))
    for name, _before in REMINDERS:
        key = reminder_key(ev_id, name)
        if name in ahead:
            await schedule_job(OWNER, platform, chat_id, key, ahead[name], {"evening": ev_id, "starts": starts},
                               now)(tx)
        else:
            await cancel_job(OWNER, platform, chat_id, key)(tx)


def plan_job(platform: str, chat_id: str, starts: float, note: str, set_by: str, now: float) -> TxJob:
    """Set the chat's next evening (or move the one set: a new time asks everyone again) and its reminders,
    in one transaction; returns a `Planned`."""
    async def job(tx: Tx) -> Planned:
        await tx.lock_chat(platform, chat_id)  # two /termin at once on PostgreSQL: one after the other
        row = await tx.fetchrow(CURRENT, platform=platform, chat_id=chat_id, now=now)
        if row is None:
            ev_id = int(await tx.fetchval(INSERT, platform=platform, chat_id=chat_id, starts=starts, note=note,
                                          set_by=set_by, now=now))
            moved = cleared = same = False
        else:
            old = Evening.of(row)
            kept = note or old.note  # moved without a note: the place stays (issue 34)
            ev_id, moved, cleared = old.id, True, old.starts != starts
            same = not cleared and kept == old.note
            if cleared:
                await tx.execute(CLEAR, id=ev_id)
            await tx.execute(MOVE, id=ev_id, starts=starts, note=kept, set_by=set_by, now=now)
        await _schedule(tx, ev_id, platform, chat_id, starts, now)
        found = await tx.fetchrow(BY_ID, id=ev_id)
        assert found is not None
        return Planned(Evening.of(found), moved, cleared, same)
    return job


def cancel_plan_job(platform: str, chat_id: str, now: float) -> TxJob:
    """Cancel the chat's next evening and its reminders; returns the evening, or None if none was set."""
    async def job(tx: Tx) -> Evening | None:
        await tx.lock_chat(platform, chat_id)
        row = await tx.fetchrow(CURRENT, platform=platform, chat_id=chat_id, now=now)
        if row is None:
            return None
        ev = Evening.of(row)
        await tx.execute(CANCEL, id=ev.id, now=now)
        for name, _before in REMINDERS:
            await cancel_job(OWNER, platform, chat_id, reminder_key(ev.id, name))(tx)
        return ev
    return job


def show_job(evening_id: int) -> TxJob:
    """A new list message for the evening (the old one stays, no longer kept up to date): its edit key's number."""
    async def job(tx: Tx) -> int:
        return int(await tx.fetchval(SHOW, id=evening_id))
    return job


def answer_job(evening_id: int, platform: str, chat_id: str, user_id: str, name: str, yes: bool,
               now: float) -> TxJob:
    """A member's ✅ or ❌ for the evening, if it is this chat's, not cancelled and not begun: returns the
    evening and whether the answer changed anything (the same answer again changes nothing), or None."""
    async def job(tx: Tx) -> tuple[Evening, bool] | None:
        row = await tx.fetchrow(BY_ID, id=evening_id)
        ev = Evening.of(row) if row is not None else None
        if ev is None or (ev.platform, ev.chat_id) != (platform, chat_id) or ev.cancelled is not None \
                or ev.starts <= now:
            return None
        changed = await tx.fetch(ANSWER, id=evening_id, user_id=user_id, name=name, yes=int(yes), now=now)
        return ev, bool(changed)
    return job
