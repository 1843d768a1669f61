"""SQLite store (aiosqlite): WAL, one writer connection with group commit, one reader.

Every write is a job run inside a savepoint of a shared `BEGIN IMMEDIATE`
transaction; the writer commits as many queued jobs as it has in one durable
commit and only then reports them done. A job that fails rolls back to its own
savepoint, so it never harms the others in the batch.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import os
import sqlite3
from collections.abc import Callable, Iterable, Sequence
from pathlib import Path
from typing import Any, TypeVar

import aiosqlite

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
from bot.storage.migrations import MIGRATIONS
from core import names
from core.games.base import Event

log = logging.getLogger(__name__)
T = TypeVar("T")
Job = Callable[[sqlite3.Connection], Any]

_GAME_COLS = "id, platform, chat_id, private, kind, state, over, version"


def _row(r: Sequence[Any]) -> GameRow:
    return GameRow(r[0], r[1], r[2], bool(r[3]), r[4], json.loads(r[5]), bool(r[6]), r[7])


class SqliteStore:
    def __init__(self, path: str, synchronous: str = "FULL", batch_max: int = 256, busy_timeout_ms: int = 5000) -> None:
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
            for pragma in ("journal_mode=WAL", f"busy_timeout={self.busy_timeout_ms}", "foreign_keys=ON",
                           f"synchronous={self.synchronous}"):
                await conn.execute(f"PRAGMA {pragma}")
        except BaseException:
            await conn.close()
            raise
        return conn

    async def _migrate(self, conn: aiosqlite.Connection) -> None:
        cur = await conn.execute("PRAGMA user_version")
        (version,) = await cur.fetchone() or (0,)
        if version > len(MIGRATIONS):  # written by a newer bot: never run old code on it
            raise StoreOpenError(f"cannot open the database {self.path}: its schema version {version} is newer "
                                 f"than this bot's newest ({len(MIGRATIONS)}); run the newer version of the bot")
        for number, sql in enumerate(MIGRATIONS[version:], start=version + 1):
            await conn.execute("BEGIN IMMEDIATE")
            try:
                for stmt in filter(str.strip, sql.split(";")):
                    await conn.execute(stmt)
                await conn.execute(f"PRAGMA user_version={number}")
                await conn.execute("COMMIT")
            except BaseException:
                await conn.execute("ROLLBACK")
                raise
            log.info("database migrated to version %d", number)

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

    # ------------------------------------------------------------ the writer
    async def _write(self, job: Job) -> Any:
        fut: asyncio.Future[Any] = asyncio.get_running_loop().create_future()
        await self._queue.put((job, fut))
        return await fut

    async def _write_loop(self) -> None:
        assert self._w is not None
        conn = self._w
        while True:
            batch = [await self._queue.get()]
            while len(batch) < self.batch_max and not self._queue.empty():
                batch.append(self._queue.get_nowait())
            try:
                # the whole batch is ONE call into the connection's thread: one hop, one commit
                outcomes = await conn._execute(_run_batch, conn._conn, [job for job, _ in batch])
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

    # ------------------------------------------------------------ games
    async def get_game(self, game_id: int) -> GameRow | None:
        if not game_id_fits(game_id):
            return None
        rows = await self._read(f"SELECT {_GAME_COLS} FROM games WHERE id = ?", (game_id,))
        return _row(rows[0]) if rows else None

    async def seated_games(self, platform: str, user_id: str, chat_id: str | None = None) -> list[GameRow]:
        """Running games the user sits in: in one chat, or (chat_id None) anywhere on the platform."""
        sql = (f"SELECT {', '.join('g.' + c.strip() for c in _GAME_COLS.split(','))} FROM seats s "
               "JOIN games g ON g.id = s.game_id WHERE s.active = 1 AND s.platform = ? AND s.user_id = ?")
        params: list[Any] = [platform, user_id]
        if chat_id is not None:
            sql += " AND s.chat_id = ?"
            params.append(chat_id)
        return [_row(r) for r in await self._read(sql + " ORDER BY g.id", params)]

    async def chat_games(self, platform: str, chat_id: str) -> list[GameRow]:
        rows = await self._read(f"SELECT {_GAME_COLS} FROM games WHERE over = 0 AND platform = ? "
                                "AND chat_id = ? ORDER BY id", (platform, chat_id))
        return [_row(r) for r in rows]

    async def idle_games(self, before: float) -> list[GameRow]:
        rows = await self._read(f"SELECT {_GAME_COLS} FROM games WHERE over = 0 AND updated < ?", (before,))
        return [_row(r) for r in rows]

    async def create_game(self, platform: str, chat_id: str, private: bool, kind: str,
                          state: dict[str, Any], seats: Sequence[str], events: Sequence[Event],
                          now: float, seen: tuple[str, str] | None = None, *, creator: str | None = None,
                          max_chat: int = 0, max_user: int = 0) -> int:
        """A new game with its first seats and events. With `max_chat` / `max_user` (0: no bound) it
        is refused with TooManyGames when the chat already runs `max_chat` games, or `creator` already
        sits or sat (a seat handed on or left still counts) in `max_user` running games of the chat;
        counted in the creating transaction (the one writer runs jobs one after another: exact)."""
        def job(conn: sqlite3.Connection) -> int:
            if max_chat or max_user:
                _check_bounds(conn, platform, chat_id, creator, max_chat, max_user)
            cur = conn.execute(
                "INSERT INTO games (platform, chat_id, private, kind, state, created, updated)"
                " VALUES (?,?,?,?,?,?,?)", (platform, chat_id, int(private), kind, json.dumps(state), now, now))
            game_id = int(cur.lastrowid or 0)
            _add_seats(conn, game_id, platform, chat_id, seats)
            _add_events(conn, game_id, events, now)
            _add_seen(conn, seen, now)
            return game_id
        return int(await self._write(job))

    async def save_game(self, game: GameRow, state: dict[str, Any], over: bool, seats: Sequence[str],
                        events: Sequence[Event], results: Sequence[NewResult], now: float,
                        seen: tuple[str, str] | None = None, released: Sequence[str] = (),
                        extra: Job | None = None) -> int:
        """Persist a move atomically: state (compare-and-set on version), new seats, released seats
        (players who left a running game), events, results, a game's own `extra` writes (e.g. its
        statistics tables), and the inbound's id. Returns the new version."""
        def job(conn: sqlite3.Connection) -> int:
            cur = conn.execute(
                "UPDATE games SET state = ?, over = ?, version = version + 1, updated = ? "
                "WHERE id = ? AND version = ?",
                (json.dumps(state), int(over), now, game.id, game.version))
            if cur.rowcount != 1:
                raise Conflict(game.id)
            _add_seats(conn, game.id, game.platform, game.chat_id, seats)
            for user_id in released:
                conn.execute("UPDATE seats SET active = 0 WHERE game_id = ? AND user_id = ?", (game.id, user_id))
            if over:
                conn.execute("UPDATE seats SET active = 0 WHERE game_id = ?", (game.id,))
            _add_events(conn, game.id, events, now)
            if results:
                conn.executemany(
                    "INSERT INTO results (game_id, platform, chat_id, user_id, name, kind, outcome, attempts,"
                    " length, repeats, rating, side, at) VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?)",
                    [(game.id, game.platform, game.chat_id, r.user_id, r.name, game.kind, r.outcome,
                      r.attempts, r.length, r.repeats, r.rating, r.side, now) for r in results])
            if extra is not None:
                extra(conn)
            _add_seen(conn, seen, now)
            return game.version + 1
        return int(await self._write(job))

    async def last_game(self, platform: str, chat_id: str, user_id: str) -> GameRow | None:
        """The player's most recent game in a chat, running or over (for /rematch)."""
        rows = await self._read(
            f"SELECT {', '.join('g.' + c.strip() for c in _GAME_COLS.split(','))} FROM seats s"
            " JOIN games g ON g.id = s.game_id WHERE s.platform = ? AND s.chat_id = ? AND s.user_id = ?"
            " ORDER BY g.id DESC LIMIT 1", (platform, chat_id, user_id))
        return _row(rows[0]) if rows else None

    async def event_log(self, game_id: int) -> list[Event]:
        rows = await self._read("SELECT type, data FROM events WHERE game_id = ? ORDER BY id", (game_id,))
        return [Event(t, json.loads(d)) for t, d in rows]

    # ------------------------------------------------------------ idempotency
    async def was_seen(self, platform: str, event_id: str) -> bool:
        return bool(await self._read("SELECT 1 FROM seen WHERE platform = ? AND event_id = ?",
                                     (platform, event_id)))

    async def mark_seen(self, platform: str, event_id: str, now: float) -> None:
        def job(conn: sqlite3.Connection) -> None:
            _add_seen(conn, (platform, event_id), now)
        await self._write(job)

    # ------------------------------------------------------------ chats and users
    async def chat_lang(self, platform: str, chat_id: str) -> str | None:
        rows = await self._read("SELECT lang FROM chats WHERE platform = ? AND chat_id = ?", (platform, chat_id))
        return rows[0][0] if rows else None

    async def set_chat_lang(self, platform: str, chat_id: str, lang: str | None) -> None:
        def job(conn: sqlite3.Connection) -> None:
            conn.execute("INSERT INTO chats (platform, chat_id, lang) VALUES (?,?,?) "
                               "ON CONFLICT (platform, chat_id) DO UPDATE SET lang = excluded.lang",
                               (platform, chat_id, lang))
        await self._write(job)

    async def migrate_chat(self, platform: str, old: str, new: str) -> None:
        """A Telegram group became a supergroup: its games, stats and settings move along."""
        def job(conn: sqlite3.Connection) -> None:
            for table in ("games", "seats", "results", "chats", "kegeln_games", "kegeln_members", "kegeln_throws"):
                conn.execute(f"UPDATE OR IGNORE {table} SET chat_id = ? WHERE platform = ? AND chat_id = ?",
                                   (new, platform, old))
        await self._write(job)

    def save_user(self, platform: str, user_id: str, name: str, locale: str | None) -> asyncio.Future[Any]:
        """Queue the upsert and return its future: it joins the batch of the move the same inbound
        causes (one commit for both); a caller without a move awaits it before answering."""
        def job(conn: sqlite3.Connection) -> None:
            conn.execute("INSERT INTO users (platform, user_id, name, locale) VALUES (?,?,?,?) "
                         "ON CONFLICT (platform, user_id) DO UPDATE SET name = excluded.name, "
                         "locale = COALESCE(excluded.locale, users.locale)", (platform, user_id, name, locale))
        fut: asyncio.Future[Any] = asyncio.get_running_loop().create_future()
        self._queue.put_nowait((job, fut))
        return fut

    async def user_name(self, platform: str, user_id: str) -> str | None:
        rows = await self._read("SELECT name FROM users WHERE platform = ? AND user_id = ?", (platform, user_id))
        return rows[0][0] if rows else None

    async def user_locale(self, platform: str, user_id: str) -> str | None:
        rows = await self._read("SELECT locale FROM users WHERE platform = ? AND user_id = ?", (platform, user_id))
        return rows[0][0] if rows else None

    async def find_users(self, platform: str, chat_id: str | None, name: str,
                         limit: int = 10) -> list[tuple[str, str]]:
        """(user id, name) of the users called `name` (compared as core.names.key): with a chat, the
        users seen in it (a seat in one of its running games, or a result there); with None,
        anyone on the platform."""
        wanted = names.key(name)
        if chat_id is not None:
            rows = await self._read(
                "SELECT user_id, name FROM users WHERE platform = ? AND user_id IN"
                " (SELECT user_id FROM results WHERE platform = ? AND chat_id = ?"
                " UNION SELECT user_id FROM seats WHERE platform = ? AND chat_id = ? AND active = 1)"
                " ORDER BY user_id", (platform, platform, chat_id, platform, chat_id))
        else:
            rows = await self._read("SELECT user_id, name FROM users WHERE platform = ? AND lower(name) = lower(?)"
                                    " ORDER BY user_id LIMIT ?", (platform, names.clean(name), 4 * limit))
        return [(r[0], r[1]) for r in rows if names.key(r[1]) == wanted][:limit]

    # ------------------------------------------------------------ statistics
    async def stats(self, platform: str, chat_id: str | None, user_id: str) -> list[StatLine]:
        """Per game kind: games, wins, draws, losses, abandoned, gave up; in one chat or everywhere."""
        sql = ("SELECT kind, COUNT(*), SUM(outcome = 'win'), SUM(outcome = 'draw'), SUM(outcome = 'loss'),"
               " SUM(outcome = 'abandoned'), SUM(outcome = 'gave_up') FROM results"
               " WHERE platform = ? AND user_id = ?")
        params: list[Any] = [platform, user_id]
        if chat_id is not None:
            sql += " AND chat_id = ?"
            params.append(chat_id)
        rows = await self._read(sql + " GROUP BY kind ORDER BY kind", params)
        return [StatLine(*r) for r in rows]

    async def practice_bests(self, platform: str, user_id: str) -> list[tuple[int, bool, int]]:
        """(length, repeats, fewest attempts) over every chat: records follow the player."""
        rows = await self._read(
            "SELECT length, repeats, MIN(attempts) FROM results WHERE platform = ? AND user_id = ?"
            " AND kind = 'practice' AND outcome = 'win' AND rating IS NOT NULL"
            " GROUP BY length, repeats ORDER BY length, repeats", (platform, user_id))
        return [(int(r[0]), bool(r[1]), int(r[2])) for r in rows]

    async def top(self, platform: str, chat_id: str, limit: int = 10) -> list[tuple[str, int, int, int, int]]:
        """The chat's duel leaderboard: (name, wins, draws, losses, games), most wins first."""
        rows = await self._read(
            "SELECT MAX(name), SUM(outcome = 'win'), SUM(outcome = 'draw'), SUM(outcome = 'loss'), COUNT(*)"
            " FROM results WHERE platform = ? AND chat_id = ? AND kind != 'practice'"
            " GROUP BY user_id ORDER BY 2 DESC, 3 DESC, 4 ASC, 1 LIMIT ?", (platform, chat_id, limit))
        return [(r[0], r[1], r[2], r[3], r[4]) for r in rows]


    # ------------------------------------------------------------ kegeln (Hausnummern): club statistics
    # Club members are names, not chat accounts: `member` is the casefolded name, per chat.
    _KEGELN_SUMS = ("COUNT(*), SUM(win * (mode = 'high')), SUM(win * (mode = 'low')), SUM(nines), SUM(pumpen),"
                    " SUM(pins), SUM(throws)")
    _KEGELN_NAME = ("(SELECT k2.name FROM kegeln_members k2 WHERE k2.platform = k.platform AND k2.chat_id = k.chat_id"
                    " AND k2.member = k.member ORDER BY k2.at DESC, k2.game_id DESC LIMIT 1)")

    @staticmethod
    def kegeln_job(game_id: int, platform: str, chat_id: str, keep_seat: str | None,
                   game: tuple[str, int, int, str, bool] | None, members: Sequence[Any],
                   throws: Sequence[tuple[str, int, int, int, float]], now: float) -> Job:
        """The extra writes of one kegeln move, run inside `save_game`'s transaction: free the seat of
        a scorer who handed the role on (`keep_seat` = the new scorer), and on the final move the game
        (mode, digits, teams, winner, decided), its members' lines and its throw log."""
        def job(conn: sqlite3.Connection) -> None:
            if keep_seat is not None:
                conn.execute("UPDATE seats SET active = 0 WHERE game_id = ? AND user_id != ?",
                                   (game_id, keep_seat))
            if game is None:
                return
            mode, digits, teams, winner, decided = game
            conn.execute("INSERT INTO kegeln_games (game_id, platform, chat_id, mode, digits, teams, winner,"
                               " decided, at) VALUES (?,?,?,?,?,?,?,?,?)",
                               (game_id, platform, chat_id, mode, digits, teams, winner, int(decided), now))
            conn.executemany(
                "INSERT INTO kegeln_members (game_id, platform, chat_id, member, name, mode, team, number, place,"
                " win, throws, pins, nines, pumpen, at) VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?,?,?)",
                [(game_id, platform, chat_id, m.name.casefold(), m.name, mode, m.team, m.number, m.place,
                  int(m.win), m.throws, m.pins, m.nines, m.pumpen, now) for m in members])
            conn.executemany(
                "INSERT INTO kegeln_throws (game_id, seq, platform, chat_id, member, name, pins, position, digit, at)"
                " VALUES (?,?,?,?,?,?,?,?,?,?)",
                [(game_id, i, platform, chat_id, name.casefold(), name, pins, pos, digit, at)
                 for i, (name, pins, pos, digit, at) in enumerate(throws, 1)])
        return job

    async def kegeln_member(self, platform: str, chat_id: str, name: str) -> tuple[Any, ...] | None:
        """(name, games, wins high, wins low, 9s, Pumpen, pins, throws) of one club member, or None."""
        rows = await self._read(f"SELECT {self._KEGELN_NAME}, {self._KEGELN_SUMS} FROM kegeln_members k"
                                " WHERE platform = ? AND chat_id = ? AND member = ? GROUP BY member",
                                (platform, chat_id, name.casefold()))
        return tuple(rows[0]) if rows else None

    async def kegeln_club(self, platform: str, chat_id: str, limit: int = 30) -> list[tuple[Any, ...]]:
        """Every member's line (as kegeln_member), most wins first, then the best Kegel-Schnitt."""
        rows = await self._read(f"SELECT {self._KEGELN_NAME}, {self._KEGELN_SUMS} FROM kegeln_members k"
                                " WHERE platform = ? AND chat_id = ? GROUP BY member"
                                " ORDER BY SUM(win) DESC, 1.0 * SUM(pins) / MAX(SUM(throws), 1) DESC, member"
                                " LIMIT ?", (platform, chat_id, limit))
        return [tuple(r) for r in rows]

    async def kegeln_series(self, platform: str, chat_id: str) -> list[tuple[str, str, int, float, int, int]]:
        """(member, name, game id, time, pins, throws) per member and finished game, oldest first."""
        rows = await self._read("SELECT member, name, game_id, at, pins, throws FROM kegeln_members"
                                " WHERE platform = ? AND chat_id = ? ORDER BY at, game_id", (platform, chat_id))
        return [(r[0], r[1], r[2], r[3], r[4], r[5]) for r in rows]

    async def kegeln_games_since(self, platform: str, chat_id: str, since: float) -> list[tuple[Any, ...]]:
        """(game id, mode, digits, teams, winner, decided) of the games finished at or after `since`, in order."""
        rows = await self._read("SELECT game_id, mode, digits, teams, winner, decided FROM kegeln_games"
                                " WHERE platform = ? AND chat_id = ? AND at >= ? ORDER BY at, game_id",
                                (platform, chat_id, since))
        return [tuple(r) for r in rows]

    async def kegeln_members_since(self, platform: str, chat_id: str, since: float) -> list[tuple[Any, ...]]:
        """(name, games, 9s, Pumpen, pins, throws) per member over the games finished at or after `since`;
        the name in its most recent spelling of that span."""
        rows = await self._read(
            "SELECT (SELECT k2.name FROM kegeln_members k2 WHERE k2.platform = k.platform AND k2.chat_id = k.chat_id"
            " AND k2.member = k.member AND k2.at >= ? ORDER BY k2.at DESC, k2.game_id DESC LIMIT 1),"
            " COUNT(*), SUM(nines), SUM(pumpen), SUM(pins), SUM(throws) FROM kegeln_members k"
            " WHERE platform = ? AND chat_id = ? AND at >= ? GROUP BY member ORDER BY member",
            (since, platform, chat_id, since))
        return [tuple(r) for r in rows]

    async def kegeln_throw_log(self, platform: str, chat_id: str) -> list[tuple[Any, ...]]:
        """The club's throw log: (time, game id, name, pins, position, digit), oldest first, in throwing order."""
        rows = await self._read("SELECT at, game_id, name, pins, position, digit FROM kegeln_throws"
                                " WHERE platform = ? AND chat_id = ? ORDER BY game_id, seq", (platform, chat_id))
        return [tuple(r) for r in rows]

    # ------------------------------------------------------------ logik: results by side
    async def logik_sides(self, platform: str, chat_id: str | None) -> tuple[int, int, int, int]:
        """(white wins, black wins, draws, abandoned) of finished Logik games, in one chat or
        everywhere; counted once per game, from the white player's result line."""
        sql = ("SELECT COALESCE(SUM(outcome = 'win'), 0), COALESCE(SUM(outcome = 'loss'), 0),"
               " COALESCE(SUM(outcome = 'draw'), 0), COALESCE(SUM(outcome = 'abandoned'), 0) FROM results"
               " WHERE platform = ? AND kind = 'logik' AND side = 'white'")
        params: list[Any] = [platform]
        if chat_id is not None:
            sql += " AND chat_id = ?"
            params.append(chat_id)
        r = (await self._read(sql, params))[0]
        return int(r[0]), int(r[1]), int(r[2]), int(r[3])

    async def logik_record(self, platform: str, chat_id: str | None,
                           user_id: str) -> dict[str, tuple[int, int, int, int]]:
        """A player's Logik (wins, draws, losses, timed out) per side, in one chat or everywhere."""
        sql = ("SELECT side, SUM(outcome = 'win'), SUM(outcome = 'draw'), SUM(outcome = 'loss'),"
               " SUM(outcome = 'abandoned') FROM results WHERE platform = ? AND kind = 'logik' AND user_id = ?")
        params: list[Any] = [platform, user_id]
        if chat_id is not None:
            sql += " AND chat_id = ?"
            params.append(chat_id)
        rows = await self._read(sql + " GROUP BY side", params)
        return {str(r[0]): (int(r[1]), int(r[2]), int(r[3]), int(r[4])) for r in rows if r[0]}

    # ------------------------------------------------------------ solver: the computer opponent's level
    async def solver_bot_level(self, platform: str, chat_id: str, game_id: int, user_id: str) -> str | None:
        """The level of the bot in this duel, or (for a rematch) in the newest earlier duel against the
        bot that this user played in this chat: the data of its "bot" event."""
        rows = await self._read(
            "SELECT e.data FROM events e JOIN games g ON g.id = e.game_id WHERE e.type = 'bot'"
            " AND g.platform = ? AND g.chat_id = ? AND g.id <= ? AND (g.id = ? OR EXISTS"
            " (SELECT 1 FROM seats s WHERE s.game_id = g.id AND s.user_id = ?)) ORDER BY g.id DESC LIMIT 1",
            (platform, chat_id, game_id, game_id, user_id))
        return json.loads(rows[0][0]).get("level") if rows else None


def _check_bounds(conn: sqlite3.Connection, platform: str, chat_id: str, creator: str | None,
                  max_chat: int, max_user: int) -> None:
    """TooManyGames when the chat's running games, or the creator's among them, are at their bound."""
    in_chat, mine = conn.execute(
        "SELECT COUNT(*), COALESCE(SUM(EXISTS (SELECT 1 FROM seats s WHERE s.game_id = g.id AND s.user_id = ?)), 0)"
        " FROM games g WHERE g.over = 0 AND g.platform = ? AND g.chat_id = ?", (creator, platform, chat_id)).fetchone()
    if max_user and creator is not None and mine >= max_user:
        raise TooManyGames("user", max_user)
    if max_chat and in_chat >= max_chat:
        raise TooManyGames("chat", max_chat)


def _add_seats(conn: sqlite3.Connection, game_id: int, platform: str, chat_id: str,
                     seats: Sequence[str]) -> None:
    for user_id in seats:
        try:
            conn.execute("INSERT INTO seats (game_id, platform, chat_id, user_id) VALUES (?,?,?,?) "
                               "ON CONFLICT (game_id, user_id) DO UPDATE SET active = 1",
                               (game_id, platform, chat_id, user_id))
        except sqlite3.IntegrityError as exc:
            raise SeatTaken(user_id) from exc


def _add_events(conn: sqlite3.Connection, game_id: int, events: Sequence[Event], now: float) -> None:
    if events:
        conn.executemany("INSERT INTO events (game_id, type, data, at) VALUES (?,?,?,?)",
                               [(game_id, e.type, json.dumps(e.data), now) for e in events])


def _add_seen(conn: sqlite3.Connection, seen: tuple[str, str] | None, now: float) -> None:
    """Record the platform update this move answers; a second delivery of it is a Duplicate and
    its whole move is rolled back (so a redelivered update is applied once, even after a restart)."""
    if seen:
        try:
            conn.execute("INSERT INTO seen (platform, event_id, at) VALUES (?,?,?)", (*seen, now))
        except sqlite3.IntegrityError as exc:
            raise Duplicate(seen[1]) from exc


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
