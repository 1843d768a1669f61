"""The daily puzzle's storage: its queries, its rows (read by column name), its reads and write jobs.

Tables (bot/storage/migrations.py, shipped, never changed): `daily_puzzles` — the code of each chat,
day and puzzle, drawn once when first asked for, and when that day ends in the zone it was drawn
for; `daily_plays` — each player's one attempt at it (its primary key is the rule "one attempt per
player, chat, day and puzzle"). The chat's time zone (`chats.tz`) is the Store's: Kegeln reads it too.
Reads go through `store.fetch`; a write job runs in a move's transaction (`create_game(extra=…)`,
`save_game(extra=…)`) or alone (`store.run`).
"""

from __future__ import annotations

from collections.abc import Callable, Coroutine, Sequence
from typing import Any, NamedTuple

from bot.storage.base import Store
from bot.storage.sql import Query, Tx, TxJob
from core.games.daily.rules import DailyOutcome

PLAYING = "playing"  # `daily_plays.outcome` of a running attempt; a finished one its `DailyOutcome`
StartJob = Callable[[Tx, int], Coroutine[Any, Any, None]]  # a job of `create_game(extra=…)`: (tx, the new game's id)


class DailyLine(NamedTuple):
    """A player's attempt at a chat's daily puzzle: its outcome (`PLAYING` or a `DailyOutcome` value) and
    the attempts it took (`day` where the query spans days)."""

    user_id: str
    name: str
    outcome: str
    attempts: int
    day: str = ""


class DailyPlay(NamedTuple):
    """The actor's attempt at a day's puzzle: its game, its outcome so far, its attempts."""

    game_id: int
    outcome: str
    attempts: int


class DailyWindow(NamedTuple):
    """When a day's puzzle ends (None: not drawn, or drawn before the ends were kept), and the latest end
    of the chat's other days of the puzzle (None: none known)."""

    this_end: float | None
    last_end: float | None


class DailyTaken(Exception):
    """The player has an attempt at this chat's daily puzzle of the day already (running or over)."""


def _columns(*names: str) -> tuple[tuple[str, ...], str]:
    """The names a SELECT answers with, and its column list."""
    return names, ", ".join(names)


def _named(columns: Sequence[str], row: Sequence[Any]) -> dict[str, Any]:
    """A row by the names of its SELECT's columns."""
    return dict(zip(columns, row, strict=True))


# ---------------------------------------------------------------- the queries
_DAY = "platform = :platform AND chat_id = :chat_id AND day = :day AND puzzle = :puzzle"
_PUZZLE, _PUZZLE_COLS = _columns("secret", "lang")
DAILY_PUZZLE = Query(f"SELECT {_PUZZLE_COLS} FROM daily_puzzles WHERE {_DAY}")
INSERT_DAILY_PUZZLE = Query(  # the first asker's draw is the chat's code of the day; later draws are dropped
    "INSERT INTO daily_puzzles (platform, chat_id, day, puzzle, secret, lang, created, ends)"
    " VALUES (:platform, :chat_id, :day, :puzzle, :secret, :lang, :now, :ends) ON CONFLICT DO NOTHING")
_WINDOW = DailyWindow._fields
DAILY_WINDOW = Query(  # this day's end (if drawn) and the latest end of the chat's other days of the puzzle
    f"SELECT (SELECT ends FROM daily_puzzles WHERE {_DAY}) AS this_end, (SELECT MAX(ends) FROM daily_puzzles"
    " WHERE platform = :platform AND chat_id = :chat_id AND puzzle = :puzzle AND day <> :day) AS last_end")
_PLAY, _PLAY_COLS = _columns(*DailyPlay._fields)
DAILY_PLAY = Query(f"SELECT {_PLAY_COLS} FROM daily_plays WHERE {_DAY} AND user_id = :user_id")
INSERT_DAILY_PLAY = Query(  # the primary key refuses a second attempt (insert_unique)
    "INSERT INTO daily_plays (platform, chat_id, day, puzzle, user_id, name, game_id, started)"
    " VALUES (:platform, :chat_id, :day, :puzzle, :user_id, :name, :game_id, :now)")
FINISH_DAILY_PLAY = Query("UPDATE daily_plays SET outcome = :outcome, attempts = :attempts, finished = :now"
                          " WHERE game_id = :game_id")
_LINE, _LINE_COLS = _columns("user_id", "name", "outcome", "attempts")
DAILY_DAY = Query(  # the day's board: solved first (fewest attempts, earliest), then the others
    f"SELECT {_LINE_COLS} FROM daily_plays WHERE {_DAY} ORDER BY"
    " CASE outcome WHEN 'solved' THEN 0 WHEN 'playing' THEN 2 ELSE 1 END, attempts, finished, started")
_HISTORY, _HISTORY_COLS = _columns(*DailyLine._fields)
DAILY_HISTORY = Query(  # every finished attempt of the chat at one puzzle, per player and day
    f"SELECT {_HISTORY_COLS} FROM daily_plays WHERE platform = :platform"
    " AND chat_id = :chat_id AND puzzle = :puzzle AND outcome != 'playing' ORDER BY user_id COLLATE \"C\", day")
DAILY_SOLVED_DAYS = Query(
    "SELECT day FROM daily_plays WHERE platform = :platform AND chat_id = :chat_id AND puzzle = :puzzle"
    " AND user_id = :user_id AND outcome = 'solved' ORDER BY day")


def _line(row: Sequence[Any], columns: Sequence[str], day: str = "") -> DailyLine:
    c = _named(columns, row)
    return DailyLine(user_id=str(c["user_id"]), name=str(c["name"]), outcome=str(c["outcome"]),
                     attempts=int(c["attempts"]), day=str(c.get("day", day)))


# ---------------------------------------------------------------- reads
async def daily_window(store: Store, platform: str, chat_id: str, day: str, puzzle: str) -> DailyWindow:
    """When `day`'s puzzle ends, and the latest end of the chat's other days of the puzzle."""
    rows = await store.fetch(DAILY_WINDOW, platform=platform, chat_id=chat_id, day=day, puzzle=puzzle)
    c = _named(_WINDOW, rows[0]) if rows else {}
    this, last = c.get("this_end"), c.get("last_end")
    return DailyWindow(this_end=None if this is None else float(this), last_end=None if last is None else float(last))


async def daily_puzzle(store: Store, platform: str, chat_id: str, day: str, puzzle: str,
                       draw: Callable[[], tuple[str, str]], now: float, ends: float | None = None) -> tuple[str, str]:
    """The chat's code of the day for a puzzle and its language: the stored one, else `draw()`
    (a `(secret, lang)`) stored now; of two first askers at once the first write wins for both."""
    where = {"platform": platform, "chat_id": chat_id, "day": day, "puzzle": puzzle}
    rows = await store.fetch(DAILY_PUZZLE, **where)
    if rows:
        c = _named(_PUZZLE, rows[0])
        return str(c["secret"]), str(c["lang"])
    secret, lang = draw()

    async def job(tx: Tx) -> tuple[str, str]:
        await tx.execute(INSERT_DAILY_PUZZLE, **where, secret=secret, lang=lang, now=now, ends=ends)
        row = await tx.fetchrow(DAILY_PUZZLE, **where)
        assert row is not None
        c = _named(_PUZZLE, row)
        return str(c["secret"]), str(c["lang"])
    stored: tuple[str, str] = await store.run(job)
    return stored


async def daily_play(store: Store, platform: str, chat_id: str, day: str, puzzle: str,
                     user_id: str) -> DailyPlay | None:
    """The player's attempt at the chat's puzzle of `day`, or None."""
    rows = await store.fetch(DAILY_PLAY, platform=platform, chat_id=chat_id, day=day, puzzle=puzzle, user_id=user_id)
    if not rows:
        return None
    c = _named(_PLAY, rows[0])
    return DailyPlay(game_id=int(c["game_id"]), outcome=str(c["outcome"]), attempts=int(c["attempts"]))


async def daily_day(store: Store, platform: str, chat_id: str, day: str, puzzle: str) -> list[DailyLine]:
    """The attempts at the chat's puzzle of `day`: solved first (fewest attempts, earliest), then the
    others, the running ones last."""
    rows = await store.fetch(DAILY_DAY, platform=platform, chat_id=chat_id, day=day, puzzle=puzzle)
    return [_line(r, _LINE, day) for r in rows]


async def daily_history(store: Store, platform: str, chat_id: str, puzzle: str) -> list[DailyLine]:
    """Every finished attempt of the chat at one puzzle, per player (by id) and day."""
    rows = await store.fetch(DAILY_HISTORY, platform=platform, chat_id=chat_id, puzzle=puzzle)
    return [_line(r, _HISTORY) for r in rows]


async def daily_solved_days(store: Store, platform: str, chat_id: str, puzzle: str, user_id: str) -> list[str]:
    """The days (ISO dates, oldest first) the player solved the chat's puzzle."""
    rows = await store.fetch(DAILY_SOLVED_DAYS, platform=platform, chat_id=chat_id, puzzle=puzzle, user_id=user_id)
    return [str(_named(("day",), r)["day"]) for r in rows]


# ---------------------------------------------------------------- write jobs
def daily_start_job(platform: str, chat_id: str, day: str, puzzle: str, user_id: str, name: str,
                    now: float) -> StartJob:
    """A player's attempt at the day's puzzle, stored with its game (`create_game(extra=...)`):
    DailyTaken, and nothing stored, when the player has one already (the primary key decides,
    so two devices at once get one attempt)."""
    async def job(tx: Tx, game_id: int) -> None:
        if not await tx.insert_unique(INSERT_DAILY_PLAY, platform=platform, chat_id=chat_id, day=day,
                                      puzzle=puzzle, user_id=user_id, name=name, game_id=game_id, now=now):
            raise DailyTaken(user_id)
    return job


def daily_finish_job(game_id: int, outcome: DailyOutcome, attempts: int, now: float) -> TxJob:
    """An attempt's end, in the transaction of its last move (`save_game(extra=...)`)."""
    async def job(tx: Tx) -> None:
        await tx.execute(FINISH_DAILY_PLAY, game_id=game_id, outcome=outcome.value, attempts=attempts, now=now)
    return job


# A Telegram group became a supergroup: its puzzles and plays move to the new chat id (its plugin's Schema)
CHAT_MOVES = (
    Query("UPDATE daily_puzzles SET chat_id = :new WHERE platform = :platform AND chat_id = :old AND NOT EXISTS"
          " (SELECT 1 FROM daily_puzzles d WHERE d.platform = :platform AND d.chat_id = :new"
          " AND d.day = daily_puzzles.day AND d.puzzle = daily_puzzles.puzzle)"),
    Query("UPDATE daily_plays SET chat_id = :new WHERE platform = :platform AND chat_id = :old AND NOT EXISTS"
          " (SELECT 1 FROM daily_plays d WHERE d.platform = :platform AND d.chat_id = :new AND d.day = daily_plays.day"
          " AND d.puzzle = daily_plays.puzzle AND d.user_id = daily_plays.user_id)"),
)
