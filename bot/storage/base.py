"""What the App needs from a store, whatever the database behind it."""

from __future__ import annotations

import asyncio
from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, NamedTuple, Protocol

if TYPE_CHECKING:
    from bot.storage.sql import Query, TxJob
    from core.games.base import Event, Logged, Outcome


@dataclass(frozen=True)
class GameRow:
    """A stored game: where it runs, which kind, its JSON state, and its version for compare-and-set."""

    id: int
    platform: str
    chat_id: str
    private: bool
    kind: str
    state: dict[str, Any]
    over: bool
    version: int


@dataclass(frozen=True)
class NewResult:
    """A player's result row, written in the same transaction as the game's last move."""

    user_id: str
    name: str
    outcome: Outcome  # stored as its value
    attempts: int | None
    length: int | None
    repeats: bool | None
    rating: str | None
    side: str | None = None  # "white" | "black" where the game records sides (Logik)


@dataclass(frozen=True)
class StatLine:
    kind: str
    games: int
    wins: int
    draws: int
    losses: int
    abandoned: int
    gave_up: int


# The rows the statistics queries answer with: named tuples, so that a caller reads fields by name
# and a row still compares equal to (and unpacks like) the plain tuple it used to be.
class UserMatch(NamedTuple):
    user_id: str
    name: str


class RatedLine(NamedTuple):
    """A line of a chat's skill ratings in one game (core/ratings.py)."""

    user_id: str
    name: str
    mu: float
    sigma: float
    games: int


class TopLine(NamedTuple):
    """A line of a chat's duel leaderboard."""

    name: str
    wins: int
    draws: int
    losses: int
    games: int




class SeatTaken(Exception):
    """The player already sits in a running game in that chat."""

    def __init__(self, user_id: str) -> None:
        super().__init__(user_id)
        self.user_id = user_id


class TooManyGames(Exception):
    """A new game would pass a bound on running games: `scope` "chat" (running games in the chat) or
    "user" (running games in the chat the creator sits or sat in); `limit` is that bound."""

    def __init__(self, scope: str, limit: int) -> None:
        super().__init__(f"{scope}: {limit}")
        self.scope = scope
        self.limit = limit


class Duplicate(Exception):
    """The platform delivered this update before and its move is already stored."""


class Conflict(Exception):
    """The game changed since it was loaded (another handler or process won the race)."""


class StoreUnavailable(Exception):
    """The database could not take the write (busy/locked, disk full, I/O error); nothing of it was
    stored. `reason` is "busy", "full" or "error", for a clear reply."""

    def __init__(self, reason: str, detail: str) -> None:
        super().__init__(f"{reason}: {detail}")
        self.reason = reason


def game_id_fits(game_id: int) -> bool:
    """Whether an id can be a stored game's (a 64-bit integer): a longer one names no game."""
    return -(2**63) <= game_id < 2**63


class StoreOpenError(Exception):
    """The database cannot be used at start: not a database, damaged, not writable, or written by a
    newer version of the bot (a schema version above the newest migration). The message is one line
    that says what is wrong and where (a URL without its password), fit to print as it is."""


FinishedStamp = tuple[int, int]  # the finished games a rebuild replayed: how many, the sum of their versions
class Store(Protocol):
    """What the App and the Renderer use of a store: SqliteStore (one process) and PostgresStore
    (several processes on one database) both provide it, with the same semantics and exceptions —
    every method is written once, in bot/storage/store.py, over either driver. A game's own storage
    (its queries, row types, reads and write jobs) lives with the game, written over `fetch`, `run`
    and `submit` (e.g. bot/club/records.py); a write job (passed as `save_game(extra=...)`)
    is an `async def job(tx)` that runs in the move's transaction on either store."""

    async def open(self) -> None: ...
    async def close(self) -> None: ...
    # the SQL primitives a game's own storage module is written over (its Queries, its write jobs)
    async def fetch(self, query: Query, **params: Any) -> list[Sequence[Any]]: ...
    async def run(self, job: TxJob) -> Any: ...
    def submit(self, job: TxJob) -> asyncio.Future[Any]: ...
    async def get_game(self, game_id: int) -> GameRow | None: ...
    async def seated_games(self, platform: str, user_id: str, chat_id: str | None = None) -> list[GameRow]: ...
    async def chat_games(self, platform: str, chat_id: str) -> list[GameRow]: ...
    async def idle_games(self, before: float) -> list[GameRow]: ...
    async def create_game(self, platform: str, chat_id: str, private: bool, kind: str,
                          state: dict[str, Any], seats: Sequence[str], events: Sequence[Event],
                          now: float, seen: tuple[str, str] | None = None, *, creator: str | None = None,
                          max_chat: int = 0, max_user: int = 0, extra: Any = None,
                          seat_key: str | None = None) -> int: ...
    async def save_game(self, game: GameRow, state: dict[str, Any], over: bool, seats: Sequence[str],
                        events: Sequence[Event], results: Sequence[NewResult], now: float,
                        seen: tuple[str, str] | None = None, released: Sequence[str] = (),
                        extra: Any = None) -> int: ...
    def link_job(self, game: GameRow, linked: Any, now: float) -> Any: ...
    async def last_game(self, platform: str, chat_id: str, user_id: str) -> GameRow | None: ...
    async def last_games(self, platform: str, chat_id: str, user_id: str, limit: int) -> list[GameRow]: ...
    async def event_log(self, game_id: int) -> list[Logged]: ...
    async def was_seen(self, platform: str, event_id: str) -> bool: ...
    async def mark_seen(self, platform: str, event_id: str, now: float) -> None: ...
    async def chat_lang(self, platform: str, chat_id: str) -> str | None: ...
    async def set_chat_lang(self, platform: str, chat_id: str, lang: str | None) -> None: ...
    async def migrate_chat(self, platform: str, old: str, new: str) -> None: ...
    def save_user(self, platform: str, user_id: str, name: str, locale: str | None) -> asyncio.Future[Any]: ...
    async def user_name(self, platform: str, user_id: str) -> str | None: ...
    async def seen_in_chat(self, platform: str, chat_id: str, user_id: str) -> bool: ...
    async def user_locale(self, platform: str, user_id: str) -> str | None: ...
    async def find_users(self, platform: str, chat_id: str | None, name: str,
                         limit: int = 10) -> list[UserMatch]: ...
    async def stats(self, platform: str, chat_id: str | None, user_id: str) -> list[StatLine]: ...
    async def top(self, platform: str, chat_id: str, kind: str, limit: int = 10, skip: str = "") -> list[TopLine]: ...
    def rating_job(self, platform: str, chat_id: str, kind: str, match: Any, now: float, game_id: int) -> Any: ...
    async def top_rated(self, platform: str, chat_id: str, kind: str, limit: int = 10,
                        everywhere: bool = False) -> list[RatedLine]: ...
    async def player_ratings(self, platform: str, chat_id: str, user_id: str) -> dict[str, RatedLine]: ...
    async def rating_steps(self, platform: str, chat_id: str, kind: str, user_id: str,
                           limit: int = 1000) -> list[tuple[float, Any]]: ...
    async def finished_games(self) -> list[tuple[GameRow, float]]: ...
    @staticmethod
    def finished_stamp(finished: Sequence[tuple[GameRow, float]]) -> FinishedStamp: ...
    async def rewrite_ratings(self, current: Sequence[Any], history: Sequence[Any],
                              finished: FinishedStamp) -> None: ...
    def note_chat(self, platform: str, chat_id: str, title: str | None, user_id: str) -> asyncio.Future[Any]: ...
    async def chat_title(self, platform: str, chat_id: str, user_id: str) -> str | None: ...
    async def chat_tz(self, platform: str, chat_id: str) -> str | None: ...
    async def set_chat_tz(self, platform: str, chat_id: str, tz: str | None) -> None: ...
    async def scrub(self, tables: Sequence[str]) -> bool: ...
