"""The bot's own posts at a set time: jobs persisted in the database, claimed by one process, run once.

A feature that wants the bot to post by itself (a club evening's reminder, a morning summary, a
weekly table) writes a job — `schedule_job(...)`, a write job that can run in the move's own
transaction — with an owner (which handler runs it: a game's kind or a feature's name), the chat,
a key unique in that chat for that owner (writing the same key again moves the job, it never makes a
second one), the time it is due and a JSON payload. `Scheduler.tick()` (the entry point calls it
every few seconds, tests call it with an injected clock) takes the due jobs and runs each one's
handler, which returns what to post.

Once, across restarts and processes:
- A job is *claimed* by a conditional UPDATE (`lease_until` free or expired → this process, for
  `lease` seconds). On PostgreSQL a second process's UPDATE of the same row waits for the first one's
  commit and then finds the row taken (the WHERE is evaluated again on the new row version), so two
  processes never both hold a job; SQLite has one writer anyway.
- The handler builds the messages; the job is marked *done* in its own transaction; only then are the
  messages handed out for sending. A crash before that commit leaves the job due (the lease expires
  and the next tick, in this process after a restart or in another, runs it again: nothing was sent);
  a crash between the commit and the send loses that one post (a window of one send). So a restart
  never doubles a post, and a bot that was down at the due time posts on its first tick after it.
- A handler that fails is retried after `RETRY` seconds, at most `ATTEMPTS` times, then given up
  (logged). A handler decides itself what a late job means (`Job.late`): a reminder for an evening
  that has already begun is better not posted (it returns no messages).
"""

from __future__ import annotations

import json
import logging
from collections.abc import Awaitable, Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from bot.storage.base import Store
from bot.storage.sql import Query, Tx, TxJob

log = logging.getLogger(__name__)

LEASE = 120.0  # seconds a claimed job is this process's before another may take it (a handler is fast)
RETRY = 60.0  # seconds after a failed handler before its job is tried again
ATTEMPTS = 5  # failed runs after which a job is given up
BATCH = 50  # jobs claimed by one tick

_COLS = "id, owner, platform, chat_id, key, due, payload, attempts"

_UPSERT = Query(
    "INSERT INTO scheduled_jobs (owner, platform, chat_id, key, due, payload, attempts, created)"
    " VALUES (:owner, :platform, :chat_id, :key, :due, :payload, 0, :now)"
    " ON CONFLICT (owner, platform, chat_id, key) DO UPDATE"
    " SET due = excluded.due, payload = excluded.payload, done = NULL, attempts = 0, lease_until = NULL,"
    " leased_by = NULL")
_CANCEL = Query("DELETE FROM scheduled_jobs WHERE owner = :owner AND platform = :platform"
                " AND chat_id = :chat_id AND key = :key AND done IS NULL")
_CLAIM = Query(
    f"UPDATE scheduled_jobs SET lease_until = :until, leased_by = :holder"
    f" WHERE id IN (SELECT id FROM scheduled_jobs WHERE done IS NULL AND due <= :now"
    f" AND (lease_until IS NULL OR lease_until < :now) ORDER BY due, id LIMIT :batch)"
    f" AND done IS NULL AND (lease_until IS NULL OR lease_until < :now)"
    f" RETURNING {_COLS}")
_DONE = Query("UPDATE scheduled_jobs SET done = :now, lease_until = NULL"
              " WHERE id = :id AND leased_by = :holder AND done IS NULL RETURNING id")
_FAILED = Query("UPDATE scheduled_jobs SET attempts = attempts + 1, lease_until = :until"
                " WHERE id = :id AND leased_by = :holder AND done IS NULL")
_GIVE_UP = Query("UPDATE scheduled_jobs SET done = :now, lease_until = NULL, attempts = attempts + 1"
                 " WHERE id = :id AND leased_by = :holder AND done IS NULL")
_PENDING = Query(f"SELECT {_COLS} FROM scheduled_jobs WHERE owner = :owner AND platform = :platform"
                 " AND chat_id = :chat_id AND done IS NULL ORDER BY due, id")


@dataclass(frozen=True)
class Job:
    """One due job as its handler sees it: whose, for which chat, what, when it was due, and how late
    the tick that runs it is (`late`: seconds after `due`)."""

    id: int
    owner: str
    platform: str
    chat_id: str
    key: str
    due: float
    payload: dict[str, Any]
    attempts: int
    late: float = 0.0

    @classmethod
    def of(cls, row: Sequence[Any], now: float = 0.0) -> Job:
        id_, owner, platform, chat_id, key, due, payload, attempts = row
        return cls(int(id_), owner, platform, chat_id, key, float(due), json.loads(payload), int(attempts),
                   max(0.0, now - float(due)))


Handler = Callable[[Job], Awaitable[Sequence[Any]]]  # a due job → what to post (e.g. Outbounds), maybe none


def schedule_job(owner: str, platform: str, chat_id: str, key: str, due: float,
                 payload: Mapping[str, Any], now: float) -> TxJob:
    """A write job that sets the job `key` of `owner` in the chat to be due at `due` (a new one, or
    the same one moved; a done one is armed again): run it with `store.run`, or in a move's
    transaction among that move's writes."""
    text = json.dumps(dict(payload), sort_keys=True, separators=(",", ":"))

    async def job(tx: Tx) -> None:
        await tx.execute(_UPSERT, owner=owner, platform=platform, chat_id=chat_id, key=key, due=due,
                         payload=text, now=now)
    return job


def cancel_job(owner: str, platform: str, chat_id: str, key: str) -> TxJob:
    """A write job that removes the pending job `key` of `owner` in the chat (nothing if none)."""
    async def job(tx: Tx) -> None:
        await tx.execute(_CANCEL, owner=owner, platform=platform, chat_id=chat_id, key=key)
    return job


async def pending(store: Store, owner: str, platform: str, chat_id: str) -> list[Job]:
    """The chat's jobs of `owner` not yet run, soonest first."""
    return [Job.of(r) for r in await store.fetch(_PENDING, owner=owner, platform=platform, chat_id=chat_id)]


class Scheduler:
    """Runs the due jobs of this process's tick with their owners' handlers (see the module's text)."""

    def __init__(self, store: Store, clock: Callable[[], float], holder: str,
                 handlers: Mapping[str, Handler] | None = None, *, lease: float = LEASE) -> None:
        self.store = store
        self.clock = clock
        self.holder = holder  # this process's name in a lease (host and pid in the entry point)
        self.handlers: dict[str, Handler] = dict(handlers or {})
        self.lease = lease

    def register(self, owner: str, handler: Handler) -> None:
        """The handler of `owner`'s jobs (one per owner; a second replaces the first)."""
        self.handlers[owner] = handler

    async def tick(self) -> list[Any]:
        """Claim the due jobs, run each one's handler and mark it done; returns what the handlers
        want posted, in the order the jobs were due. A job whose owner has no handler in this process
        is left for one that has (its lease runs out)."""
        now = self.clock()
        holder = self.holder

        async def claim(tx: Tx) -> list[Sequence[Any]]:
            return await tx.fetch(_CLAIM, until=now + self.lease, holder=holder, now=now, batch=BATCH)

        rows = await self.store.run(claim)
        posts: list[Any] = []
        for job in sorted((Job.of(r, now) for r in rows), key=lambda j: (j.due, j.id)):
            handler = self.handlers.get(job.owner)
            if handler is None:
                log.warning("scheduled job %d of %r: no handler in this process", job.id, job.owner)
                continue
            try:
                out = list(await handler(job))
            except Exception:
                log.exception("scheduled job %d (%s %s %s) failed", job.id, job.owner, job.chat_id, job.key)
                await self._failed(job)
                continue
            if await self._finish(job):
                posts.extend(out)
        return posts

    async def _finish(self, job: Job) -> bool:
        """Mark the job done (only if this process still holds it); whether it did."""
        holder, now = self.holder, self.clock()

        async def done(tx: Tx) -> bool:
            rows = await tx.fetch(_DONE, id=job.id, holder=holder, now=now)
            return bool(rows)
        finished: bool = await self.store.run(done)
        if not finished:
            log.warning("scheduled job %d: its lease was taken over before it finished; not posted here", job.id)
        return finished

    async def _failed(self, job: Job) -> None:
        holder, now = self.holder, self.clock()
        query = _GIVE_UP if job.attempts + 1 >= ATTEMPTS else _FAILED

        async def failed(tx: Tx) -> None:
            await tx.execute(query, id=job.id, holder=holder, now=now, until=now + RETRY)
        await self.store.run(failed)
        if query is _GIVE_UP:
            log.error("scheduled job %d (%s %s): given up after %d attempts", job.id, job.owner, job.key, ATTEMPTS)
