"""What the App needs from a store, whatever the database behind it."""

from __future__ import annotations

import asyncio
from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Protocol

if TYPE_CHECKING:
    from core.games.base import Event


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
    outcome: str
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


class Store(Protocol):
    """What the App and the Renderer use of a store: SqliteStore (one process) and PostgresStore
    (several processes on one database) both provide it, with the same semantics and exceptions.
    A write job (`kegeln_job`'s result, passed as `save_game(extra=...)`) is store-specific: build it
    with the same store's `kegeln_job`. A game's own statistics queries go into BOTH stores."""

    async def open(self) -> None: ...
    async def close(self) -> None: ...
    async def get_game(self, game_id: int) -> GameRow | None: ...
    async def seated_games(self, platform: str, user_id: str, chat_id: str | None = None) -> list[GameRow]: ...
    async def chat_games(self, platform: str, chat_id: str) -> list[GameRow]: ...
    async def idle_games(self, before: float) -> list[GameRow]: ...
    async def create_game(self, platform: str, chat_id: str, private: bool, kind: str,
                          state: dict[str, Any], seats: Sequence[str], events: Sequence[Event],
                          now: float, seen: tuple[str, str] | None = None, *, creator: str | None = None,
                          max_chat: int = 0, max_user: int = 0) -> int: ...
    async def save_game(self, game: GameRow, state: dict[str, Any], over: bool, seats: Sequence[str],
                        events: Sequence[Event], results: Sequence[NewResult], now: float,
                        seen: tuple[str, str] | None = None, released: Sequence[str] = (),
                        extra: Any = None) -> int: ...
    async def last_game(self, platform: str, chat_id: str, user_id: str) -> GameRow | None: ...
    async def event_log(self, game_id: int) -> list[Event]: ...
    async def was_seen(self, platform: str, event_id: str) -> bool: ...
    async def mark_seen(self, platform: str, event_id: str, now: float) -> None: ...
    async def chat_lang(self, platform: str, chat_id: str) -> str | None: ...
    async def set_chat_lang(self, platform: str, chat_id: str, lang: str | None) -> None: ...
    async def migrate_chat(self, platform: str, old: str, new: str) -> None: ...
    def save_user(self, platform: str, user_id: str, name: str, locale: str | None) -> asyncio.Future[Any]: ...
    async def user_name(self, platform: str, user_id: str) -> str | None: ...
    async def user_locale(self, platform: str, user_id: str) -> str | None: ...
    async def find_users(self, platform: str, chat_id: str | None, name: str,
                         limit: int = 10) -> list[tuple[str, str]]: ...
    async def stats(self, platform: str, chat_id: str | None, user_id: str) -> list[StatLine]: ...
    async def practice_bests(self, platform: str, user_id: str) -> list[tuple[int, bool, int]]: ...
    async def top(self, platform: str, chat_id: str, limit: int = 10) -> list[tuple[str, int, int, int, int]]: ...
    def kegeln_job(self, game_id: int, platform: str, chat_id: str, keep_seat: str | None,
                   game: tuple[str, int, int, str, bool] | None, members: Sequence[Any],
                   throws: Sequence[tuple[str, int, int, int, float]], now: float) -> Any: ...
    async def kegeln_member(self, platform: str, chat_id: str, name: str) -> tuple[Any, ...] | None: ...
    async def kegeln_club(self, platform: str, chat_id: str, limit: int = 30) -> list[tuple[Any, ...]]: ...
    async def kegeln_series(self, platform: str, chat_id: str) -> list[tuple[str, str, int, float, int, int]]: ...
    async def kegeln_games_since(self, platform: str, chat_id: str, since: float) -> list[tuple[Any, ...]]: ...
    async def kegeln_members_since(self, platform: str, chat_id: str, since: float) -> list[tuple[Any, ...]]: ...
    async def kegeln_throw_log(self, platform: str, chat_id: str) -> list[tuple[Any, ...]]: ...
    async def logik_sides(self, platform: str, chat_id: str | None) -> tuple[int, int, int, int]: ...
    async def logik_record(self, platform: str, chat_id: str | None,
                           user_id: str) -> dict[str, tuple[int, int, int, int]]: ...
    async def solver_bot_level(self, platform: str, chat_id: str, game_id: int, user_id: str) -> str | None: ...
