"""SQLite driver of the store (aiosqlite): WAL, one writer connection with group commit, one reader.

The queries and write jobs are bot/storage/store.py's; this module runs them. Every write is a job
run inside a savepoint of a shared `BEGIN IMMEDIATE` transaction; the writer commits as many queued
jobs as it has in one durable commit and only then reports them done. A job that fails rolls back to
its own savepoint, so it never harms the others in the batch. A job runs in the writer's thread
without suspending (`run_sync`): its Tx executes each statement there and then.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import os
import sqlite3
from collections.abc import Awaitable, Callable, Iterable, Mapping, Sequence
from pathlib import Path
from typing import Any

import aiosqlite

from bot.storage.base import StoreOpenError, StoreUnavailable
from bot.storage.migrations import MIGRATIONS
from bot.storage.schemas import (
    READ_VERSION,
    VERSIONS_TABLE,
    WRITE_VERSION,
    Schema,
    check_owners,
    statements,
    upgrade_list,
)
from bot.storage.sql import Query, TxJob, run_sync
from bot.storage.store import SqlStore

log = logging.getLogger(__name__)
Job = Callable[[sqlite3.Connection], Any]  # a raw job on the writer's connection (see _run for SqlStore's)


class SqliteTx:
    """A write job's transaction on the writer's connection, in the writer's thread: each await
    returns at once (the statement ran), so `run_sync` drives the whole job in one go."""

    def __init__(self, conn: sqlite3.Connection) -> None:
        self.conn = conn

    async def execute(self, q: Query, **params: Any) -> None:
        self.conn.execute(q.sqlite, q.args("sqlite", params))

    async def executemany(self, q: Query, rows: Sequence[Mapping[str, Any]]) -> None:
        self.conn.executemany(q.sqlite, q.rows("sqlite", rows))

    async def fetchrow(self, q: Query, **params: Any) -> Sequence[Any] | None:
        # every row fetched: a statement stepped to its end (RETURNING included) leaves nothing open
        rows = self.conn.execute(q.sqlite, q.args("sqlite", params)).fetchall()
        return rows[0] if rows else None

    async def fetch(self, q: Query, **params: Any) -> list[Sequence[Any]]:
        return list(self.conn.execute(q.sqlite, q.args("sqlite", params)).fetchall())

    async def fetchval(self, q: Query, **params: Any) -> Any:
        row = await self.fetchrow(q, **params)
        return None if row is None else row[0]

    async def insert_unique(self, q: Query, **params: Any) -> bool:
        try:  # SQLite undoes the failed statement alone; the transaction goes on
            self.conn.execute(q.sqlite, q.args("sqlite", params))
        except sqlite3.IntegrityError:
            return False
        return True

    async def lock_chat(self, platform: str, chat_id: str) -> None:
        """Nothing to lock: the one writer runs jobs one after another."""

    async def lock_table(self, table: str) -> None:
        """Nothing to lock: the one writer runs jobs one after another."""


class SqliteStore(SqlStore):
    def __init__(self, path: str, synchronous: str = "FULL", batch_max: int = 256, busy_timeout_ms: int = 5000,
                 schemas: Sequence[Schema] = ()) -> None:
        check_owners(schemas)
        self.schemas = tuple(schemas)  # the games' own tables, applied after the shared list (bot/storage/schemas.py)
        self.busy_timeout_ms = busy_timeout_ms
        self.path = path
        self.synchronous = synchronous
        self.batch_max = batch_max
        self._w: aiosqlite.Connection | None = None
        self._r: aiosqlite.Connection | None = None
        self._queue: asyncio.Queue[tuple[Job, asyncio.Future[Any]]] = asyncio.Queue()
        self._writer: asyncio.Task[None] | None = None

    # ------------------------------------------------------------ lifecycle
    async def open(self) -> None:
        """Open and migrate, or raise StoreOpenError (one line: what is wrong, where) with no
        connection left open: a connection's thread left running keeps the process from exiting."""
        try:
            self._w = await self._connect()
            try:
                await self._migrate(self._w)
                self._r = await self._connect()
            except BaseException:
                await self._w.close()
                self._w = None
                raise
        except sqlite3.Error as exc:
            raise StoreOpenError(f"cannot open the database {self.path}: {_why_unopened(self.path, exc)}") from None
        self._writer = asyncio.create_task(self._write_loop(), name="sqlite-writer")

    async def _connect(self) -> aiosqlite.Connection:
        conn = aiosqlite.connect(self.path, isolation_level=None)
        try:
            await conn
        except BaseException:
            # aiosqlite queues its thread's stop without waiting for it; a thread that answers after
            # the event loop closed prints a traceback. Wait until it has finished.
            thread = getattr(conn, "_thread", None)
            if thread is not None and thread.is_alive():
                await asyncio.to_thread(thread.join, 5)
            raise
        try:
            # secure_delete: a deleted or rewritten row's bytes are zeroed, not left in a freed page (/forgetme)
            for pragma in ("journal_mode=WAL", f"busy_timeout={self.busy_timeout_ms}", "foreign_keys=ON",
                           f"synchronous={self.synchronous}", "secure_delete=ON"):
                await conn.execute(f"PRAGMA {pragma}")
        except BaseException:
            await conn.close()
            raise
        return conn

    async def _migrate(self, conn: aiosqlite.Connection) -> None:
        """The shared list (its version in `PRAGMA user_version`), then each game's own (its version in
        `schema_versions`), every entry in its own transaction with its number."""
        cur = await conn.execute("PRAGMA user_version")
        (version,) = await cur.fetchone() or (0,)

        async def in_tx(sql: str, record: Callable[[], Awaitable[Any]]) -> None:
            await conn.execute("BEGIN IMMEDIATE")
            try:
                for stmt in statements(sql):
                    await conn.execute(stmt)
                await record()
                await conn.execute("COMMIT")
            except BaseException:
                await conn.execute("ROLLBACK")
                raise

        async def apply(number: int, sql: str) -> None:
            await in_tx(sql, lambda: conn.execute(f"PRAGMA user_version={number}"))

        await upgrade_list("sqlite", self.path, "", MIGRATIONS, version, apply)
        if not self.schemas:
            return
        await conn.execute(VERSIONS_TABLE)
        for schema in self.schemas:
            cur = await conn.execute(READ_VERSION.sqlite, READ_VERSION.args("sqlite", {"owner": schema.owner}))
            (owned,) = await cur.fetchone() or (0,)

            async def apply_owned(number: int, sql: str, owner: str = schema.owner) -> None:
                params = {"owner": owner, "version": number}
                await in_tx(sql, lambda: conn.execute(WRITE_VERSION.sqlite, WRITE_VERSION.args("sqlite", params)))

            await upgrade_list("sqlite", self.path, schema.owner, schema.migrations, owned, apply_owned)

    async def close(self) -> None:
        if self._writer:
            await self._queue.join()
            self._writer.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._writer
        for conn in (self._r, self._w):
            if conn:
                await conn.close()
        self._w = self._r = None

    async def scrub(self, tables: Sequence[str]) -> bool:
        """No old copy of erased rows left on disk (/forgetme): `secure_delete` (on every connection) has
        zeroed what the erase freed in the file; here the write-ahead log, whose older frames still hold
        the rows as they were, is copied into the file and truncated to nothing. Between the writer's
        batches, on its connection; a reader in the middle of a read makes it try again (20 times).
        True when the log is empty. (`tables`: PostgreSQL's twin vacuums them; SQLite needs no names.)"""
        assert self._w is not None
        for _ in range(20):
            cur = await self._w.execute("PRAGMA wal_checkpoint(TRUNCATE)")
            row = await cur.fetchone()
            if row is not None and row[0] == 0:
                return True
            await asyncio.sleep(0.05)
        return False

    # ------------------------------------------------------------ the writer
    async def _write(self, job: Job) -> Any:
        fut: asyncio.Future[Any] = asyncio.get_running_loop().create_future()
        await self._queue.put((job, fut))
        return await fut

    async def _write_loop(self) -> None:
        assert self._w is not None
        conn = self._w
        in_thread: Callable[..., Awaitable[Any]] = conn._execute  # aiosqlite's own hop into its thread
        while True:
            batch = [await self._queue.get()]
            while len(batch) < self.batch_max and not self._queue.empty():
                batch.append(self._queue.get_nowait())
            try:
                # the whole batch is ONE call into the connection's thread: one hop, one commit
                outcomes = await in_thread(_run_batch, conn._conn, [job for job, _ in batch])
            except Exception as exc:  # the commit itself failed: nothing in the batch is durable
                outcomes = [(None, exc)] * len(batch)
            for (_, fut), (value, error) in zip(batch, outcomes, strict=True):
                if isinstance(error, sqlite3.OperationalError | sqlite3.DatabaseError) \
                        and not isinstance(error, sqlite3.IntegrityError):
                    error = _unavailable(error)
                if not fut.done():
                    if error is None:
                        fut.set_result(value)
                    else:
                        fut.set_exception(error)
            for _ in batch:
                self._queue.task_done()

    async def _read(self, sql: str, params: Iterable[Any] = ()) -> list[sqlite3.Row]:
        assert self._r is not None
        # execute and fetch in ONE call on the reader thread: interleaved open statements of
        # concurrent readers would share one read transaction and pin an old WAL snapshot
        return list(await self._r.execute_fetchall(sql, tuple(params)))

    # ------------------------------------------------------------ what SqlStore runs on
    async def fetch(self, query: Query, **params: Any) -> list[Sequence[Any]]:
        rows: list[Any] = await self._read(query.sqlite, query.args("sqlite", params))  # sqlite3.Row is a Sequence
        return rows

    async def run(self, job: TxJob) -> Any:
        return await self._write(lambda conn: run_sync(job(SqliteTx(conn))))

    def submit(self, job: TxJob) -> asyncio.Future[Any]:
        """Queue the job without waiting: it joins the batch of the move the same inbound causes."""
        fut: asyncio.Future[Any] = asyncio.get_running_loop().create_future()
        self._queue.put_nowait((lambda conn: run_sync(job(SqliteTx(conn))), fut))
        return fut


def _run_batch(conn: sqlite3.Connection, jobs: Sequence[Job]) -> list[tuple[Any, BaseException | None]]:
    """In the writer thread: every job in its own savepoint of one durable transaction.
    A failing job rolls back to its savepoint and fails alone; a failing commit fails all."""
    outcomes: list[tuple[Any, BaseException | None]] = []
    conn.execute("BEGIN IMMEDIATE")
    try:
        for job in jobs:
            conn.execute("SAVEPOINT job")
            try:
                outcomes.append((job(conn), None))
            except Exception as exc:  # the job's own failure, e.g. a seat conflict
                if not conn.in_transaction:  # SQLite rolled back everything (disk full, I/O error):
                    raise  # no job of this batch is stored, so every one of them fails with this error
                conn.execute("ROLLBACK TO job")
                outcomes.append((None, exc))
            conn.execute("RELEASE job")
        conn.execute("COMMIT")
    except BaseException:
        if conn.in_transaction:
            conn.execute("ROLLBACK")
        raise
    return outcomes


def _why_unopened(path: str, error: sqlite3.Error) -> str:
    """SQLite's reason, or for "unable to open database file" the likelier cause it leaves unsaid."""
    if "unable to open" in str(error) and path != ":memory:" and not path.startswith("file:"):
        file, folder = Path(path), Path(path).parent
        if not folder.is_dir():
            return f"the directory {folder} does not exist"
        if not os.access(folder, os.W_OK | os.X_OK):
            return f"the directory {folder} is not writable (SQLite keeps its -wal and -shm files beside the database)"
        if file.exists() and not os.access(file, os.R_OK | os.W_OK):
            return f"{file} is not readable and writable"
    return str(error)


def _unavailable(error: BaseException) -> StoreUnavailable:
    """A clear reason for a failed write, logged once in one line (never with parameters)."""
    text = str(error).lower()
    reason = "busy" if ("locked" in text or "busy" in text) else "full" if "full" in text else "error"
    log.error("database write failed (%s): %s", reason, error)
    return StoreUnavailable(reason, str(error))
