"""PostgreSQL driver of the store (asyncpg) for several bot processes on one database.

The queries and write jobs are bot/storage/store.py's, the same as on SQLite; this module runs them:
every write job in ONE transaction on a pooled connection (a deadlock or serialization failure
retries it whole), so a game's move is a compare-and-set across processes (Conflict when another
process won), and a lost connection, a full disk or an overloaded server becomes StoreUnavailable
(nothing of the write is stored). Game creations in one chat take an advisory lock until commit, so
their bounds hold across processes; migrations run under an advisory lock, by one process at a time.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable, Mapping, Sequence
from typing import Any

import asyncpg

from bot.process.ops import redact
from bot.storage.base import StoreOpenError, StoreUnavailable
from bot.storage.migrations import MIGRATIONS
from bot.storage.schemas import READ_VERSION, VERSIONS_TABLE, WRITE_VERSION, Schema, check_owners, upgrade_list
from bot.storage.sql import Query, TxJob
from bot.storage.store import SqlStore

log = logging.getLogger(__name__)
PgJob = Callable[[asyncpg.Connection], Awaitable[Any]]  # a raw job on the transaction's connection
_MIGRATION_LOCK = 0x6368_6774  # advisory lock key: one process migrates at a time
_CREATE_LOCK = 0x6761_6D65  # advisory lock class: one game creation per chat at a time (its bounds)
_RETRIES = 3  # deadlock / serialization failure: the transaction is retried whole

# errors that mean "the database could not take it", by reason
_BUSY = (asyncpg.InsufficientResourcesError, asyncpg.LockNotAvailableError, asyncpg.QueryCanceledError,
         asyncpg.TransactionRollbackError, asyncpg.CannotConnectNowError, TimeoutError)
_ERROR = (OSError, asyncpg.PostgresConnectionError, asyncpg.InterfaceError, asyncpg.OperatorInterventionError,
          asyncpg.PostgresSystemError, asyncpg.InternalServerError, asyncpg.ReadOnlySQLTransactionError)


class PgTx:
    """A write job's transaction on one pooled connection."""

    def __init__(self, conn: asyncpg.Connection) -> None:
        self.conn = conn

    async def execute(self, q: Query, **params: Any) -> None:
        await self.conn.execute(q.postgres, *q.args("postgres", params))

    async def executemany(self, q: Query, rows: Sequence[Mapping[str, Any]]) -> None:
        if rows:
            await self.conn.executemany(q.postgres, q.rows("postgres", rows))

    async def fetchrow(self, q: Query, **params: Any) -> Sequence[Any] | None:
        row: Sequence[Any] | None = await self.conn.fetchrow(q.postgres, *q.args("postgres", params))
        return row

    async def fetch(self, q: Query, **params: Any) -> list[Sequence[Any]]:
        return list(await self.conn.fetch(q.postgres, *q.args("postgres", params)))

    async def fetchval(self, q: Query, **params: Any) -> Any:
        return await self.conn.fetchval(q.postgres, *q.args("postgres", params))

    async def insert_unique(self, q: Query, **params: Any) -> bool:
        try:  # in a savepoint: the violation undoes this statement, not the whole transaction
            async with self.conn.transaction():
                await self.conn.execute(q.postgres, *q.args("postgres", params))
        except asyncpg.UniqueViolationError:
            return False
        return True

    async def lock_chat(self, platform: str, chat_id: str) -> None:
        await self.conn.execute("SELECT pg_advisory_xact_lock($1, hashtext($2 || ':' || $3))",
                                _CREATE_LOCK, platform, chat_id)

    async def lock_table(self, table: str) -> None:
        await self.conn.execute(f"LOCK TABLE {table} IN EXCLUSIVE MODE")  # readers go on, writers wait


class PostgresStore(SqlStore):
    def __init__(self, url: str, min_size: int = 1, max_size: int = 10, timeout: float = 10.0,
                 schemas: Sequence[Schema] = ()) -> None:
        check_owners(schemas)
        self.schemas = tuple(schemas)  # the games' own tables, applied after the shared list (bot/storage/schemas.py)
        self.url = url
        self.min_size = min_size
        self.max_size = max_size
        self.timeout = timeout
        self._pool: asyncpg.Pool | None = None
        self._pending: set[asyncio.Future[Any]] = set()

    # ------------------------------------------------------------ lifecycle
    async def open(self) -> None:
        """Connect and migrate, or raise StoreOpenError: one line that says what is wrong and where
        (the URL without its password) — no server, refused login, a schema from a newer bot."""
        try:
            self._pool = await asyncpg.create_pool(self.url, min_size=self.min_size, max_size=self.max_size,
                                                   command_timeout=self.timeout, timeout=self.timeout)
        except (*_BUSY, *_ERROR, asyncpg.PostgresError) as exc:
            raise StoreOpenError(f"cannot open the database {redact(self.url)}: "
                                 f"{str(exc) or type(exc).__name__}") from None
        try:
            async with self._pool.acquire() as conn:
                await self._migrate(conn)
        except BaseException:
            await self._pool.close()
            self._pool = None
            raise

    async def _migrate(self, conn: asyncpg.Connection) -> None:
        await conn.execute("SELECT pg_advisory_lock($1)", _MIGRATION_LOCK)
        try:
            await conn.execute("CREATE TABLE IF NOT EXISTS schema_version (version INTEGER NOT NULL)")

            async def apply(number: int, sql: str) -> None:
                async with conn.transaction():
                    await conn.execute(sql)
                    await conn.execute("INSERT INTO schema_version (version) VALUES ($1)", number)

            await upgrade_list("postgres", redact(self.url), "", MIGRATIONS,
                               await conn.fetchval("SELECT MAX(version) FROM schema_version") or 0, apply)
            if self.schemas:
                await conn.execute(VERSIONS_TABLE)
            for schema in self.schemas:
                owned = await conn.fetchval(READ_VERSION.postgres,
                                            *READ_VERSION.args("postgres", {"owner": schema.owner}))

                async def apply_owned(number: int, sql: str, owner: str = schema.owner) -> None:
                    async with conn.transaction():
                        await conn.execute(sql)
                        await conn.execute(WRITE_VERSION.postgres,
                                           *WRITE_VERSION.args("postgres", {"owner": owner, "version": number}))

                await upgrade_list("postgres", redact(self.url), schema.owner, schema.migrations, owned or 0,
                                   apply_owned)
        finally:
            await conn.execute("SELECT pg_advisory_unlock($1)", _MIGRATION_LOCK)

    async def close(self) -> None:
        if self._pending:
            await asyncio.gather(*self._pending, return_exceptions=True)
        if self._pool is not None:
            await self._pool.close()
            self._pool = None

    async def scrub(self, tables: Sequence[str]) -> bool:
        """VACUUM the tables (/forgetme: the rows' old versions are dead tuples until then; outside a
        transaction, as PostgreSQL requires). It frees their space for reuse; it does not zero it, and
        the server's own WAL keeps the old rows until it is recycled (docs/retention.md). True."""
        assert self._pool is not None
        async with self._pool.acquire(timeout=self.timeout) as conn:
            await conn.execute("VACUUM " + ", ".join(sorted(set(tables))))
        return True

    # ------------------------------------------------------------ plumbing
    async def _write(self, job: PgJob) -> Any:
        """Run a job in one transaction; a deadlock or serialization failure retries it whole."""
        assert self._pool is not None
        for attempt in range(_RETRIES):
            try:
                async with self._pool.acquire(timeout=self.timeout) as conn, conn.transaction():
                    return await job(conn)
            except (asyncpg.DeadlockDetectedError, asyncpg.SerializationError):
                if attempt == _RETRIES - 1:
                    raise _unavailable(asyncpg.DeadlockDetectedError("retries exhausted")) from None
                await asyncio.sleep(0.01 * (attempt + 1))
            except (*_BUSY, *_ERROR) as exc:
                raise _unavailable(exc) from exc
        raise AssertionError("unreachable")

    async def _read(self, sql: str, *params: Any) -> list[asyncpg.Record]:
        assert self._pool is not None
        try:
            return list(await self._pool.fetch(sql, *params, timeout=self.timeout))
        except (*_BUSY, *_ERROR) as exc:
            raise _unavailable(exc) from exc

    # ------------------------------------------------------------ what SqlStore runs on
    async def fetch(self, query: Query, **params: Any) -> list[Sequence[Any]]:
        return await self._read(query.postgres, *query.args("postgres", params))

    async def run(self, job: TxJob) -> Any:
        return await self._write(lambda conn: job(PgTx(conn)))

    def submit(self, job: TxJob) -> asyncio.Future[Any]:
        """Start the job now; close() waits for the ones still running."""
        fut = asyncio.ensure_future(self.run(job))
        self._pending.add(fut)
        fut.add_done_callback(self._pending.discard)
        return fut


def _unavailable(error: BaseException) -> StoreUnavailable:
    """A clear reason for a failed database call, logged once in one line (never with parameters)."""
    if isinstance(error, asyncpg.DiskFullError):
        reason = "full"
    elif isinstance(error, _BUSY):
        reason = "busy"
    else:
        reason = "error"
    detail = str(error) or type(error).__name__
    log.error("database call failed (%s): %s", reason, detail)
    return StoreUnavailable(reason, detail)
