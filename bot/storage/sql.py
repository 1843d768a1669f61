"""The one SQL dialect of the stores, rendered per driver, and the transaction a write job runs in.

Statements are written once (bot/storage/queries.py) in PostgreSQL-flavoured SQL that SQLite also
runs, with named placeholders `:name`. A `Query` renders its text for each driver: SQLite gets `?`
(a name used twice is bound twice) and `COLLATE BINARY` for `COLLATE "C"` (the same byte order),
asyncpg gets `$1…` (a name used twice is one parameter). Arguments are passed by name.

A write job is an `async def job(tx: Tx)` written once; the driver supplies the transaction: on
SQLite the job runs inside the one writer's batch, in its thread, without ever suspending (`run_sync`
drives it); on PostgreSQL it runs in a pooled connection's transaction.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Coroutine, Iterable, Mapping, Sequence
from typing import Any, Literal, Protocol, TypeVar

Dialect = Literal["sqlite", "postgres"]
T = TypeVar("T")

_PARAM = re.compile(r"(?<![:\w]):([A-Za-z_]\w*)")


class Query:
    """One statement in the neutral dialect, rendered once for each driver."""

    __slots__ = ("_names", "postgres", "sqlite", "text")

    def __init__(self, text: str) -> None:
        self.text = text
        lite: list[str] = []

        def positional(m: re.Match[str]) -> str:
            lite.append(m.group(1))
            return "?"

        self.sqlite = _PARAM.sub(positional, text.replace('COLLATE "C"', "COLLATE BINARY"))
        pg: dict[str, int] = {}
        self.postgres = _PARAM.sub(lambda m: f"${pg.setdefault(m.group(1), len(pg) + 1)}", text)
        self._names: dict[str, tuple[str, ...]] = {"sqlite": tuple(lite), "postgres": tuple(pg)}

    def render(self, dialect: Dialect) -> str:
        return self.sqlite if dialect == "sqlite" else self.postgres

    def args(self, dialect: Dialect, params: Mapping[str, Any]) -> tuple[Any, ...]:
        """The arguments in the driver's order (a KeyError names a placeholder left unbound)."""
        return tuple(params[n] for n in self._names[dialect])

    def rows(self, dialect: Dialect, params: Iterable[Mapping[str, Any]]) -> list[tuple[Any, ...]]:
        names = self._names[dialect]
        return [tuple(p[n] for n in names) for p in params]

    def __repr__(self) -> str:
        return f"Query({self.text!r})"


class Tx(Protocol):
    """A write job's transaction. `conn` is the driver's own connection (for tests and tools)."""

    conn: Any

    async def execute(self, q: Query, **params: Any) -> None: ...
    async def executemany(self, q: Query, rows: Sequence[Mapping[str, Any]]) -> None: ...
    async def fetchrow(self, q: Query, **params: Any) -> Sequence[Any] | None: ...
    async def fetch(self, q: Query, **params: Any) -> list[Sequence[Any]]: ...
    async def fetchval(self, q: Query, **params: Any) -> Any: ...
    async def insert_unique(self, q: Query, **params: Any) -> bool:
        """Run an INSERT; False (and the transaction still usable) where it breaks a unique key."""
        ...
    async def lock_chat(self, platform: str, chat_id: str) -> None:
        """Serialize this transaction with the other creations in the chat (PostgreSQL: an advisory
        lock until commit; SQLite: nothing to do, its one writer runs jobs one after another)."""
        ...
    async def lock_table(self, table: str) -> None:
        """Make other writers of `table` wait until this transaction ends (PostgreSQL: LOCK TABLE in
        EXCLUSIVE mode, reads go on; SQLite: nothing to do, its one writer runs jobs one after another)."""
        ...


TxJob = Callable[[Tx], Coroutine[Any, Any, Any]]  # an async function of the transaction


def run_sync(coro: Coroutine[Any, Any, T]) -> T:
    """Drive a write job whose awaits never suspend (SQLite's Tx) to its end, in the calling thread."""
    try:
        coro.send(None)
    except StopIteration as done:
        value: T = done.value
        return value
    coro.close()
    raise RuntimeError("a SQLite write job awaited something other than its transaction")
