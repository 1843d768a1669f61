"""The move runner, a component the App holds: every way a game moves or ends goes through its one entry `run`.

A player's move, the computer opponent's, a hint, the idle timeout (the App's sweep), a chat nobody can play
in any more (bot/app/closing.py) and a player who forgot themselves (bot/yourdata/forget.py) are each a `Move`
of its kind (bot/app/move_types.py). `MoveRunner.run` takes it under the game's lock, with compare-and-set
retries, a lazy timer's move first, one transaction for the state, seats, events, results and the game's own
writes (and a finished game's rating and achievements), presents it, then runs the game's after-move hooks; it
returns what it played (`Played`: the game is over?). A new game is stored and presented by `create`."""

from __future__ import annotations

import asyncio
import logging
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from bot.app import achievements
from bot.app.move_types import Kind, Move, Moved, Played, results
from bot.app.permissions import check_can_post
from bot.app.turn import Turn
from bot.games.plugin import GAMES, Services
from bot.storage.base import Conflict, GameRow, SeatTaken, TooManyGames
from bot.storage.sql import TxJob
from bot.yourdata import logged  # a person in the log: a keyed hash, never the id
from core import serial
from core.errors import GameError
from core.games.actions import Timeout
from core.games.base import Event, Game
from core.messages import Actor, Chat, Inbound, Outbound
from core.solver.games import BOT

log = logging.getLogger("bot.app.app")  # the App's log, as before the runner was a module of its own
# The bot's own move refused as busy (bot/solver/thinking.py) is tried again after these delays (seconds),
# one after another; after the last one it waits for the human's next move or a restart.
RETRY_DELAYS = (2.0, 4.0, 8.0, 15.0, 30.0, 60.0, 60.0, 60.0, 60.0, 60.0)


def acting(action: object, actor: str | None, kind: Kind = "player") -> Move:
    """A move by a player (or, with no actor, by the game's timer), logged by the action's name."""
    return Move(lambda game, state, ctx: game.apply(state, action, actor, ctx), type(action).__name__.lower(), kind)


def loaded(row: GameRow) -> tuple[Game[Any], Any]:
    """A stored game's game and its state object."""
    game = GAMES[row.kind]
    return game, serial.load(game.state_type, row.state)


@dataclass
class Owed:
    """A bot move refused as busy: when it is tried next, how often it was, and whether the last
    try was refused again."""

    due: float
    tries: int = 0
    refused: bool = False


class MoveRunner:
    """The one move runner: the games' locks, a new game (`create`), every move (`run`), and the moves the
    App makes on its own — timeouts (`sweep`), the bot's moves owed after a restart or refused as busy."""

    def __init__(self, svc: Services, *, max_games_chat: int = 20, max_games_user: int = 5) -> None:
        self.svc = svc  # what the games' hooks are given (the App)
        self.max_games_chat = max_games_chat  # running games per chat (0: no bound)
        self.max_games_user = max_games_user  # running games one user is or was part of, per chat
        self._locks: dict[int, asyncio.Lock] = {}
        self.entered: Counter[Kind] = Counter()  # the moves that came through `run`, by kind
        self.owed: dict[int, Owed] = {}  # bot moves refused as busy, by game: tried again (`retry_bot_moves`)

    def lock(self, game_id: int) -> asyncio.Lock:
        return self._locks.setdefault(game_id, asyncio.Lock())

    def release(self, game_id: int) -> None:
        """Forget the lock of a game that has ended (or that nobody waits for)."""
        self._locks.pop(game_id, None)

    # ------------------------------------------------------------ moves
    async def create(self, turn: Turn, kind: str, state: Any, events: list[Event], seats: list[str],
                     chat: Chat | None = None, *, extra: Any = None, bounded: bool = True,
                     seat_key: str | None = None) -> None:
        """A new game: stored with its first events and seats (and the game's own `extra` writes, a
        store job `async def job(tx, game_id)`) in one transaction, then presented. `bounded`: counted
        against the running games allowed per chat and user (a daily puzzle attempt is not: one per
        player and day is its own bound). `seat_key`: the seats' key instead of the chat's (a daily
        attempt takes no seat in its chat; bot/storage/store.py `create_game`)."""
        svc = self.svc
        chat = chat or turn.inbound.chat
        check_can_post(turn.inbound, chat)
        no_seat_for_a_chat(turn.inbound, seats)
        raw = serial.dump(state)
        try:
            game_id = await svc.store.create_game(chat.platform, chat.chat_id, chat.private, kind, raw, seats,
                                                  events, svc.clock(), turn.unsaved_seen,
                                                  creator=turn.inbound.actor.user_id,
                                                  max_chat=self.max_games_chat if bounded else 0,
                                                  max_user=self.max_games_user if bounded else 0, extra=extra,
                                                  seat_key=seat_key)
            turn.seen_stored = True
        except SeatTaken as taken:
            raise seat_error(turn, taken) from None
        except TooManyGames as bound:  # counted in the creating transaction: concurrent creations cannot pass it
            if bound.scope == "user":
                raise GameError("too_many_games_user", n=bound.limit) from None
            raise GameError("too_many_games_chat", n=bound.limit) from None
        turn.outcome = f"created:{kind}:{game_id}"
        game = svc.plugins[kind].game
        shown = await pictured(game, game.present, game_id, state, events, chat)
        turn.messages.extend(await svc.titled(kind, chat, shown))
        svc.inputs.note_prompts(game, game_id, chat.platform, None, state, turn.inbound.actor.user_id)
        await svc.plugins[kind].after_move(svc, turn, game_id, raw)

    async def play(self, turn: Turn, row: GameRow, action: object) -> Played:
        """A player's move: `action` by the inbound's actor, through the one entry."""
        return await self.run(turn, row, acting(action, turn.inbound.actor.user_id))

    async def run(self, turn: Turn, row: GameRow, move: Move) -> Played:
        """The one entry, for every move and every end (`Move.kind`): under the game's lock, with
        compare-and-set retries for other processes, a lazy timer's move first, one transaction for the
        state, seats, events and results, and the after-move hooks (the bot's answer). `move.same_version`:
        the move was decided on `row` (the bot's thought, a hint) and is dropped (`Moved`) when another move
        got in first; an App's end (`move.ends`) of a game that has ended meanwhile, or (a timeout) is not
        idle any more, is dropped alike. Returns what it played (`Played.over`: that move ended the game)."""
        svc = self.svc
        self.entered[move.kind] += 1
        plugin = svc.plugins[row.kind]
        if not row.private:
            turn.about = svc.chat_of(row)
        if move.answered:
            await plugin.before_move(svc, turn, row)
        async with self.lock(row.id):
            # First try the row the caller has just read (one read less per move); if another move
            # got in between, the version compare-and-set or the rules notice, and we read again.
            optimistic: GameRow | None = row
            reread: GameRow | None = None  # read after a refusal: the row to judge again
            for _ in range(5):
                fresh = optimistic or reread or await svc.store.get_game(row.id)
                reread = None
                if move.same_version and (fresh is None or fresh.over or fresh.version != row.version):
                    raise Moved()
                if fresh is None or fresh.over:
                    if move.ends:
                        raise Moved()
                    raise GameError("game_over")
                game = svc.plugins[fresh.kind].game
                current = serial.load(game.state_type, fresh.state)
                expired = self.expired(game, current)
                if move.kind == "timeout" and not expired:
                    raise Moved()  # a move came in since the sweep read it
                pending = None if move.ends else Timeout() if expired else game.due_action(
                    current, svc.clock())
                try:
                    if pending is not None:  # the game's time ran out, or a lazy timer's (a guesser's): that first
                        await self._apply(turn, fresh, acting(pending, None, "timeout"), current)
                        optimistic = None
                        continue
                    played = await self._apply(turn, fresh, move, current)
                except Conflict:
                    if move.same_version:
                        raise Moved() from None
                    optimistic = None
                    continue
                except GameError:
                    if optimistic is None or move.same_version:
                        raise
                    # refused on the row the caller read: judged again only where another move has changed it
                    # meanwhile (one read; the move is not applied a second time to the same state)
                    reread = await svc.store.get_game(row.id)
                    if reread is not None and reread.version == optimistic.version:
                        raise
                    optimistic = None
                    continue
                break
            else:
                raise GameError("busy")
        if played.over:
            self.release(row.id)
        elif move.answered:
            await plugin.after_move(svc, turn, row.id, row.state)
        return played

    def expired(self, game: Game[Any], state: Any) -> bool:
        """Idle past the timeout: the game times out, whether the minutely sweep (`sweep`) or a move
        arriving first finds it so (a move just after a restart plays on no game long past its time)."""
        return game.last_activity(state) < self.svc.clock() - self.svc.idle_timeout

    async def _apply(self, turn: Turn, row: GameRow, move: Move, state: Any) -> Played:
        """One move on the row read under the lock (`run` holds it, and has loaded its state): saved with
        its rating and achievements in one transaction, then presented."""
        svc = self.svc
        plugin = svc.plugins[row.kind]
        game = plugin.game
        ctx = svc.ctx(svc.localiser.hears(row.platform, row.chat_id))  # a typed move may go unheard there
        new, events = move.step(game, state, ctx)
        events = [*move.extra, *events]
        before = {p.user_id for p in game.seated(state)}
        over = game.is_over(new)
        # the move that ends a game seats nobody new (a declined challenge never seats the one who
        # declined: they may be waiting in a game of their own here); the bot never takes a seat (it
        # plays in any number of games in one chat)
        after = {p.user_id for p in game.seated(new)}
        seats = [] if over else [u for u in after if u not in before and u != BOT]
        no_seat_for_a_chat(turn.inbound, seats)
        released = [] if over else sorted(before - after)  # /leave
        ended = results(game, new) if over else []
        extra = plugin.writes(svc, row, state, new, over)
        match = await plugin.rated(svc, row, new, ended) if over else None
        if match is not None:
            extra = both(extra, svc.store.rating_job(row.platform, row.chat_id, row.kind, match, ctx.now, row.id))
        told: achievements.Earned = []  # the achievements this end earns that nobody held: announced below
        if over:
            pairs = await achievements.finished(svc, plugin, row, new, ended, ctx.now)
            extra = both(extra, achievements.award_job(row, pairs, ctx.now, told)) if pairs else extra
        stored = serial.dump(new)
        try:
            await svc.store.save_game(row, stored, over, seats, events, ended, ctx.now,
                                      turn.unsaved_seen, extra=extra, released=released)
            turn.seen_stored = True
        except SeatTaken as taken:
            raise seat_error(turn, taken) from None
        turn.outcome = f"{move.label}:{row.id}" + (":over" if over else "")
        chat = svc.chat_of(row)
        shown = await pictured(game, game.present, row.id, new, events, chat)
        turn.messages.extend(await svc.titled(row.kind, chat, shown))
        turn.messages.extend(achievements.announced(chat, told))
        reached = {m.to.user_id for m in shown if isinstance(m.to, Actor)}  # a prompt is a private message
        svc.inputs.note_prompts(game, row.id, row.platform, state, new, turn.inbound.actor.user_id, reached)
        await plugin.after_save(svc, turn, chat, new, over, (row.id, row.version + 1, stored))
        return Played(row.id, over, state)

    # ------------------------------------------------------------ the App's own moves: time and the bot
    def by_the_app(self, row: GameRow) -> Turn:
        """The turn of what the App does on its own in a game (a resumed or retried bot move, a timeout)."""
        return Turn(Inbound(Actor(row.platform, "", ""), self.svc.chat_of(row)))

    async def told(self, turn: Turn) -> list[Outbound]:
        """The messages of a turn without an inbound of its own (`by_the_app`), rendered."""
        return list((await self.svc.localiser.response(turn.inbound, turn.messages, None, False)).messages)

    async def sweep(self) -> list[Outbound]:
        """Time out games idle for longer than the configured timeout (each a "timeout" move through `run`);
        returns what to announce."""
        svc = self.svc
        outbounds: list[Outbound] = []
        for row in await svc.store.idle_games(svc.clock() - svc.idle_timeout):
            turn = self.by_the_app(row)
            try:
                await self.run(turn, row, acting(Timeout(), None, "timeout"))
            except (GameError, Moved):
                continue
            log.info("%s chat=%s game %d timed out", row.platform, logged.where(row), row.id)
            outbounds.extend(await self.told(turn))
        return outbounds

    def owe(self, game_id: int) -> bool:
        """The bot's move in this game was refused as busy: it is tried again after `RETRY_DELAYS`
        (`retry_bot_moves`). True when this is news (the chat is told once), False while a retry
        is already owed."""
        owed = self.owed.get(game_id)
        if owed is not None:
            owed.refused = True
            return False
        self.owed[game_id] = Owed(self.svc.clock() + RETRY_DELAYS[0])
        return True

    async def _bot_move(self, row: GameRow, why: str) -> list[Outbound]:
        """The bot's move left pending in a game (`GamePlugin.before_move`: a "bot" move through `run`),
        made now; one broken game keeps no other from its move (nor the bot from starting)."""
        turn = self.by_the_app(row)
        try:
            await self.svc.plugins[row.kind].before_move(self.svc, turn, row)
        except Exception:
            log.exception("could not make the bot's %s move in game %d", why, row.id)
            if why == "resumed":  # what a retry said before it failed is told
                return []
        if turn.messages:
            log.info("%s chat=%s game %d: the bot's move %s", row.platform, logged.where(row), row.id, why)
        return await self.told(turn)

    async def resume(self) -> list[Outbound]:
        """At start: running games in which the bot is to act (the process stopped while it
        thought) get the bot's move now. Returns the messages for those games' chats."""
        outbounds: list[Outbound] = []
        for row in await self.svc.store.idle_games(self.svc.clock() + 1):  # every running game
            outbounds.extend(await self._bot_move(row, "resumed"))
        return outbounds

    async def retry_bot_moves(self) -> list[Outbound]:
        """The bot's moves refused as busy (`owe`) whose time has come are tried again
        (`python -m bot` calls this every second): the human waiting for the bot needs to write
        nothing. Refused again, a move waits longer (`RETRY_DELAYS`), and after the last delay it
        waits for the human's next move or a restart. A game that has ended is not moved (nor one
        in which the bot moved meanwhile). Returns the messages for those games' chats."""
        clock = self.svc.clock
        now = clock()
        outbounds: list[Outbound] = []
        for game_id, owed in list(self.owed.items()):
            if owed.due > now:
                continue
            owed.refused, owed.tries, owed.due = False, owed.tries + 1, float("inf")  # in flight
            row = await self.svc.store.get_game(game_id)
            if row is None or row.over:
                self.owed.pop(game_id, None)
                continue
            told = await self._bot_move(row, "retried")
            if not owed.refused:  # moved (or nothing owed any more)
                self.owed.pop(game_id, None)
            elif owed.tries < len(RETRY_DELAYS):
                owed.due = clock() + RETRY_DELAYS[owed.tries]
            else:
                self.owed.pop(game_id, None)
                log.warning("%s chat=%s game %d: the bot is still busy; its move waits for the human",
                            row.platform, logged.where(row), game_id)
            outbounds.extend(told)
        return outbounds


def both(first: TxJob | None, then: TxJob) -> TxJob:
    """Two store write jobs as one (either may be None)."""
    if first is None:
        return then

    async def job(tx: Any) -> None:
        assert first is not None
        await first(tx)
        await then(tx)
    return job


async def pictured(game: Game[Any], present: Callable[..., Any], *args: Any) -> Any:
    """A game's messages; where they may carry a picture (`Game.pictured`), drawn and encoded in a
    thread, so that the event loop answers other chats meanwhile (Pillow works in C, mostly without the GIL)."""
    if game.pictured:
        return await asyncio.to_thread(present, *args)
    return present(*args)


def no_seat_for_a_chat(ib: Inbound, seats: list[str]) -> None:
    """A post on behalf of a chat takes no seat: a channel is nobody's account. (A group's anonymous
    admin, an admin of that group, may hold the seat a role needs: the Kegeln scorer's.)"""
    if ib.actor.as_chat and not ib.actor.is_admin and ib.actor.user_id in seats:
        raise GameError("personal_account", command=ib.command or "")


def seat_error(turn: Turn, taken: SeatTaken) -> GameError:
    """One game per player per chat: say whose seat is taken."""
    if taken.user_id == turn.inbound.actor.user_id:
        return GameError("already_in_game")
    return GameError("other_in_game")
