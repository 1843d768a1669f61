"""The games' own schema migrations: a game's tables declared by the game, applied by both stores.

The shared list (bot/storage/migrations.py) builds what every game uses and keeps its own version
bookkeeping (SQLite `PRAGMA user_version`, PostgreSQL `schema_version`). A game that needs tables of
its own declares a `Schema`: its owner name (the game's kind) and its own numbered list of
`Migration`s, written like the shared ones (`{SERIAL}`, `{BIGINT}`, `{REAL}` tokens) and never
changed once shipped. Its plugin names it (`GamePlugin.schema`, bot/games/plugin.py); the App hands
the registered games' schemas to the store (bot/app/app.py `open_store`), which applies each after the
shared list, on SQLite and on PostgreSQL alike, each entry in its own transaction with the owner's
version in the table `schema_versions (owner, version)`. A version above the game's newest was
written by a newer bot: a StoreOpenError, as for the shared list. Its `chat_moves` move its rows
when a Telegram group becomes a supergroup. So adding a game, tables and all, needs no edit to bot/storage/.
"""

from __future__ import annotations

import logging
import re
from collections.abc import Awaitable, Callable, Sequence
from dataclasses import dataclass

from bot.storage.base import StoreOpenError
from bot.storage.migrations import Migration
from bot.storage.sql import Dialect, Query

log = logging.getLogger("bot.storage.migrations")

_OWNER = re.compile(r"[a-z][a-z0-9_]{0,31}")

# The bookkeeping of the owned lists; created by the store on open where missing (it is no entry of
# the shared list, whose shipped entries never change).
VERSIONS_TABLE = """CREATE TABLE IF NOT EXISTS schema_versions (
    owner   TEXT PRIMARY KEY,
    version INTEGER NOT NULL
)"""
READ_VERSION = Query("SELECT version FROM schema_versions WHERE owner = :owner")
WRITE_VERSION = Query("INSERT INTO schema_versions (owner, version) VALUES (:owner, :version)"
                      " ON CONFLICT (owner) DO UPDATE SET version = excluded.version")


@dataclass(frozen=True)
class Schema:
    """A game's own tables: its owner name (the game's kind) and its migrations, entry N being the
    owner's version N (a new table or column is a new entry at the end)."""

    owner: str
    migrations: tuple[Migration, ...]
    # a Telegram group that became a supergroup (bot/storage/store.py `migrate_chat`): the statements
    # that move this game's rows to the new chat id (params :platform, :old, :new), run in the same
    # transaction as the shared tables' moves — every table with a chat id is named here or there
    chat_moves: tuple[Query, ...] = ()

    def __post_init__(self) -> None:
        if not _OWNER.fullmatch(self.owner):
            raise ValueError(f"a schema's owner is a game's kind (lowercase letters, digits, _): {self.owner!r}")


Apply = Callable[[int, str], Awaitable[None]]


async def upgrade_list(dialect: Dialect, where: str, what: str, migrations: Sequence[Migration], version: int,
                       apply: Apply) -> None:
    """Apply `migrations` after `version`, each with `apply(number, text)` in its own transaction (which
    also records the number); a version above the newest is a StoreOpenError, never run over. `what`
    names the list in the messages ("" for the shared one, else its owner)."""
    of = f" of {what}" if what else ""
    if version > len(migrations):  # written by a newer bot: never run old code on it
        raise StoreOpenError(f"cannot open the database {where}: its schema version{of} {version} is newer "
                             f"than this bot's newest ({len(migrations)}); run the newer version of the bot")
    for number, migration in enumerate(migrations[version:], start=version + 1):
        await apply(number, migration.text(dialect))
        log.info("database migrated to version %d%s", number, of)


def check_owners(schemas: Sequence[Schema]) -> None:
    """One schema per owner: two games of one name would share their version."""
    owners = [s.owner for s in schemas]
    twice = sorted({o for o in owners if owners.count(o) > 1})
    if twice:
        raise ValueError(f"two schemas of one owner: {', '.join(twice)}")


def statements(sql: str) -> list[str]:
    """A migration's text as its statements (SQLite runs them one by one)."""
    return [s for s in sql.split(";") if s.strip()]
