"""Every method of the Store protocol, written once over a SQL driver.

`SqlStore` holds the logic (which statements a move runs, in which order, what a row means); a
driver subclass (SqliteStore, PostgresStore) supplies three things: `_fetch` (a read), `_run` (a
write job in one transaction, its errors mapped to the store's exceptions) and `_submit` (a write
started now and awaited later). Write jobs are `async def job(tx)` functions (see
bot/storage/sql.py), so the same job runs in SQLite's group commit and in a PostgreSQL transaction.
"""

from __future__ import annotations

import asyncio
import json
from collections.abc import Sequence
from typing import Any

from bot.storage import fair_play
from bot.storage import queries as q
from bot.storage.base import (
    Conflict,
    Duplicate,
    FinishedStamp,
    GameRow,
    NewResult,
    RatedLine,
    SeatTaken,
    StatLine,
    TooManyGames,
    TopLine,
    UserMatch,
    game_id_fits,
)
from bot.storage.schemas import Schema
from bot.storage.sql import Query, Tx, TxJob
from core import names, ratings
from core.games.base import Event, Logged


class RatingsMoved(Exception):
    """A game ended while the ratings were being rebuilt: replay again."""


def game_row(r: Sequence[Any]) -> GameRow:
    """A `games` row read with the queries' game columns (`_GAME_COLS`, in their order) as a GameRow."""
    return GameRow(int(r[0]), r[1], r[2], bool(r[3]), r[4], json.loads(r[5]), bool(r[6]), int(r[7]))


def _flag(flag: bool | None) -> int | None:
    return None if flag is None else int(flag)


class SqlStore:
    # ------------------------------------------------------------ what a driver supplies
    schemas: tuple[Schema, ...]  # set by each driver: the games' own tables and chat moves (bot/storage/schemas.py)

    async def fetch(self, query: Query, **params: Any) -> list[Sequence[Any]]:
        raise NotImplementedError

    async def run(self, job: TxJob) -> Any:
        """Run a write job in one transaction; its errors as the store's exceptions."""
        raise NotImplementedError

    def submit(self, job: TxJob) -> asyncio.Future[Any]:
        """Start a write job now; the caller awaits the future when it needs the write done."""
        raise NotImplementedError

    # ------------------------------------------------------------ games
    async def get_game(self, game_id: int) -> GameRow | None:
        if not game_id_fits(game_id):
            return None
        rows = await self.fetch(q.GET_GAME, id=game_id)
        return game_row(rows[0]) if rows else None

    async def seated_games(self, platform: str, user_id: str, chat_id: str | None = None) -> list[GameRow]:
        """Running games the user sits in: in one chat, or (chat_id None) anywhere on the platform."""
        if chat_id is None:
            rows = await self.fetch(q.SEATED_GAMES, platform=platform, user_id=user_id)
        else:
            rows = await self.fetch(q.SEATED_GAMES_IN_CHAT, platform=platform, user_id=user_id, chat_id=chat_id)
        return [game_row(r) for r in rows]

    async def chat_games(self, platform: str, chat_id: str) -> list[GameRow]:
        return [game_row(r) for r in await self.fetch(q.CHAT_GAMES, platform=platform, chat_id=chat_id)]

    async def idle_games(self, before: float) -> list[GameRow]:
        return [game_row(r) for r in await self.fetch(q.IDLE_GAMES, before=before)]

    async def create_game(self, platform: str, chat_id: str, private: bool, kind: str,
                          state: dict[str, Any], seats: Sequence[str], events: Sequence[Event],
                          now: float, seen: tuple[str, str] | None = None, *, creator: str | None = None,
                          max_chat: int = 0, max_user: int = 0, extra: Any = None,
                          seat_key: str | None = None) -> int:
        """A new game with its first seats and events. With `max_chat` / `max_user` (0: no bound) it
        is refused with TooManyGames when the chat already runs `max_chat` games, or `creator` already
        sits or sat (a seat handed on or left still counts) in `max_user` running games of the chat;
        counted in the creating transaction, after `lock_chat` (exact, also across processes). `extra`:
        a game's own writes in the same transaction, `async def job(tx, game_id)` (e.g. `link_job`,
        bot/games/daily/storage.py `daily_start_job`), run before the seats are taken.
        `seat_key`: the seats are taken under this key instead of the chat's (a daily attempt: it is
        played privately and keeps nobody from the chat's games; see `_add_seats`)."""
        async def job(tx: Tx) -> int:
            if max_chat or max_user:
                await tx.lock_chat(platform, chat_id)
                counts = await tx.fetchrow(q.COUNT_RUNNING, platform=platform, chat_id=chat_id, creator=creator)
                in_chat, mine = counts or (0, 0)
                if max_user and creator is not None and mine >= max_user:
                    raise TooManyGames("user", max_user)
                if max_chat and in_chat >= max_chat:
                    raise TooManyGames("chat", max_chat)
            game_id = int(await tx.fetchval(q.INSERT_GAME, platform=platform, chat_id=chat_id, private=int(private),
                                            kind=kind, state=json.dumps(state), now=now))
            if extra is not None:  # before the seats: its own refusal (DailyTaken, Conflict) comes first
                await extra(tx, game_id)
            await _add_seats(tx, game_id, platform, seat_key or chat_id, seats)
            await _add_events(tx, game_id, events, now)
            await _add_seen(tx, seen, now)
            return game_id
        return int(await self.run(job))

    async def save_game(self, game: GameRow, state: dict[str, Any], over: bool, seats: Sequence[str],
                        events: Sequence[Event], results: Sequence[NewResult], now: float,
                        seen: tuple[str, str] | None = None, released: Sequence[str] = (),
                        extra: TxJob | None = None) -> int:
        """Persist a move atomically: state (compare-and-set on version: Conflict when another
        handler or process won), new seats, released seats (players who left a running game), events,
        results, a game's own `extra` writes (e.g. its statistics tables), and the inbound's id.
        Returns the new version."""
        async def job(tx: Tx) -> int:
            done = await tx.fetchval(q.UPDATE_GAME, state=json.dumps(state), over=int(over), now=now,
                                     id=game.id, version=game.version)
            if done is None:
                raise Conflict(game.id)
            await _add_seats(tx, game.id, game.platform, game.chat_id, seats)
            for user_id in released:
                await tx.execute(q.RELEASE_SEAT, game_id=game.id, user_id=user_id)
            if over:
                await tx.execute(q.RELEASE_SEATS, game_id=game.id)
            await _add_events(tx, game.id, events, now)
            if results:
                await tx.executemany(q.INSERT_RESULT, [
                    {"game_id": game.id, "platform": game.platform, "chat_id": game.chat_id, "user_id": r.user_id,
                     "name": r.name, "kind": game.kind, "outcome": r.outcome, "attempts": r.attempts,
                     "length": r.length, "repeats": _flag(r.repeats), "rating": r.rating, "side": r.side, "at": now}
                    for r in results])
            if extra is not None:
                await extra(tx)
            await _add_seen(tx, seen, now)
            return game.version + 1
        return int(await self.run(job))

    def link_job(self, game: GameRow, linked: Any, now: float) -> Any:
        """For `create_game(extra=...)`: the finished `game` is linked to the game being created
        (`linked(new_id)`: its state with the link, or None where it keeps none), compare-and-set
        on the version it was read at. Conflict when another creation (another process, the same
        instant) changed it first: the creation is rolled back, and the caller reads again and finds
        the other one's game. One follow-up per finished game, enforced by the database."""
        async def job(tx: Tx, game_id: int) -> None:
            state = linked(game_id)
            if state is None:
                return
            done = await tx.fetchval(q.UPDATE_GAME, state=json.dumps(state), over=int(game.over), now=now,
                                     id=game.id, version=game.version)
            if done is None:
                raise Conflict(game.id)
        return job

    async def last_game(self, platform: str, chat_id: str, user_id: str) -> GameRow | None:
        """The player's most recent game in a chat, running or over."""
        rows = await self.last_games(platform, chat_id, user_id, 1)
        return rows[0] if rows else None

    async def last_games(self, platform: str, chat_id: str, user_id: str, limit: int) -> list[GameRow]:
        """The player's `limit` most recent games in a chat, newest first (for /rematch and /analyse,
        which look past challenges nobody played)."""
        rows = await self.fetch(q.LAST_GAMES, platform=platform, chat_id=chat_id, user_id=user_id, limit=limit)
        return [game_row(r) for r in rows]

    async def event_log(self, game_id: int) -> list[Logged]:
        return [Logged(t, json.loads(d)) for t, d in await self.fetch(q.EVENT_LOG, game_id=game_id)]

    # ------------------------------------------------------------ idempotency
    async def was_seen(self, platform: str, event_id: str) -> bool:
        return bool(await self.fetch(q.WAS_SEEN, platform=platform, event_id=event_id))

    async def mark_seen(self, platform: str, event_id: str, now: float) -> None:
        async def job(tx: Tx) -> None:
            await _add_seen(tx, (platform, event_id), now)
        await self.run(job)

    # ------------------------------------------------------------ chats and users
    async def chat_lang(self, platform: str, chat_id: str) -> str | None:
        rows = await self.fetch(q.CHAT_LANG, platform=platform, chat_id=chat_id)
        return rows[0][0] if rows else None

    async def set_chat_lang(self, platform: str, chat_id: str, lang: str | None) -> None:
        async def job(tx: Tx) -> None:
            await tx.execute(q.SET_CHAT_LANG, platform=platform, chat_id=chat_id, lang=lang)
        await self.run(job)

    def note_chat(self, platform: str, chat_id: str, title: str | None, user_id: str) -> asyncio.Future[Any]:
        """A group's latest title (None: unchanged) and a user who has acted in it: like `save_user`,
        started now and awaited before the answer (docs/daily.md "Which chat")."""
        async def job(tx: Tx) -> None:
            if title is not None:
                await tx.execute(q.SET_CHAT_TITLE, platform=platform, chat_id=chat_id, title=title)
            await tx.execute(q.ADD_CHAT_MEMBER, platform=platform, chat_id=chat_id, user_id=user_id)
        return self.submit(job)

    async def chat_title(self, platform: str, chat_id: str, user_id: str) -> str | None:
        """The group's title as last seen, for a user who has acted in that group (else None)."""
        rows = await self.fetch(q.CHAT_TITLE_FOR, platform=platform, chat_id=chat_id, user_id=user_id)
        return rows[0][0] if rows and rows[0][0] else None

    async def migrate_chat(self, platform: str, old: str, new: str) -> None:
        """A Telegram group became a supergroup: its games, stats and settings move along."""
        async def job(tx: Tx) -> None:
            for statement in (*q.MIGRATE_CHAT, *(m for schema in self.schemas for m in schema.chat_moves)):
                await tx.execute(statement, platform=platform, old=old, new=new)
        await self.run(job)

    def save_user(self, platform: str, user_id: str, name: str, locale: str | None) -> asyncio.Future[Any]:
        """Start the upsert and return its future: on SQLite it joins the batch of the move the same
        inbound causes (one commit for both); a caller without a move awaits it before answering."""
        async def job(tx: Tx) -> None:
            await tx.execute(q.SAVE_USER, platform=platform, user_id=user_id, name=name, locale=locale)
        return self.submit(job)

    async def user_name(self, platform: str, user_id: str) -> str | None:
        rows = await self.fetch(q.USER_NAME, platform=platform, user_id=user_id)
        return rows[0][0] if rows else None

    async def seen_in_chat(self, platform: str, chat_id: str, user_id: str) -> bool:
        """Whether the chat knows this user: they acted in it, have a result there or sit in one of its games."""
        return bool(await self.fetch(q.USER_SEEN_IN_CHAT, platform=platform, chat_id=chat_id, user_id=user_id))

    async def user_locale(self, platform: str, user_id: str) -> str | None:
        rows = await self.fetch(q.USER_LOCALE, platform=platform, user_id=user_id)
        return rows[0][0] if rows else None

    async def find_users(self, platform: str, chat_id: str | None, name: str,
                         limit: int = 10) -> list[UserMatch]:
        """The users called `name` (compared as core.names.key): with a chat, the users seen in it
        (who acted in it, a seat in one of its running games, or a result there); with None, anyone on the
        platform."""
        wanted = names.key(name)
        if chat_id is not None:
            rows = await self.fetch(q.USERS_IN_CHAT, platform=platform, chat_id=chat_id)
        else:
            rows = await self.fetch(q.USERS_NAMED, platform=platform, name=names.clean(name), limit=4 * limit)
        return [UserMatch(r[0], r[1]) for r in rows if names.key(r[1]) == wanted][:limit]

    # ------------------------------------------------------------ statistics
    async def stats(self, platform: str, chat_id: str | None, user_id: str) -> list[StatLine]:
        """Per game kind: games, wins, draws, losses, abandoned, gave up; in one chat or everywhere."""
        if chat_id is None:
            rows = await self.fetch(q.STATS, platform=platform, user_id=user_id)
        else:
            rows = await self.fetch(q.STATS_IN_CHAT, platform=platform, user_id=user_id, chat_id=chat_id)
        return [StatLine(*r) for r in rows]

    async def top(self, platform: str, chat_id: str, kind: str, limit: int = 10, skip: str = "") -> list[TopLine]:
        """The chat's leaderboard of one game by wins, most wins first; `skip`: a user id not listed (the
        computer opponent)."""
        return [TopLine(*r) for r in await self.fetch(q.TOP, platform=platform, chat_id=chat_id, kind=kind,
                                                       skip=skip, limit=limit)]

    # ------------------------------------------------------------ skill ratings (core/ratings.py)
    @staticmethod
    def rating_job(platform: str, chat_id: str, kind: str, match: ratings.Match, now: float,
                   game_id: int) -> TxJob:
        """A finished game's rating update, run inside `save_game`'s transaction: in this chat and
        (for a game rated across chats) under `ratings.EVERYWHERE`, the players' ratings are read
        with their rows locked (a concurrent game of the same player waits for this one), rated with
        the match, written back, and each new rating added to the history. A game the repetition rule
        leaves out (`ratings.repeated`, matched by keyed hash: bot/storage/fair_play.py) writes nothing."""
        async def job(tx: Tx) -> None:
            claimed = await _claim_pair(tx, platform, kind, match, now)
            pair = ratings.pair_key(match)
            if claimed is not None and pair and not await fair_play.counted(tx, platform, kind, pair, now, game_id):
                return
            keep = await fair_play.shares(tx, platform, kind, match, claimed, now) if claimed else {}
            for scope in ratings.scopes(chat_id, match):
                where = {"platform": platform, "chat_id": scope, "kind": kind}
                prior = dict(claimed) if claimed is not None and scope == ratings.EVERYWHERE else {}
                for user_id in match.rated:
                    if user_id not in prior:
                        prior[user_id] = await _claim(tx, where, user_id, match, now)
                new = ratings.discounted(ratings.rate(match, prior), prior, keep)  # wins over newcomers count less
                await tx.executemany(q.SAVE_RATING, [
                    {**where, "user_id": u, "name": match.names.get(u, u), "mu": r.mu, "sigma": r.sigma,
                     "games": r.games, "updated": now} for u, r in new.items()])
                await tx.executemany(q.INSERT_RATING_STEP, [
                    {**where, "game_id": game_id, "user_id": u, "mu": r.mu, "sigma": r.sigma, "games": r.games,
                     "at": now} for u, r in new.items()])
        return job

    async def top_rated(self, platform: str, chat_id: str, kind: str, limit: int = 10,
                        everywhere: bool = False) -> list[RatedLine]:
        """The chat's players of one game by their conservative rating, best first; `everywhere`:
        the same players (and only they, by their names in this chat) by their rating across chats."""
        if everywhere:
            rows = await self.fetch(q.TOP_RATED_EVERYWHERE, platform=platform, chat_id=chat_id, kind=kind,
                                     everywhere=ratings.EVERYWHERE, limit=limit)
        else:
            rows = await self.fetch(q.TOP_RATED, platform=platform, chat_id=chat_id, kind=kind, limit=limit)
        return [RatedLine(u, n, float(mu), float(sg), int(g)) for u, n, mu, sg, g in rows]

    async def player_ratings(self, platform: str, chat_id: str, user_id: str) -> dict[str, RatedLine]:
        """A player's rating per game kind in one chat (or `ratings.EVERYWHERE`: across chats)."""
        rows = await self.fetch(q.PLAYER_RATINGS, platform=platform, chat_id=chat_id, user_id=user_id)
        return {str(k): RatedLine(user_id, n, float(mu), float(sg), int(g)) for k, n, mu, sg, g in rows}

    async def rating_steps(self, platform: str, chat_id: str, kind: str, user_id: str,
                           limit: int = 1000) -> list[tuple[float, ratings.Rating]]:
        """A player's last `limit` rating steps in one chat and game, oldest first: (time, rating)."""
        rows = await self.fetch(q.RATING_STEPS, platform=platform, chat_id=chat_id, kind=kind, user_id=user_id,
                                 limit=limit)
        return [(float(at), ratings.Rating(float(mu), float(sg), int(g))) for at, mu, sg, g in reversed(rows)]

    async def finished_games(self) -> list[tuple[GameRow, float]]:
        """Every finished game with the time it ended, in the order the games ended."""
        return [(game_row(r), float(r[8])) for r in await self.fetch(q.FINISHED_GAMES)]

    @staticmethod
    def finished_stamp(finished: Sequence[tuple[GameRow, float]]) -> FinishedStamp:
        """What `rewrite_ratings` checks of the finished games a replay read: how many, and the sum
        of their versions (a /kegelmerge that renames a member in a stored final state counts it)."""
        return len(finished), sum(row.version for row, _at in finished)

    async def rewrite_ratings(self, current: Sequence[ratings.Step], history: Sequence[ratings.Step],
                              finished: FinishedStamp) -> None:
        """Replace every rating and the whole history in one transaction (`python -m bot ratings
        rebuild`). `finished`: the `finished_stamp` of the games the replay saw; if a game has ended
        since, or a /kegelmerge has rewritten stored final states, RatingsMoved and nothing changes (the
        rebuild runs again). Rating writes of games that end meanwhile wait for this transaction and then
        rate on top of the rebuilt ratings."""
        async def job(tx: Tx) -> None:
            await tx.lock_table("ratings")
            stamp = await tx.fetchrow(q.FINISHED_STAMP)
            if stamp is None or (int(stamp[0]), int(stamp[1])) != finished:
                raise RatingsMoved()
            await tx.execute(q.CLEAR_RATING_HISTORY)
            await tx.execute(q.CLEAR_RATINGS)
            await write_ratings(tx, current, history)
        await self.run(job)


    # ------------------------------------------------------------ a chat's time zone (the daily puzzle, Kegeln)
    async def chat_tz(self, platform: str, chat_id: str) -> str | None:
        rows = await self.fetch(q.CHAT_TZ, platform=platform, chat_id=chat_id)
        return rows[0][0] if rows else None

    async def set_chat_tz(self, platform: str, chat_id: str, tz: str | None) -> None:
        async def job(tx: Tx) -> None:
            await tx.execute(q.SET_CHAT_TZ, platform=platform, chat_id=chat_id, tz=tz)
        await self.run(job)



async def _add_seats(tx: Tx, game_id: int, platform: str, chat_id: str, seats: Sequence[str]) -> None:
    """Seat players (again); a seat in another running game of the chat is SeatTaken (the partial
    unique index `one_game_per_chat` is the rule). `chat_id` is the seat's key: the game's chat, or
    a key of its own (`create_game(seat_key=...)`) for a game that takes no seat in its chat."""
    for user_id in seats:
        if not await tx.insert_unique(q.INSERT_SEAT, game_id=game_id, platform=platform, chat_id=chat_id,
                                      user_id=user_id):
            raise SeatTaken(user_id)


async def _claim(tx: Tx, where: dict[str, str], user_id: str, match: ratings.Match, now: float) -> ratings.Rating:
    """A player's prior rating in one scope (a new player's row is created), the row locked until commit."""
    row = await tx.fetchrow(q.RATING_CLAIM, **where, user_id=user_id, name=match.names.get(user_id, user_id),
                            mu=ratings.NEW.mu, sigma=ratings.NEW.sigma, updated=now)
    assert row is not None
    return ratings.Rating(float(row[0]), float(row[1]), int(row[2]))


async def _claim_pair(tx: Tx, platform: str, kind: str, match: ratings.Match,
                      now: float) -> dict[str, ratings.Rating] | None:
    """For a match the repetition rule applies to (`ratings.pair_key`): its players' rows across chats
    claimed first, in a fixed order (two games of the same players ending at once count one after the
    other), and their prior ratings there — the rating of that scope starts from them. None: the rule
    does not apply."""
    pair = ratings.pair_key(match)
    if not pair:
        return None
    where = {"platform": platform, "chat_id": ratings.EVERYWHERE, "kind": kind}
    return {user_id: await _claim(tx, where, user_id, match, now) for user_id in sorted(pair)}


async def write_ratings(tx: Tx, current: Sequence[ratings.Step], history: Sequence[ratings.Step]) -> None:
    """Replayed ratings (the last step per player and scope) and their history, in order."""
    await tx.executemany(q.SAVE_REBUILT, [
        {"platform": s.platform, "chat_id": s.chat_id, "kind": s.kind, "user_id": s.user_id, "name": s.name,
         "mu": s.rating.mu, "sigma": s.rating.sigma, "games": s.rating.games, "updated": s.at} for s in current])
    await tx.executemany(q.INSERT_RATING_STEP, [
        {"game_id": s.game_id, "platform": s.platform, "chat_id": s.chat_id, "kind": s.kind, "user_id": s.user_id,
         "mu": s.rating.mu, "sigma": s.rating.sigma, "games": s.rating.games, "at": s.at} for s in history])


async def _add_events(tx: Tx, game_id: int, events: Sequence[Event], now: float) -> None:
    if events:
        logged = [Logged.of(e) for e in events]  # its type and JSON data, as the event log has always held them
        await tx.executemany(q.INSERT_EVENT, [{"game_id": game_id, "type": e.type, "data": json.dumps(e.data),
                                               "at": now} for e in logged])


async def _add_seen(tx: Tx, seen: tuple[str, str] | None, now: float) -> None:
    """Record the platform update this move answers; a second delivery of it is a Duplicate and
    its whole move is rolled back (so a redelivered update is applied once, even after a restart)."""
    if seen and await tx.fetchval(q.INSERT_SEEN, platform=seen[0], event_id=seen[1], at=now) is None:
        raise Duplicate(seen[1])
