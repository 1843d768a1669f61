"""PostgreSQL store (asyncpg) for several bot processes on one database.

The same public methods and semantics as SqliteStore: every write runs in ONE transaction on a
pooled connection; a game's move is a compare-and-set on its version column (Conflict when another
handler or process won the race — the App reads again and retries), the partial unique index
`one_game_per_chat` turns a second seat in a chat into SeatTaken, the `seen` key turns a second
delivery of an update into Duplicate, and a lost connection, a full disk or an overloaded server
becomes StoreUnavailable (nothing of the write is stored). Write jobs (`save_game(extra=...)`) are
async functions taking the asyncpg connection of that transaction.
"""

from __future__ import annotations

import asyncio
import json
import logging
from collections.abc import Awaitable, Callable, Sequence
from typing import Any, TypeVar

import asyncpg

from bot.ops import redact
from bot.storage.base import (
    Conflict,
    Duplicate,
    GameRow,
    NewResult,
    SeatTaken,
    StatLine,
    StoreOpenError,
    StoreUnavailable,
    TooManyGames,
    game_id_fits,
)
from bot.storage.migrations_pg import PG_MIGRATIONS
from core import names
from core.games.base import Event

log = logging.getLogger(__name__)
T = TypeVar("T")
PgJob = Callable[[asyncpg.Connection], Awaitable[Any]]

_GAME_COLS = "id, platform, chat_id, private, kind, state, over, version"
_G_COLS = ", ".join("g." + c.strip() for c in _GAME_COLS.split(","))
_MIGRATION_LOCK = 0x6368_6774  # advisory lock key: one process migrates at a time
_CREATE_LOCK = 0x6761_6D65  # advisory lock class: one game creation per chat at a time (its bounds)
_RETRIES = 3  # deadlock / serialization failure: the transaction is retried whole

# errors that mean "the database could not take it", by reason
_BUSY = (asyncpg.InsufficientResourcesError, asyncpg.LockNotAvailableError, asyncpg.QueryCanceledError,
         asyncpg.TransactionRollbackError, asyncpg.CannotConnectNowError, TimeoutError)
_ERROR = (OSError, asyncpg.PostgresConnectionError, asyncpg.InterfaceError, asyncpg.OperatorInterventionError,
          asyncpg.PostgresSystemError, asyncpg.InternalServerError, asyncpg.ReadOnlySQLTransactionError)


def _row(r: Sequence[Any]) -> GameRow:
    return GameRow(int(r[0]), r[1], r[2], bool(r[3]), r[4], json.loads(r[5]), bool(r[6]), int(r[7]))


def _int(flag: bool | None) -> int | None:
    return None if flag is None else int(flag)


class PostgresStore:
    def __init__(self, url: str, min_size: int = 1, max_size: int = 10, timeout: float = 10.0) -> None:
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
            version = await conn.fetchval("SELECT MAX(version) FROM schema_version") or 0
            if version > len(PG_MIGRATIONS):  # written by a newer bot: never run old code on it
                raise StoreOpenError(f"cannot open the database {redact(self.url)}: its schema version {version} is "
                                     f"newer than this bot's newest ({len(PG_MIGRATIONS)}); run the newer version "
                                     "of the bot")
            for number, sql in enumerate(PG_MIGRATIONS[version:], start=version + 1):
                async with conn.transaction():
                    await conn.execute(sql)
                    await conn.execute("INSERT INTO schema_version (version) VALUES ($1)", number)
                log.info("database migrated to version %d", number)
        finally:
            await conn.execute("SELECT pg_advisory_unlock($1)", _MIGRATION_LOCK)

    async def close(self) -> None:
        if self._pending:
            await asyncio.gather(*self._pending, return_exceptions=True)
        if self._pool is not None:
            await self._pool.close()
            self._pool = None

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

    # ------------------------------------------------------------ games
    async def get_game(self, game_id: int) -> GameRow | None:
        if not game_id_fits(game_id):
            return None
        rows = await self._read(f"SELECT {_GAME_COLS} FROM games WHERE id = $1", game_id)
        return _row(rows[0]) if rows else None

    async def seated_games(self, platform: str, user_id: str, chat_id: str | None = None) -> list[GameRow]:
        """Running games the user sits in: in one chat, or (chat_id None) anywhere on the platform."""
        sql = (f"SELECT {_G_COLS} FROM seats s JOIN games g ON g.id = s.game_id"
               " WHERE s.active = 1 AND s.platform = $1 AND s.user_id = $2")
        params: list[Any] = [platform, user_id]
        if chat_id is not None:
            sql += " AND s.chat_id = $3"
            params.append(chat_id)
        return [_row(r) for r in await self._read(sql + " ORDER BY g.id", *params)]

    async def chat_games(self, platform: str, chat_id: str) -> list[GameRow]:
        rows = await self._read(f"SELECT {_GAME_COLS} FROM games WHERE over = 0 AND platform = $1"
                                " AND chat_id = $2 ORDER BY id", platform, chat_id)
        return [_row(r) for r in rows]

    async def idle_games(self, before: float) -> list[GameRow]:
        rows = await self._read(f"SELECT {_GAME_COLS} FROM games WHERE over = 0 AND updated < $1 ORDER BY id",
                                before)
        return [_row(r) for r in rows]

    async def create_game(self, platform: str, chat_id: str, private: bool, kind: str,
                          state: dict[str, Any], seats: Sequence[str], events: Sequence[Event],
                          now: float, seen: tuple[str, str] | None = None, *, creator: str | None = None,
                          max_chat: int = 0, max_user: int = 0) -> int:
        """A new game (see SqliteStore.create_game, with its bounds). Creations in one chat take a
        transaction-scoped advisory lock first, so processes creating at once count one after the
        other and the bounds hold exactly."""
        async def job(conn: asyncpg.Connection) -> int:
            if max_chat or max_user:
                await conn.execute("SELECT pg_advisory_xact_lock($1, hashtext($2 || ':' || $3))",
                                   _CREATE_LOCK, platform, chat_id)
                in_chat, mine = await conn.fetchrow(
                    "SELECT COUNT(*), COUNT(*) FILTER (WHERE EXISTS (SELECT 1 FROM seats s WHERE s.game_id = g.id"
                    " AND s.user_id = $3)) FROM games g WHERE g.over = 0 AND g.platform = $1 AND g.chat_id = $2",
                    platform, chat_id, creator)
                if max_user and creator is not None and mine >= max_user:
                    raise TooManyGames("user", max_user)
                if max_chat and in_chat >= max_chat:
                    raise TooManyGames("chat", max_chat)
            game_id = int(await conn.fetchval(
                "INSERT INTO games (platform, chat_id, private, kind, state, created, updated)"
                " VALUES ($1, $2, $3, $4, $5, $6, $6) RETURNING id",
                platform, chat_id, int(private), kind, json.dumps(state), now))
            await _add_seats(conn, game_id, platform, chat_id, seats)
            await _add_events(conn, game_id, events, now)
            await _add_seen(conn, seen, now)
            return game_id
        return int(await self._write(job))

    async def save_game(self, game: GameRow, state: dict[str, Any], over: bool, seats: Sequence[str],
                        events: Sequence[Event], results: Sequence[NewResult], now: float,
                        seen: tuple[str, str] | None = None, released: Sequence[str] = (),
                        extra: PgJob | None = None) -> int:
        """Persist a move atomically (see SqliteStore.save_game). Returns the new version."""
        async def job(conn: asyncpg.Connection) -> int:
            done = await conn.fetchval(
                "UPDATE games SET state = $1, over = $2, version = version + 1, updated = $3"
                " WHERE id = $4 AND version = $5 RETURNING version",
                json.dumps(state), int(over), now, game.id, game.version)
            if done is None:
                raise Conflict(game.id)
            await _add_seats(conn, game.id, game.platform, game.chat_id, seats)
            for user_id in released:
                await conn.execute("UPDATE seats SET active = 0 WHERE game_id = $1 AND user_id = $2",
                                   game.id, user_id)
            if over:
                await conn.execute("UPDATE seats SET active = 0 WHERE game_id = $1", game.id)
            await _add_events(conn, game.id, events, now)
            if results:
                await conn.executemany(
                    "INSERT INTO results (game_id, platform, chat_id, user_id, name, kind, outcome, attempts,"
                    " length, repeats, rating, side, at) VALUES ($1,$2,$3,$4,$5,$6,$7,$8,$9,$10,$11,$12,$13)",
                    [(game.id, game.platform, game.chat_id, r.user_id, r.name, game.kind, r.outcome,
                      r.attempts, r.length, _int(r.repeats), r.rating, r.side, now) for r in results])
            if extra is not None:
                await extra(conn)
            await _add_seen(conn, seen, now)
            return game.version + 1
        return int(await self._write(job))

    async def last_game(self, platform: str, chat_id: str, user_id: str) -> GameRow | None:
        """The player's most recent game in a chat, running or over (for /rematch)."""
        rows = await self._read(
            f"SELECT {_G_COLS} FROM seats s JOIN games g ON g.id = s.game_id"
            " WHERE s.platform = $1 AND s.chat_id = $2 AND s.user_id = $3 ORDER BY g.id DESC LIMIT 1",
            platform, chat_id, user_id)
        return _row(rows[0]) if rows else None

    async def event_log(self, game_id: int) -> list[Event]:
        rows = await self._read("SELECT type, data FROM events WHERE game_id = $1 ORDER BY id", game_id)
        return [Event(t, json.loads(d)) for t, d in rows]

    # ------------------------------------------------------------ idempotency
    async def was_seen(self, platform: str, event_id: str) -> bool:
        return bool(await self._read("SELECT 1 FROM seen WHERE platform = $1 AND event_id = $2",
                                     platform, event_id))

    async def mark_seen(self, platform: str, event_id: str, now: float) -> None:
        async def job(conn: asyncpg.Connection) -> None:
            await _add_seen(conn, (platform, event_id), now)
        await self._write(job)

    # ------------------------------------------------------------ chats and users
    async def chat_lang(self, platform: str, chat_id: str) -> str | None:
        rows = await self._read("SELECT lang FROM chats WHERE platform = $1 AND chat_id = $2", platform, chat_id)
        return rows[0][0] if rows else None

    async def set_chat_lang(self, platform: str, chat_id: str, lang: str | None) -> None:
        async def job(conn: asyncpg.Connection) -> None:
            await conn.execute("INSERT INTO chats (platform, chat_id, lang) VALUES ($1, $2, $3)"
                               " ON CONFLICT (platform, chat_id) DO UPDATE SET lang = excluded.lang",
                               platform, chat_id, lang)
        await self._write(job)

    async def migrate_chat(self, platform: str, old: str, new: str) -> None:
        """A Telegram group became a supergroup: its games, stats and settings move along (rows
        that would collide with the new chat's own stay behind, like SQLite's UPDATE OR IGNORE)."""
        async def job(conn: asyncpg.Connection) -> None:
            for table in ("games", "results", "kegeln_games", "kegeln_members", "kegeln_throws"):
                await conn.execute(f"UPDATE {table} SET chat_id = $1 WHERE platform = $2 AND chat_id = $3",
                                   new, platform, old)
            await conn.execute(
                "UPDATE seats s SET chat_id = $1 WHERE platform = $2 AND chat_id = $3 AND NOT (s.active = 1"
                " AND EXISTS (SELECT 1 FROM seats t WHERE t.platform = s.platform AND t.chat_id = $1"
                " AND t.user_id = s.user_id AND t.active = 1))", new, platform, old)
            await conn.execute(
                "UPDATE chats SET chat_id = $1 WHERE platform = $2 AND chat_id = $3"
                " AND NOT EXISTS (SELECT 1 FROM chats c WHERE c.platform = $2 AND c.chat_id = $1)",
                new, platform, old)
        await self._write(job)

    def save_user(self, platform: str, user_id: str, name: str, locale: str | None) -> asyncio.Future[Any]:
        """Start the upsert and return its future (the App awaits it before answering)."""
        async def job(conn: asyncpg.Connection) -> None:
            await conn.execute("INSERT INTO users (platform, user_id, name, locale) VALUES ($1, $2, $3, $4)"
                               " ON CONFLICT (platform, user_id) DO UPDATE SET name = excluded.name,"
                               " locale = COALESCE(excluded.locale, users.locale)", platform, user_id, name, locale)
        fut = asyncio.ensure_future(self._write(job))
        self._pending.add(fut)
        fut.add_done_callback(self._pending.discard)
        return fut

    async def user_name(self, platform: str, user_id: str) -> str | None:
        rows = await self._read("SELECT name FROM users WHERE platform = $1 AND user_id = $2", platform, user_id)
        return rows[0][0] if rows else None

    async def user_locale(self, platform: str, user_id: str) -> str | None:
        rows = await self._read("SELECT locale FROM users WHERE platform = $1 AND user_id = $2", platform, user_id)
        return rows[0][0] if rows else None

    async def find_users(self, platform: str, chat_id: str | None, name: str,
                         limit: int = 10) -> list[tuple[str, str]]:
        """(user id, name) of the users called `name` (see SqliteStore.find_users)."""
        wanted = names.key(name)
        if chat_id is not None:
            rows = await self._read(
                "SELECT user_id, name FROM users WHERE platform = $1 AND user_id IN"
                " (SELECT user_id FROM results WHERE platform = $1 AND chat_id = $2"
                " UNION SELECT user_id FROM seats WHERE platform = $1 AND chat_id = $2 AND active = 1)"
                ' ORDER BY user_id COLLATE "C"', platform, chat_id)
        else:
            rows = await self._read("SELECT user_id, name FROM users WHERE platform = $1 AND lower(name) = lower($2)"
                                    ' ORDER BY user_id COLLATE "C" LIMIT $3', platform, names.clean(name), 4 * limit)
        return [(r[0], r[1]) for r in rows if names.key(r[1]) == wanted][:limit]

    # ------------------------------------------------------------ statistics
    async def stats(self, platform: str, chat_id: str | None, user_id: str) -> list[StatLine]:
        """Per game kind: games, wins, draws, losses, abandoned, gave up; in one chat or everywhere."""
        sql = ("SELECT kind, COUNT(*), COUNT(*) FILTER (WHERE outcome = 'win'),"
               " COUNT(*) FILTER (WHERE outcome = 'draw'), COUNT(*) FILTER (WHERE outcome = 'loss'),"
               " COUNT(*) FILTER (WHERE outcome = 'abandoned'), COUNT(*) FILTER (WHERE outcome = 'gave_up')"
               " FROM results WHERE platform = $1 AND user_id = $2")
        params: list[Any] = [platform, user_id]
        if chat_id is not None:
            sql += " AND chat_id = $3"
            params.append(chat_id)
        rows = await self._read(sql + ' GROUP BY kind ORDER BY kind COLLATE "C"', *params)
        return [StatLine(*r) for r in rows]

    async def practice_bests(self, platform: str, user_id: str) -> list[tuple[int, bool, int]]:
        """(length, repeats, fewest attempts) over every chat: records follow the player."""
        rows = await self._read(
            "SELECT length, repeats, MIN(attempts) FROM results WHERE platform = $1 AND user_id = $2"
            " AND kind = 'practice' AND outcome = 'win' AND rating IS NOT NULL"
            " GROUP BY length, repeats ORDER BY length, repeats", platform, user_id)
        return [(int(r[0]), bool(r[1]), int(r[2])) for r in rows]

    async def top(self, platform: str, chat_id: str, limit: int = 10) -> list[tuple[str, int, int, int, int]]:
        """The chat's duel leaderboard: (name, wins, draws, losses, games), most wins first."""
        rows = await self._read(
            'SELECT MAX(name COLLATE "C"), COUNT(*) FILTER (WHERE outcome = \'win\'),'
            " COUNT(*) FILTER (WHERE outcome = 'draw'), COUNT(*) FILTER (WHERE outcome = 'loss'), COUNT(*)"
            " FROM results WHERE platform = $1 AND chat_id = $2 AND kind != 'practice'"
            " GROUP BY user_id ORDER BY 2 DESC, 3 DESC, 4 ASC, 1 LIMIT $3", platform, chat_id, limit)
        return [(r[0], r[1], r[2], r[3], r[4]) for r in rows]

    # ------------------------------------------------------------ kegeln (Hausnummern): club statistics
    _KEGELN_SUMS = ("COUNT(*), SUM(CASE WHEN mode = 'high' THEN win ELSE 0 END),"
                    " SUM(CASE WHEN mode = 'low' THEN win ELSE 0 END), SUM(nines), SUM(pumpen), SUM(pins),"
                    " SUM(throws)")
    _KEGELN_NAME = ("(SELECT k2.name FROM kegeln_members k2 WHERE k2.platform = k.platform AND k2.chat_id = k.chat_id"
                    " AND k2.member = k.member ORDER BY k2.at DESC, k2.game_id DESC LIMIT 1)")

    @staticmethod
    def kegeln_job(game_id: int, platform: str, chat_id: str, keep_seat: str | None,
                   game: tuple[str, int, int, str, bool] | None, members: Sequence[Any],
                   throws: Sequence[tuple[str, int, int, int, float]], now: float) -> PgJob:
        """The extra writes of one kegeln move (see SqliteStore.kegeln_job), run inside `save_game`'s
        transaction."""
        async def job(conn: asyncpg.Connection) -> None:
            if keep_seat is not None:
                await conn.execute("UPDATE seats SET active = 0 WHERE game_id = $1 AND user_id != $2",
                                   game_id, keep_seat)
            if game is None:
                return
            mode, digits, teams, winner, decided = game
            await conn.execute("INSERT INTO kegeln_games (game_id, platform, chat_id, mode, digits, teams, winner,"
                               " decided, at) VALUES ($1,$2,$3,$4,$5,$6,$7,$8,$9)",
                               game_id, platform, chat_id, mode, digits, teams, winner, int(decided), now)
            if members:
                await conn.executemany(
                    "INSERT INTO kegeln_members (game_id, platform, chat_id, member, name, mode, team, number,"
                    " place, win, throws, pins, nines, pumpen, at)"
                    " VALUES ($1,$2,$3,$4,$5,$6,$7,$8,$9,$10,$11,$12,$13,$14,$15)",
                    [(game_id, platform, chat_id, m.name.casefold(), m.name, mode, m.team, m.number, m.place,
                      int(m.win), m.throws, m.pins, m.nines, m.pumpen, now) for m in members])
            if throws:
                await conn.executemany(
                    "INSERT INTO kegeln_throws (game_id, seq, platform, chat_id, member, name, pins, position,"
                    " digit, at) VALUES ($1,$2,$3,$4,$5,$6,$7,$8,$9,$10)",
                    [(game_id, i, platform, chat_id, name.casefold(), name, pins, pos, digit, at)
                     for i, (name, pins, pos, digit, at) in enumerate(throws, 1)])
        return job

    async def kegeln_member(self, platform: str, chat_id: str, name: str) -> tuple[Any, ...] | None:
        """(name, games, wins high, wins low, 9s, Pumpen, pins, throws) of one club member, or None."""
        rows = await self._read(f"SELECT {self._KEGELN_NAME}, {self._KEGELN_SUMS} FROM kegeln_members k"
                                " WHERE platform = $1 AND chat_id = $2 AND member = $3"
                                " GROUP BY platform, chat_id, member", platform, chat_id, name.casefold())
        return tuple(rows[0]) if rows else None

    async def kegeln_club(self, platform: str, chat_id: str, limit: int = 30) -> list[tuple[Any, ...]]:
        """Every member's line (as kegeln_member), most wins first, then the best Kegel-Schnitt."""
        rows = await self._read(f"SELECT {self._KEGELN_NAME}, {self._KEGELN_SUMS} FROM kegeln_members k"
                                " WHERE platform = $1 AND chat_id = $2 GROUP BY platform, chat_id, member"
                                " ORDER BY SUM(win) DESC, 1.0 * SUM(pins) / GREATEST(SUM(throws), 1) DESC,"
                                ' member COLLATE "C" LIMIT $3', platform, chat_id, limit)
        return [tuple(r) for r in rows]

    async def kegeln_series(self, platform: str, chat_id: str) -> list[tuple[str, str, int, float, int, int]]:
        """(member, name, game id, time, pins, throws) per member and finished game, oldest first."""
        rows = await self._read("SELECT member, name, game_id, at, pins, throws FROM kegeln_members"
                                " WHERE platform = $1 AND chat_id = $2 ORDER BY at, game_id", platform, chat_id)
        return [(r[0], r[1], int(r[2]), r[3], r[4], r[5]) for r in rows]

    async def kegeln_games_since(self, platform: str, chat_id: str, since: float) -> list[tuple[Any, ...]]:
        """(game id, mode, digits, teams, winner, decided) of the games finished at or after `since`, in order."""
        rows = await self._read("SELECT game_id, mode, digits, teams, winner, decided FROM kegeln_games"
                                " WHERE platform = $1 AND chat_id = $2 AND at >= $3 ORDER BY at, game_id",
                                platform, chat_id, since)
        return [tuple(r) for r in rows]

    async def kegeln_members_since(self, platform: str, chat_id: str, since: float) -> list[tuple[Any, ...]]:
        """(name, games, 9s, Pumpen, pins, throws) per member over the games finished at or after `since`;
        the name in its most recent spelling of that span."""
        rows = await self._read(
            "SELECT (SELECT k2.name FROM kegeln_members k2 WHERE k2.platform = k.platform AND k2.chat_id = k.chat_id"
            " AND k2.member = k.member AND k2.at >= $3 ORDER BY k2.at DESC, k2.game_id DESC LIMIT 1),"
            " COUNT(*), SUM(nines), SUM(pumpen), SUM(pins), SUM(throws) FROM kegeln_members k"
            " WHERE platform = $1 AND chat_id = $2 AND at >= $3 GROUP BY platform, chat_id, member"
            ' ORDER BY member COLLATE "C"', platform, chat_id, since)
        return [tuple(r) for r in rows]

    async def kegeln_throw_log(self, platform: str, chat_id: str) -> list[tuple[Any, ...]]:
        """The club's throw log: (time, game id, name, pins, position, digit), oldest first, in throwing order."""
        rows = await self._read("SELECT at, game_id, name, pins, position, digit FROM kegeln_throws"
                                " WHERE platform = $1 AND chat_id = $2 ORDER BY game_id, seq", platform, chat_id)
        return [tuple(r) for r in rows]

    # ------------------------------------------------------------ logik: results by side
    async def logik_sides(self, platform: str, chat_id: str | None) -> tuple[int, int, int, int]:
        """(white wins, black wins, draws, abandoned) of finished Logik games, in one chat or
        everywhere; counted once per game, from the white player's result line."""
        sql = ("SELECT COUNT(*) FILTER (WHERE outcome = 'win'), COUNT(*) FILTER (WHERE outcome = 'loss'),"
               " COUNT(*) FILTER (WHERE outcome = 'draw'), COUNT(*) FILTER (WHERE outcome = 'abandoned')"
               " FROM results WHERE platform = $1 AND kind = 'logik' AND side = 'white'")
        params: list[Any] = [platform]
        if chat_id is not None:
            sql += " AND chat_id = $2"
            params.append(chat_id)
        r = (await self._read(sql, *params))[0]
        return int(r[0]), int(r[1]), int(r[2]), int(r[3])

    async def logik_record(self, platform: str, chat_id: str | None,
                           user_id: str) -> dict[str, tuple[int, int, int, int]]:
        """A player's Logik (wins, draws, losses, timed out) per side, in one chat or everywhere."""
        sql = ("SELECT side, COUNT(*) FILTER (WHERE outcome = 'win'), COUNT(*) FILTER (WHERE outcome = 'draw'),"
               " COUNT(*) FILTER (WHERE outcome = 'loss'), COUNT(*) FILTER (WHERE outcome = 'abandoned') FROM results"
               " WHERE platform = $1 AND kind = 'logik' AND user_id = $2")
        params: list[Any] = [platform, user_id]
        if chat_id is not None:
            sql += " AND chat_id = $3"
            params.append(chat_id)
        rows = await self._read(sql + " GROUP BY side", *params)
        return {str(r[0]): (int(r[1]), int(r[2]), int(r[3]), int(r[4])) for r in rows if r[0]}

    # ------------------------------------------------------------ solver: the computer opponent's level
    async def solver_bot_level(self, platform: str, chat_id: str, game_id: int, user_id: str) -> str | None:
        """The level of the bot in this duel, or (for a rematch) in the newest earlier duel against the
        bot that this user played in this chat: the data of its "bot" event."""
        rows = await self._read(
            "SELECT e.data FROM events e JOIN games g ON g.id = e.game_id WHERE e.type = 'bot'"
            " AND g.platform = $1 AND g.chat_id = $2 AND g.id <= $3 AND (g.id = $3 OR EXISTS"
            " (SELECT 1 FROM seats s WHERE s.game_id = g.id AND s.user_id = $4)) ORDER BY g.id DESC LIMIT 1",
            platform, chat_id, game_id, user_id)
        return json.loads(rows[0][0]).get("level") if rows else None


async def _add_seats(conn: asyncpg.Connection, game_id: int, platform: str, chat_id: str,
                     seats: Sequence[str]) -> None:
    for user_id in seats:
        try:
            # a savepoint, so the unique violation is reported as SeatTaken and not as an aborted transaction
            async with conn.transaction():
                await conn.execute("INSERT INTO seats (game_id, platform, chat_id, user_id) VALUES ($1, $2, $3, $4)"
                                   " ON CONFLICT (game_id, user_id) DO UPDATE SET active = 1",
                                   game_id, platform, chat_id, user_id)
        except asyncpg.UniqueViolationError as exc:
            raise SeatTaken(user_id) from exc


async def _add_events(conn: asyncpg.Connection, game_id: int, events: Sequence[Event], now: float) -> None:
    if events:
        await conn.executemany("INSERT INTO events (game_id, type, data, at) VALUES ($1, $2, $3, $4)",
                               [(game_id, e.type, json.dumps(e.data), now) for e in events])


async def _add_seen(conn: asyncpg.Connection, seen: tuple[str, str] | None, now: float) -> None:
    """Record the platform update this move answers; a second delivery of it is a Duplicate and
    its whole move is rolled back."""
    if seen:
        inserted = await conn.fetchval("INSERT INTO seen (platform, event_id, at) VALUES ($1, $2, $3)"
                                       " ON CONFLICT DO NOTHING RETURNING 1", *seen, now)
        if inserted is None:
            raise Duplicate(seen[1])


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
