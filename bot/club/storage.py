"""The club's own tables (Schema `club`): its appointed roles and its roster, their reads and write jobs.

`club_roles`: who holds a role a chat admin appointed (the scorers), per chat. `club_members`: the
club's members as names (`member` is `core.names.key` of the name, per chat), each optionally linked
to a chat account: `user_id` with `linked` 1 (confirmed, or linked by an admin or the treasurer) or 0
(asked for by the member, waiting for a confirmation)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import NamedTuple

from bot.storage.base import Store
from bot.storage.migrations import Migration
from bot.storage.schemas import Schema
from bot.storage.sql import Query, Tx, TxJob

MIGRATIONS: tuple[Migration, ...] = (
    # 1: the roles a chat admin appoints, and the roster — seeded with every name of the club's records so
    # far (today's club games stay club games, their members the club's members; nothing else changes)
    Migration("""
    CREATE TABLE club_roles (
        platform  TEXT NOT NULL,
        chat_id   TEXT NOT NULL,
        user_id   TEXT NOT NULL,
        role      TEXT NOT NULL,
        name      TEXT NOT NULL,
        by_id     TEXT NOT NULL,
        at        {REAL} NOT NULL,
        PRIMARY KEY (platform, chat_id, role, user_id)
    );
    CREATE TABLE club_members (
        platform  TEXT NOT NULL,
        chat_id   TEXT NOT NULL,
        member    TEXT NOT NULL,
        name      TEXT NOT NULL,
        user_id   TEXT,
        linked    INTEGER NOT NULL DEFAULT 0,
        added_by  TEXT NOT NULL,
        at        {REAL} NOT NULL,
        PRIMARY KEY (platform, chat_id, member)
    );
    CREATE INDEX club_members_user ON club_members (platform, chat_id, user_id);
    INSERT INTO club_members (platform, chat_id, member, name, added_by, at)
    SELECT k.platform, k.chat_id, k.member,
           (SELECT k2.name FROM kegeln_members k2 WHERE k2.platform = k.platform AND k2.chat_id = k.chat_id
             AND k2.member = k.member ORDER BY k2.at DESC, k2.game_id DESC LIMIT 1),
           '', MIN(k.at)
    FROM kegeln_members k GROUP BY k.platform, k.chat_id, k.member;
    """),
    # 2: the evenings' reminders run by the club (bot/club/evenings/), no longer by its game's plugin
    Migration("""
    UPDATE scheduled_jobs SET owner = 'club_evenings' WHERE owner = 'kegeln' AND key LIKE 'termin:%';
    """),
)

# a Telegram group that became a supergroup takes its club along
CHAT_MOVES = tuple(
    Query(f"UPDATE {table} SET chat_id = :new WHERE platform = :platform AND chat_id = :old")
    for table in ("club_roles", "club_members"))

SCHEMA = Schema("club", MIGRATIONS, chat_moves=CHAT_MOVES)


class Holder(NamedTuple):
    user_id: str
    name: str


class Member(NamedTuple):
    """A roster line: the key, the name as the club writes it, the linked account (None), confirmed."""

    member: str
    name: str
    user_id: str | None
    linked: bool


_WHERE = "platform = :platform AND chat_id = :chat_id"
ROLES_OF = Query(f"SELECT role FROM club_roles WHERE {_WHERE} AND user_id = :user_id")
HOLDERS = Query(f"SELECT user_id, name FROM club_roles WHERE {_WHERE} AND role = :role"
                ' ORDER BY at, user_id COLLATE "C"')
APPOINT = Query(
    "INSERT INTO club_roles (platform, chat_id, user_id, role, name, by_id, at)"
    " VALUES (:platform, :chat_id, :user_id, :role, :name, :by_id, :at)"
    " ON CONFLICT (platform, chat_id, role, user_id) DO UPDATE SET name = excluded.name")
DISMISS = Query(f"DELETE FROM club_roles WHERE {_WHERE} AND role = :role AND user_id = :user_id RETURNING name")
MEMBERS = Query(f'SELECT member, name, user_id, linked FROM club_members WHERE {_WHERE} ORDER BY member COLLATE "C"')
MEMBER = Query(f"SELECT member, name, user_id, linked FROM club_members WHERE {_WHERE} AND member = :member")
ADD = Query(
    "INSERT INTO club_members (platform, chat_id, member, name, added_by, at)"
    " VALUES (:platform, :chat_id, :member, :name, :by_id, :at) ON CONFLICT (platform, chat_id, member) DO NOTHING")
REMOVE = Query(f"DELETE FROM club_members WHERE {_WHERE} AND member = :member RETURNING name")
LINK = Query(f"UPDATE club_members SET user_id = :user_id, linked = :linked WHERE {_WHERE} AND member = :member")
UNLINK_USER = Query(f"UPDATE club_members SET user_id = NULL, linked = 0 WHERE {_WHERE} AND user_id = :user_id"
                    " AND member <> :member")
LINKED_TO = Query(f"SELECT member, name, user_id, linked FROM club_members WHERE {_WHERE} AND user_id = :user_id"
                  " AND linked = 1")


def _member(r: Sequence[object]) -> Member:
    return Member(str(r[0]), str(r[1]), None if r[2] is None else str(r[2]), bool(r[3]))


async def roles_of(store: Store, platform: str, chat_id: str, user_id: str) -> set[str]:
    """The roles a chat admin appointed `user_id` to here (the treasurer's is the cash box's)."""
    return {str(r[0]) for r in await store.fetch(ROLES_OF, platform=platform, chat_id=chat_id, user_id=user_id)}


async def holders(store: Store, platform: str, chat_id: str, role: str) -> list[Holder]:
    return [Holder(str(r[0]), str(r[1])) for r in await store.fetch(HOLDERS, platform=platform, chat_id=chat_id,
                                                                    role=role)]


def appoint_job(platform: str, chat_id: str, role: str, user_id: str, name: str, by_id: str, at: float) -> TxJob:
    async def job(tx: Tx) -> None:
        await tx.execute(APPOINT, platform=platform, chat_id=chat_id, role=role, user_id=user_id, name=name,
                         by_id=by_id, at=at)
    return job


def dismiss_job(platform: str, chat_id: str, role: str, user_id: str) -> TxJob:
    """Removes the role; the job returns the holder's name, or None when they held none."""
    async def job(tx: Tx) -> str | None:
        row = await tx.fetchrow(DISMISS, platform=platform, chat_id=chat_id, role=role, user_id=user_id)
        return None if row is None else str(row[0])
    return job


async def roster(store: Store, platform: str, chat_id: str) -> list[Member]:
    return [_member(r) for r in await store.fetch(MEMBERS, platform=platform, chat_id=chat_id)]


async def member(store: Store, platform: str, chat_id: str, key: str) -> Member | None:
    rows = await store.fetch(MEMBER, platform=platform, chat_id=chat_id, member=key)
    return _member(rows[0]) if rows else None


async def linked_member(store: Store, platform: str, chat_id: str, user_id: str) -> Member | None:
    """The member an account is linked to (confirmed) in this club, or None: for a member's own statement."""
    rows = await store.fetch(LINKED_TO, platform=platform, chat_id=chat_id, user_id=user_id)
    return _member(rows[0]) if rows else None


async def add_in(tx: Tx, platform: str, chat_id: str, names: dict[str, str], by_id: str, at: float) -> list[str]:
    """Adds the names (key → name as written) not on the roster yet; returns those added (as written)."""
    added = []
    for key, name in names.items():
        if await tx.fetchrow(MEMBER, platform=platform, chat_id=chat_id, member=key) is None:
            await tx.execute(ADD, platform=platform, chat_id=chat_id, member=key, name=name, by_id=by_id, at=at)
            added.append(name)
    return added


def add_job(platform: str, chat_id: str, names: dict[str, str], by_id: str, at: float) -> TxJob:
    async def job(tx: Tx) -> list[str]:
        return await add_in(tx, platform, chat_id, names, by_id, at)
    return job


def remove_job(platform: str, chat_id: str, key: str) -> TxJob:
    async def job(tx: Tx) -> str | None:
        row = await tx.fetchrow(REMOVE, platform=platform, chat_id=chat_id, member=key)
        return None if row is None else str(row[0])
    return job


def link_job(platform: str, chat_id: str, key: str, user_id: str | None, linked: bool) -> TxJob:
    """Links the member to an account (`linked`: confirmed), or unlinks them (`user_id` None); an account is
    linked to one member of a club at a time (its other link goes)."""
    async def job(tx: Tx) -> None:
        if user_id is not None and linked:
            await tx.execute(UNLINK_USER, platform=platform, chat_id=chat_id, user_id=user_id, member=key)
        await tx.execute(LINK, platform=platform, chat_id=chat_id, member=key, user_id=user_id, linked=int(linked))
    return job
