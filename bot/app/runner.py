"""The move runner: every move — a human's, the bot's, a hint, a timeout — saved and presented one way.

`MoveRunner.run` takes a `Move` under the game's lock, with compare-and-set retries, a lazy timer's move
first, one transaction for the state, seats, events, results and the game's own writes (and a finished
game's rating), then the game's after-move hooks; it returns what it played (`Played`: the game is over?).
The App's services (bot/app/services.py `AppServices`) are a `MoveRunner`, with the App's other services."""

from __future__ import annotations

import asyncio
from collections.abc import Callable, Collection
from dataclasses import replace
from typing import Any, cast

from bot.app import achievements
from bot.app.move_types import Move, Moved, Played
from bot.app.permissions import check_can_post
from bot.app.turn import Turn
from bot.games.plugin import GAMES, GamePlugin, Services
from bot.solver.dictionary import lexicon
from bot.storage.base import Conflict, GameRow, NewResult, SeatTaken, Store, TooManyGames
from bot.storage.sql import TxJob
from bot.texts.render import Localiser
from core import serial
from core.errors import GameError
from core.games.actions import Timeout
from core.games.base import Ctx, Event, Game
from core.messages import Actor, Chat, Inbound, Message
from core.solver.games import BOT


def acting(action: object, actor: str | None) -> Move:
    """A move by a player (or, with no actor, by the game's timer), logged by the action's name."""
    return Move(lambda game, state, ctx: game.apply(state, action, actor, ctx), type(action).__name__.lower())


def timed_out() -> Move:
    """The game's timer ends it (an idle game, a closed topic, a forgotten player's game that no other way ends)."""
    return acting(Timeout(), None)


def loaded(row: GameRow) -> tuple[Game[Any], Any]:
    """A stored game's game and its state object."""
    game = GAMES[row.kind]
    return game, serial.load(game.state_type, row.state)


class MoveRunner:
    """The one move runner, and what it needs of the App's services (set by `Services.__init__`)."""

    store: Store
    localiser: Localiser
    plugins: dict[str, GamePlugin[Any]]  # by game kind (the App takes them from bot/games/registry.py)
    clock: Callable[[], float]
    rng: Any  # random.Random, or SystemRandom
    idle_timeout: float
    max_games_chat: int
    max_games_user: int
    _locks: dict[int, asyncio.Lock]
    _prompted: Any  # Bounded[(platform, user id), game id]: the game that asked a user last

    @property
    def services(self) -> Services:
        """This runner as the services the games' hooks are given (the App's services, bot/app/services.py, are a
        `MoveRunner` and fit the `Services` protocol of bot/games/plugin.py)."""
        return cast(Services, self)

    def ctx(self, typed: bool = True) -> Ctx:
        return Ctx(self.clock(), self.rng, lexicon, typed)

    def chat_of(self, row: GameRow) -> Chat:
        return Chat(row.platform, row.chat_id, row.private)

    def lock(self, game_id: int) -> asyncio.Lock:
        return self._locks.setdefault(game_id, asyncio.Lock())

    def release(self, game_id: int) -> None:
        """Forget the lock of a game that has ended (or that nobody waits for)."""
        self._locks.pop(game_id, None)

    async def title_for(self, platform: str, chat_id: str, untold: bool, user_id: str) -> str | None:
        """A group's title for a private message to `user_id` about it: only if they have acted in it.
        `untold`: none is wanted (the chat is a private one, or the answer goes into the group itself)."""
        return None if untold else await self.store.chat_title(platform, chat_id, user_id)

    async def titled(self, kind: str, chat: Chat, messages: list[Message]) -> list[Message]:
        """A group game's private messages, each naming the group where its reader may be told the
        title (`GamePlugin.titled`) and concerning it (`Message.about`: its language, for a reader with
        none of their own); a title never goes into a group's messages."""
        plugin = self.plugins[kind]
        if chat.private:
            return messages
        out = []
        for msg in messages:
            if isinstance(msg.to, Actor):
                title = await self.title_for(chat.platform, chat.chat_id, False, msg.to.user_id)
                msg = replace(plugin.titled(msg, title) if title else msg, about=chat)
            out.append(msg)
        return out

    # ------------------------------------------------------------ moves
    async def create(self, turn: Turn, kind: str, state: Any, events: list[Event], seats: list[str],
                     chat: Chat | None = None, *, extra: Any = None, bounded: bool = True,
                     seat_key: str | None = None) -> None:
        """A new game: stored with its first events and seats (and the game's own `extra` writes, a
        store job `async def job(tx, game_id)`) in one transaction, then presented. `bounded`: counted
        against the running games allowed per chat and user (a daily puzzle attempt is not: one per
        player and day is its own bound). `seat_key`: the seats' key instead of the chat's (a daily
        attempt takes no seat in its chat; bot/storage/store.py `create_game`)."""
        chat = chat or turn.inbound.chat
        check_can_post(turn.inbound, chat)
        no_seat_for_a_chat(turn.inbound, seats)
        raw = serial.dump(state)
        try:
            game_id = await self.store.create_game(chat.platform, chat.chat_id, chat.private, kind, raw, seats,
                                                   events, self.clock(), turn.unsaved_seen,
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
        game = self.plugins[kind].game
        shown = await pictured(game, game.present, game_id, state, events, chat)
        turn.messages.extend(await self.titled(kind, chat, shown))
        self.note_prompts(game, game_id, chat.platform, None, state, turn.inbound.actor.user_id)
        await self.plugins[kind].after_move(self.services, turn, game_id, raw)

    async def play(self, turn: Turn, row: GameRow, action: object) -> Played:
        """A human's move: `action` by the inbound's actor, through the move runner."""
        return await self.run(turn, row, acting(action, turn.inbound.actor.user_id))

    async def run(self, turn: Turn, row: GameRow, move: Move) -> Played:
        """The one move runner, for every move (a human's, the bot's, a hint): under the game's
        lock, with compare-and-set retries for other processes, a lazy timer's move first, one
        transaction for the state, seats, events and results, and the after-move hooks (the bot's
        answer). `move.same_version`: the move was decided on `row` (the bot's thought, a hint) and
        is dropped (`Moved`) when another move got in first. Returns what it played (`Played.over`: that
        move ended the game)."""
        plugin = self.plugins[row.kind]
        if not row.private:
            turn.about = self.chat_of(row)
        if not move.computer:
            await plugin.before_move(self.services, turn, row)
        async with self.lock(row.id):
            # First try the row the router has just read (one read less per move); if another move
            # got in between, the version compare-and-set or the rules notice, and we read again.
            optimistic: GameRow | None = row
            reread: GameRow | None = None  # read after a refusal: the row to judge again
            for _ in range(5):
                fresh = optimistic or reread or await self.store.get_game(row.id)
                reread = None
                if move.same_version and (fresh is None or fresh.over or fresh.version != row.version):
                    raise Moved()
                if fresh is None or fresh.over:
                    raise GameError("game_over")
                game = self.plugins[fresh.kind].game
                current = serial.load(game.state_type, fresh.state)
                pending = Timeout() if self.expired(game, current) else game.due_action(
                    current, self.clock())
                try:
                    if pending is not None:  # the game's time ran out, or a lazy timer's (a guesser's): that first
                        await self.apply(turn, fresh, acting(pending, None), current)
                        optimistic = None
                        continue
                    played = await self.apply(turn, fresh, move, current)
                except Conflict:
                    if move.same_version:
                        raise Moved() from None
                    optimistic = None
                    continue
                except GameError:
                    if optimistic is None or move.same_version:
                        raise
                    # refused on the row the router read: judged again only where another move has changed it
                    # meanwhile (one read; the move is not applied a second time to the same state)
                    reread = await self.store.get_game(row.id)
                    if reread is not None and reread.version == optimistic.version:
                        raise
                    optimistic = None
                    continue
                break
            else:
                raise GameError("busy")
        if played.over:
            self.release(row.id)
        elif not move.computer:
            await plugin.after_move(self.services, turn, row.id, row.state)
        return played

    def expired(self, game: Game[Any], state: Any) -> bool:
        """Idle past the timeout: the game times out, whether the minutely sweep (App.sweep) or a move
        arriving first finds it so (a move just after a restart plays on no game long past its time)."""
        return game.last_activity(state) < self.clock() - self.idle_timeout

    async def apply(self, turn: Turn, row: GameRow, move: Move, state: Any = None) -> Played:
        """One move on the row read under the lock (the caller holds it): saved, then presented.
        `state`: the row's state loaded already (`run` has read it for the timers), else loaded here."""
        game = self.plugins[row.kind].game
        ctx = self.ctx(self.localiser.hears(row.platform, row.chat_id))  # a typed move may go unheard there
        if state is None:
            state = serial.load(game.state_type, row.state)
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
        results = self.results(game, new) if over else []
        plugin = self.plugins[row.kind]
        extra = plugin.writes(self.services, row, state, new, over)
        match = await plugin.rated(self.services, row, new, results) if over else None
        if match is not None:
            extra = both(extra, self.store.rating_job(row.platform, row.chat_id, row.kind, match, ctx.now,
                                                                 row.id))
        told: achievements.Earned = []  # the achievements this end earns that nobody held: announced below
        if over:
            pairs = await achievements.finished(self.services, plugin, row, new, results, ctx.now)
            extra = both(extra, achievements.award_job(row, pairs, ctx.now, told)) if pairs else extra
        try:
            await self.store.save_game(row, serial.dump(new), over, seats, events, results, ctx.now,
                                       turn.unsaved_seen, extra=extra, released=released)
            turn.seen_stored = True
        except SeatTaken as taken:
            raise seat_error(turn, taken) from None
        turn.outcome = f"{move.label}:{row.id}" + (":over" if over else "")
        chat = self.chat_of(row)
        shown = await pictured(game, game.present, row.id, new, events, chat)
        turn.messages.extend(await self.titled(row.kind, chat, shown))
        turn.messages.extend(achievements.announced(chat, told))
        reached = {m.to.user_id for m in shown if isinstance(m.to, Actor)}  # a prompt is a private message
        self.note_prompts(game, row.id, row.platform, state, new, turn.inbound.actor.user_id, reached)
        await plugin.after_save(self.services, turn, chat, new, over)
        return Played(row.id, over)

    def note_prompts(self, game: Game[Any], game_id: int, platform: str, old: Any, new: Any, actor: str,
                     reached: Collection[str] | None = None) -> None:
        """Remember whom this move has asked for private input (newly waiting for it, or the actor
        still waiting after their own move: a daily attempt's next guess): their private input goes
        to the game that asked last (bot/app/routing.py `secret_input`). `reached`: the players the move's
        messages reached privately, the only ones it can have asked (a guess in the group asks nobody, and
        no prompt is computed for it); None: every seated player."""
        for p in game.seated(new):
            if reached is not None and p.user_id not in reached:
                continue
            if game.secret_prompt(game_id, new, p.user_id) is None:
                continue
            if old is None or p.user_id == actor or game.secret_prompt(game_id, old, p.user_id) is None:
                self._prompted[(platform, p.user_id)] = game_id

    @staticmethod
    def results(game: Game[Any], state: Any) -> list[NewResult]:
        length, repeats = game.code_rules(state) or (None, None)  # the 1A2B games record them
        return [NewResult(r.user_id, r.name, r.outcome, r.attempts, length, repeats, r.rating, r.side)
                for r in game.results(state)]


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
