"""The club's records: their queries, row types (read by column name), reads and write jobs.

The club keeps its records of the games it played beyond each game's state (migrations 2 and 7 of
bot/storage/migrations.py: `kegeln_games`, `kegeln_members`, `kegeln_throws`, `kegeln_seasons`). Club members
are names, not chat accounts: `member` is the casefolded name, per chat. The tables keep the names they were
shipped with (`kegeln_*`, in the shared migration list). Everything here runs over the Store's public SQL
primitives: reads with `store.fetch`, writes as `TxJob`s — in the move's transaction (`record_in`, from
bot/club/games.py `move_job`) or alone (`store.run`).
"""

from __future__ import annotations

import dataclasses
import json
from collections.abc import Awaitable, Callable, Iterable, Mapping, Sequence
from typing import Any, Generic, NamedTuple, TypeVar

from bot.storage import queries as q
from bot.storage.base import GameRow, Store
from bot.storage.sql import Query, Tx, TxJob
from bot.storage.store import game_row, write_ratings
from core.club.records import Played
from core.club.season import SeasonRow, Start
from core.ratings import Step

R = TypeVar("R")


# ---------------------------------------------------------------- row types
class MemberLine(NamedTuple):
    """A club member's totals (the name in its newest spelling)."""

    name: str
    games: int
    wins_high: int
    wins_low: int
    nines: int
    pumpen: int
    pins: int
    throws: int


class MemberPoint(NamedTuple):
    """One member's pins and throws in one finished game (`member` is the casefolded name)."""

    member: str
    name: str
    game_id: int
    at: float
    pins: int
    throws: int


class FinishedGame(NamedTuple):
    """A finished game as the club's records keep it."""

    game_id: int
    mode: str
    digits: int
    teams: int
    winner: str
    decided: int


class SpanLine(NamedTuple):
    """A member's totals over the games of a span (e.g. tonight)."""

    name: str
    games: int
    nines: int
    pumpen: int
    pins: int
    throws: int
    wins: int  # games won (the evening's king)


class ThrowLine(NamedTuple):
    """A line of a club's throw log."""

    at: float
    game_id: int
    name: str
    pins: int
    position: int
    digit: int


class GameTime(NamedTuple):
    game_id: int
    at: float


class Select(Generic[R]):
    """A SELECT with one named column per field of its row type (`expr AS field`); its rows are built
    with keywords from those names, so a column is read by its name, never by where it stands."""

    __slots__ = ("names", "query", "row")

    def __init__(self, row: Callable[..., R], fields: Iterable[str], columns: Mapping[str, str],
                 rest: str) -> None:
        if set(columns) != set(fields):
            raise ValueError(f"the columns {sorted(columns)} are not the fields {sorted(fields)}")
        self.row = row
        self.names = tuple(columns)
        self.query = Query("SELECT " + ", ".join(f"{expr} AS {name}" for name, expr in columns.items())
                           + " " + rest)

    def build(self, values: Sequence[Any]) -> R:
        return self.row(**dict(zip(self.names, values, strict=True)))

    async def all(self, store: Store, **params: Any) -> list[R]:
        return [self.build(r) for r in await store.fetch(self.query, **params)]


def _select(row: type[Any], columns: Mapping[str, str], rest: str) -> Select[Any]:
    fields = row._fields if hasattr(row, "_fields") else tuple(f.name for f in dataclasses.fields(row))
    return Select(row, fields, columns, rest)


# ---------------------------------------------------------------- queries
INSERT_GAME = Query(
    "INSERT INTO kegeln_games (game_id, platform, chat_id, mode, digits, teams, winner, decided, at)"
    " VALUES (:game_id, :platform, :chat_id, :mode, :digits, :teams, :winner, :decided, :at)")
INSERT_MEMBER = Query(
    "INSERT INTO kegeln_members (game_id, platform, chat_id, member, name, mode, team, number, place, win, throws,"
    " pins, nines, pumpen, at) VALUES (:game_id, :platform, :chat_id, :member, :name, :mode, :team, :number,"
    " :place, :win, :throws, :pins, :nines, :pumpen, :at)")
INSERT_THROW = Query(
    "INSERT INTO kegeln_throws (game_id, seq, platform, chat_id, member, name, pins, position, digit, at)"
    " VALUES (:game_id, :seq, :platform, :chat_id, :member, :name, :pins, :position, :digit, :at)")

_NEWEST_NAME = ("(SELECT k2.name FROM kegeln_members k2 WHERE k2.platform = k.platform AND k2.chat_id = k.chat_id"
                " AND k2.member = k.member ORDER BY k2.at DESC, k2.game_id DESC LIMIT 1)")
_LINE = {"name": _NEWEST_NAME, "games": "COUNT(*)",
         "wins_high": "SUM(CASE WHEN k.mode = 'high' THEN k.win ELSE 0 END)",
         "wins_low": "SUM(CASE WHEN k.mode = 'low' THEN k.win ELSE 0 END)",
         "nines": "SUM(k.nines)", "pumpen": "SUM(k.pumpen)", "pins": "SUM(k.pins)", "throws": "SUM(k.throws)"}
_CHAT = "FROM kegeln_members k WHERE k.platform = :platform AND k.chat_id = :chat_id"
MEMBER = _select(MemberLine, _LINE, _CHAT + " AND k.member = :member GROUP BY k.platform, k.chat_id, k.member")
CLUB = _select(MemberLine, _LINE,  # most wins first, then the best Kegel-Schnitt (pins per throw)
               _CHAT + " GROUP BY k.platform, k.chat_id, k.member ORDER BY SUM(k.win) DESC,"
               " 1.0 * SUM(k.pins) / CASE WHEN SUM(k.throws) > 1 THEN SUM(k.throws) ELSE 1 END DESC,"
               ' k.member COLLATE "C" LIMIT :limit')
SERIES = _select(MemberPoint, {f: "k." + f for f in MemberPoint._fields}, _CHAT + " ORDER BY k.at, k.game_id")
GAMES_SINCE = _select(FinishedGame, {f: "g." + f for f in FinishedGame._fields},
                      "FROM kegeln_games g WHERE g.platform = :platform AND g.chat_id = :chat_id AND g.at >= :since"
                      " ORDER BY g.at, g.game_id")
MEMBERS_SINCE = _select(SpanLine, {  # the name in its most recent spelling of the span
    "name": "(SELECT k2.name FROM kegeln_members k2 WHERE k2.platform = k.platform AND k2.chat_id = k.chat_id"
            " AND k2.member = k.member AND k2.at >= :since ORDER BY k2.at DESC, k2.game_id DESC LIMIT 1)",
    "games": "COUNT(*)", "nines": "SUM(k.nines)", "pumpen": "SUM(k.pumpen)", "pins": "SUM(k.pins)",
    "throws": "SUM(k.throws)", "wins": "SUM(k.win)"},
    _CHAT + ' AND k.at >= :since GROUP BY k.platform, k.chat_id, k.member ORDER BY k.member COLLATE "C"')
THROW_LOG = _select(ThrowLine, {f: "t." + f for f in ThrowLine._fields},
                    "FROM kegeln_throws t WHERE t.platform = :platform AND t.chat_id = :chat_id"
                    " ORDER BY t.game_id, t.seq")
SEASON_START = _select(Start, {"month": "s.month", "day": "s.day"},
                       "FROM kegeln_seasons s WHERE s.platform = :platform AND s.chat_id = :chat_id")
SET_SEASON_START = Query(
    "INSERT INTO kegeln_seasons (platform, chat_id, month, day) VALUES (:platform, :chat_id, :month, :day)"
    " ON CONFLICT (platform, chat_id) DO UPDATE SET month = excluded.month, day = excluded.day")
SEASON_ROWS = _select(  # every member line of the games finished in [since, until), oldest first
    SeasonRow, {f: ("g." if f == "digits" else "k.") + f for f in SeasonRow._fields},
    "FROM kegeln_members k JOIN kegeln_games g ON g.game_id = k.game_id"
    " WHERE k.platform = :platform AND k.chat_id = :chat_id AND k.at >= :since AND k.at < :until"
    ' ORDER BY k.at, k.game_id, k.place, k.member COLLATE "C"')
GAME_TIMES = _select(GameTime, {"game_id": "g.game_id", "at": "g.at"},
                     "FROM kegeln_games g WHERE g.platform = :platform AND g.chat_id = :chat_id")
# /kegelmerge: one member's records under another name (`member` casefolded); the games both played
SHARED_GAMES = Query(
    "SELECT a.game_id FROM kegeln_members a JOIN kegeln_members b ON b.game_id = a.game_id"
    " WHERE a.platform = :platform AND a.chat_id = :chat_id AND a.member = :old AND b.member = :new"
    " ORDER BY a.game_id")
MERGE = tuple(
    Query(f"UPDATE {table} SET member = :new, name = :new_name"
          " WHERE platform = :platform AND chat_id = :chat_id AND member = :old")
    for table in ("kegeln_members", "kegeln_throws"))
WINNERS = Query("SELECT game_id, teams, winner FROM kegeln_games WHERE platform = :platform"
                " AND chat_id = :chat_id ORDER BY game_id")
SET_WINNER = Query("UPDATE kegeln_games SET winner = :winner WHERE game_id = :game_id")


# ---------------------------------------------------------------- the writes of a completed club game
async def record_in(tx: Tx, game_id: int, platform: str, chat_id: str, played: Played, now: float) -> None:
    """The game, its members' lines and its throw log, in the final move's transaction."""
    game = played.record
    if game is None:
        return
    where = {"game_id": game_id, "platform": platform, "chat_id": chat_id}
    await tx.execute(INSERT_GAME, **where, mode=game.mode, digits=game.digits, teams=game.teams,
                     winner=game.winner, decided=int(game.decided), at=now)
    await tx.executemany(INSERT_MEMBER, [
        {**where, "member": m.name.casefold(), "name": m.name, "mode": game.mode, "team": m.team,
         "number": m.number, "place": m.place, "win": int(m.win), "throws": m.throws, "pins": m.pins,
         "nines": m.nines, "pumpen": m.pumpen, "at": now} for m in played.members])
    await tx.executemany(INSERT_THROW, [
        {**where, "seq": i, "member": t.name.casefold(), "name": t.name, "pins": t.pins, "position": t.position,
         "digit": t.digit, "at": t.at} for i, t in enumerate(played.log, 1)])


# ---------------------------------------------------------------- club statistics
async def member(store: Store, platform: str, chat_id: str, name: str) -> MemberLine | None:
    """One club member's line, or None."""
    rows: list[MemberLine] = await MEMBER.all(store, platform=platform, chat_id=chat_id, member=name.casefold())
    return rows[0] if rows else None


async def club(store: Store, platform: str, chat_id: str, limit: int = 30) -> list[MemberLine]:
    """Every member's line, most wins first, then the best Kegel-Schnitt."""
    rows: list[MemberLine] = await CLUB.all(store, platform=platform, chat_id=chat_id, limit=limit)
    return rows


async def series(store: Store, platform: str, chat_id: str) -> list[MemberPoint]:
    """Per member and finished game, oldest first."""
    rows: list[MemberPoint] = await SERIES.all(store, platform=platform, chat_id=chat_id)
    return rows


async def games_since(store: Store, platform: str, chat_id: str, since: float) -> list[FinishedGame]:
    """The games finished at or after `since`, in order."""
    rows: list[FinishedGame] = await GAMES_SINCE.all(store, platform=platform, chat_id=chat_id, since=since)
    return rows


async def members_since(store: Store, platform: str, chat_id: str, since: float) -> list[SpanLine]:
    """Per member over the games finished at or after `since`; the name in its most recent spelling of
    that span."""
    rows: list[SpanLine] = await MEMBERS_SINCE.all(store, platform=platform, chat_id=chat_id, since=since)
    return rows


async def throw_log(store: Store, platform: str, chat_id: str) -> list[ThrowLine]:
    """The club's throw log, oldest first, in throwing order."""
    rows: list[ThrowLine] = await THROW_LOG.all(store, platform=platform, chat_id=chat_id)
    return rows


# ---------------------------------------------------------------- the season and merged members
async def season_start(store: Store, platform: str, chat_id: str) -> Start | None:
    """The chat's season start, or None (never set: 1 January)."""
    rows: list[Start] = await SEASON_START.all(store, platform=platform, chat_id=chat_id)
    return rows[0] if rows else None


async def set_season_start(store: Store, platform: str, chat_id: str, month: int, day: int) -> None:
    async def job(tx: Tx) -> None:
        await tx.execute(SET_SEASON_START, platform=platform, chat_id=chat_id, month=month, day=day)
    await store.run(job)


async def season_rows(store: Store, platform: str, chat_id: str, since: float, until: float) -> list[SeasonRow]:
    """Every member line of the games finished in [since, until), oldest first."""
    rows: list[SeasonRow] = await SEASON_ROWS.all(store, platform=platform, chat_id=chat_id, since=since,
                                                  until=until)
    return rows


async def game_times(store: Store, platform: str, chat_id: str) -> dict[int, float]:
    """When each finished Kegeln game of the chat ended (its season)."""
    rows: list[GameTime] = await GAME_TIMES.all(store, platform=platform, chat_id=chat_id)
    return {int(r.game_id): float(r.at) for r in rows}


async def finished(store: Store, kind: str, platform: str, chat_id: str) -> list[tuple[GameRow, float]]:
    """The chat's finished games of the club's game (`kind`) with the time each ended, in the order they
    ended (who scored what: /kegelmerge asks it)."""
    rows = await store.fetch(q.FINISHED_GAMES_OF, platform=platform, chat_id=chat_id, kind=kind)
    return [(game_row(r), float(r[8])) for r in rows]


# /kegelmerge: a finished game's final state with the member renamed (None: unchanged), and the replay of
# one chat's ratings and their history from its finished games (with the time each ended, in the order they
# ended; bot/app/ratings_rebuild.py `replay_local`)
Restate = Callable[[dict[str, Any]], dict[str, Any] | None]
Rerate = Callable[[Sequence[tuple[GameRow, float]]], Awaitable[tuple[Sequence[Step], Sequence[Step]]]]
# ... and the merge's own checks, made in its transaction before anything is written, on the chat's running
# Kegeln games and its finished ones (with the time each ended): raising refuses the merge, nothing written
MergeCheck = Callable[[Sequence[GameRow], Sequence[tuple[GameRow, float]]], None]


def merge_job(kind: str, platform: str, chat_id: str, old: str, new: str, new_name: str, restate: Restate,
              rerate: Rerate, check: MergeCheck, after: TxJob | None = None) -> TxJob:
    """Member `old` (casefolded) becomes `new` in the chat's records, spelled `new_name`, in one transaction
    (`merge` runs it). First `check(running, finished)` sees the chat's running and finished Kegeln games as
    this transaction does (after `lock_chat`: a game created meanwhile either is among them or starts after
    the merge) and may refuse by raising; refused too (nothing written) when both played in one game: the
    job returns those game ids. The chat's finished Kegeln games keep their final states as
    `restate(state)` gives them (None: unchanged), and the chat's Kegeln ratings and their history become
    `rerate(games)` of those games (every finished one, with the time it ended, in the order they ended: as
    the rebuild replays them). `after`: more writes of the merge in its transaction (the cash box's)."""
    async def job(tx: Tx) -> list[int]:
        where = {"platform": platform, "chat_id": chat_id}
        await tx.lock_chat(platform, chat_id)  # game creations in the chat wait (create_game)
        await tx.lock_table("ratings")  # a game ending meanwhile rates on top of the replay (see rewrite_ratings)
        running = [g for g in (game_row(r) for r in await tx.fetch(q.CHAT_GAMES, **where)) if g.kind == kind]
        ended = [(game_row(r), float(r[8])) for r in await tx.fetch(q.FINISHED_GAMES_OF, **where, kind=kind)]
        check(running, ended)
        shared = [int(r[0]) for r in await tx.fetch(SHARED_GAMES, **where, old=old, new=new)]
        if shared:
            return shared
        for statement in MERGE:
            await tx.execute(statement, **where, old=old, new=new, new_name=new_name)
        for game_id, teams, winner in await tx.fetch(WINNERS, **where):
            parts = winner.split(", ") if teams else [winner]
            renamed = [new_name if p.casefold() == old else p for p in parts]
            if renamed != parts:
                await tx.execute(SET_WINNER, game_id=game_id, winner=", ".join(renamed))
        replayed = []
        for row, at in ended:
            state = restate(row.state)
            if state is not None:
                await tx.execute(q.SET_FINISHED_STATE, id=row.id, state=json.dumps(state))
                row = dataclasses.replace(row, state=state)
            replayed.append((row, at))
        current, history = await rerate(replayed)
        await tx.execute(q.CLEAR_RATING_HISTORY_OF, **where, kind=kind)
        await tx.execute(q.CLEAR_RATINGS_OF, **where, kind=kind)
        await write_ratings(tx, current, history)
        if after is not None:
            await after(tx)
        return []
    return job


async def merge(store: Store, kind: str, platform: str, chat_id: str, old: str, new: str, new_name: str,
                restate: Restate, rerate: Rerate, check: MergeCheck, after: TxJob | None = None) -> list[int]:
    """`merge_job` in a transaction of its own: the game ids both played in (nothing merged), or []."""
    shared: list[int] = await store.run(merge_job(kind, platform, chat_id, old, new, new_name, restate, rerate, check,
                                                  after))
    return shared


# A Telegram group became a supergroup: the club's records move to the new chat id (its plugin's Schema)
CHAT_MOVES = (
    *(Query(f"UPDATE {table} SET chat_id = :new WHERE platform = :platform AND chat_id = :old")
      for table in ("kegeln_games", "kegeln_members", "kegeln_throws")),
    Query("UPDATE kegeln_seasons SET chat_id = :new WHERE platform = :platform AND chat_id = :old"
          " AND NOT EXISTS (SELECT 1 FROM kegeln_seasons c WHERE c.platform = :platform AND c.chat_id = :new)"),
)
