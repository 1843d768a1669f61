"""What a command handler works with: the App's services and the one move runner.

`Services` (the App's base class) holds the store, the catalogs and renderer, the clock and the
random source, the solver's thinker, and runs every move — a human's, the bot's, a hint, a
timeout — through `run`: under the game's lock, with compare-and-set retries, one transaction for
state, seats, events, results and the game's own writes, then the game's after-move hooks.

A game's bot-side half is a `GamePlugin` (bot/games/plugin.py, importable from here too): its core
game, its commands with their options and handlers, and its hooks into the move runner. The App knows
the plugins only through that interface and the registry (bot/games/registry.py)."""

from __future__ import annotations

import asyncio
import random
import time
from collections.abc import Awaitable, Callable, Collection
from dataclasses import dataclass, field, replace
from functools import cached_property
from pathlib import Path
from typing import Any

from bot import solver_book
from bot.bounded import Bounded
from bot.dictionary import lexicon
from bot.games.plugin import GAMES
from bot.games.plugin import GamePlugin as GamePlugin  # its old home: still importable from here
from bot.i18n import Catalogs
from bot.options import mention_id, option_vocabulary
from bot.permissions import check_can_post
from bot.ratelimit import RateLimiter
from bot.render import Renderer
from bot.storage.base import Conflict, GameRow, NewResult, SeatTaken, Store, TooManyGames
from bot.thinking import Thinker
from core import names, serial
from core.errors import GameError
from core.games.base import Ctx, Event, Game, Player
from core.messages import Actor, Chat, Inbound, Message, Text
from core.solver.games import BOT

CACHED_USERS = 100_000  # names and locales last stored (bot/bounded.py: a miss costs one write)
# The bot's own move refused as busy (bot/thinking.py) is tried again after these delays (seconds),
# one after another; after the last one it waits for the human's next move or a restart.
RETRY_DELAYS = (2.0, 4.0, 8.0, 15.0, 30.0, 60.0, 60.0, 60.0, 60.0, 60.0)

Step = Callable[[Game[Any], Any, Ctx], tuple[Any, list[Event]]]
Handler = Callable[["Services", "Turn", tuple[str, ...]], Awaitable[None]]


@dataclass(frozen=True)
class Command:
    """A command, identical on every platform: its options (platform menus), where it may be used,
    and its handler."""

    name: str
    options: tuple[str, ...] = ()
    handler: Handler | None = None
    group_only: bool = False
    hidden: bool = False  # not in platform menus (e.g. /start, which platforms handle themselves)
    personal: bool = True  # needs a person: refused to a post on behalf of a chat (`Actor.as_chat`)
    choices: tuple[tuple[str, tuple[str, ...]], ...] = ()  # fixed value sets of options (Discord choices)
    # localised names, (language, name) pairs: typed, each works like `name` in every chat on every
    # platform; a platform menu of that language shows the first of them its naming rules accept
    # (Telegram: [a-z0-9_]{1,32}; Discord: lowercase letters of any script, digits, - and _)
    aliases: tuple[tuple[str, str], ...] = ()

    def names(self, lang: str) -> tuple[str, ...]:
        """The command's names in one language, the localised ones first."""
        return tuple(n for lg, n in self.aliases if lg == lang)


def command_aliases(commands: Collection[Command]) -> dict[str, str]:
    """Every localised command name → its command; an alias never hides a command or another alias."""
    taken = {c.name for c in commands}
    out: dict[str, str] = {}
    for c in commands:
        for _lang, alias in c.aliases:
            alias = alias.lower()
            if alias == c.name:  # the command's own name in that language
                continue
            if alias in taken or out.get(alias, c.name) != c.name:
                raise ValueError(f"the alias /{alias} of /{c.name} is taken")
            out[alias] = c.name
    return out


@dataclass
class Turn:
    """What handling one inbound has produced so far."""

    inbound: Inbound
    messages: list[Message] = field(default_factory=list)
    notice: Text | None = None
    delete_inbound: bool = False
    outcome: str = "ok"
    about: Chat | None = None  # the group whose game the inbound acted on (its language, for a reader with none)

    seen_stored: bool = False  # its id went into the store with the first move it caused

    @property
    def seen(self) -> tuple[str, str] | None:
        ev = self.inbound.event_id
        return (self.inbound.actor.platform, ev) if ev else None

    @property
    def unsaved_seen(self) -> tuple[str, str] | None:
        """The id for the next save, once (one inbound may cause several moves): the message's where its author
        may edit it (`Inbound.message`: one move per message, however often edited), else the update's."""
        msg = self.inbound.message
        return None if self.seen_stored else (self.inbound.actor.platform, f"m:{msg}") if msg else self.seen


@dataclass(frozen=True)
class Move:
    """One move for the move runner (`Services.run`): how it changes the state, and how it is told."""

    step: Step
    label: str  # the log's outcome: "guess", "bot", "hint" …
    extra: tuple[Event, ...] = ()  # events logged before the move's own
    same_version: bool = False  # decided on the row given (a thought, a hint): `Moved` if another came first
    computer: bool = False  # the bot's own move: the bot does not answer it


@dataclass
class Owed:
    """A bot move refused as busy: when it is tried next, how often it was, and whether the last
    try was refused again."""

    due: float
    tries: int = 0
    refused: bool = False


class Moved(Exception):
    """A move decided on a state that another move has changed meanwhile: decide again."""


def acting(action: object, actor: str | None) -> Move:
    """A move by a player (or, with no actor, by the game's timer), logged by the action's name."""
    return Move(lambda game, state, ctx: game.apply(state, action, actor, ctx), type(action).__name__.lower())


def loaded(row: GameRow) -> tuple[Game[Any], Any]:
    """A stored game's game and its state object."""
    game = GAMES[row.kind]
    return game, serial.load(game.state_type, row.state)


class Services:
    """The App's services for handlers, and the one move runner."""

    solver_cache: str | None = str(Path(__file__).resolve().parent.parent / "data" / "solver-cache")
    plugins: dict[str, GamePlugin[Any]]  # by game kind (the App takes them from bot/games/registry.py)
    commands: dict[str, Command]  # by name, in menu order
    aliases: dict[str, str]  # a localised command name → the command's name (`Command.aliases`)

    def __init__(self, store: Store, catalogs: Catalogs, *, seed: int | None = None,
                 default_lang: str = "en", idle_timeout: float = 24 * 3600.0,
                 clock: Callable[[], float] = time.time, rate: float = 0.0, burst: int = 20,
                 max_games_chat: int = 20, max_games_user: int = 5, list_lines: int = 10) -> None:
        self.store = store
        self.max_games_chat = max_games_chat  # running games per chat (0: no bound)
        self.max_games_user = max_games_user  # running games one user is or was part of, per chat
        self.list_lines = max(list_lines, 1)  # lines of a list reply before "… and K more"
        self.catalogs = catalogs
        self.renderer = Renderer(store, catalogs, default_lang)
        # secrets are drawn from the OS's cryptographic source unless a seed asks for repeatable ones
        # (tests, `--seed`): a Mersenne Twister could be rebuilt from the codes the bot reveals
        self.rng = random.Random(seed) if seed is not None else random.SystemRandom()
        self.idle_timeout = idle_timeout
        self.clock = clock
        self.limiter = RateLimiter(rate, burst, clock)
        self._locks: dict[int, asyncio.Lock] = {}
        self._users: Bounded[tuple[str, str], tuple[str, str | None]] = Bounded(CACHED_USERS)
        self._focus: Bounded[tuple[str, str], int] = Bounded(CACHED_USERS)  # private input goes to this game
        self._prompted: Bounded[tuple[str, str], int] = Bounded(CACHED_USERS)  # the game that asked a user last
        self._answered: Bounded[tuple[str, str], int] = Bounded(CACHED_USERS)  # a user's last private input went here
        self._members: Bounded[tuple[str, str, str], str | None] = Bounded(CACHED_USERS)  # (chat, user): title noted
        self._recent: Bounded[tuple[str, str], None] = Bounded(50_000)  # update ids answered here (redelivered soon)
        self.thinker = Thinker()  # solver work: worker processes, single flight, bounded (bot/thinking.py)
        self.owed: dict[int, Owed] = {}  # bot moves refused as busy, by game: tried again (App.retry_bot_moves)

    @cached_property
    def option_words(self) -> dict[str, str]:
        """Every catalog's option words → the option id, for the games' option parsers (core/options.py)."""
        return option_vocabulary(self.catalogs)

    def ctx(self, typed: bool = True) -> Ctx:
        return Ctx(self.clock(), self.rng, lexicon, typed)

    def chat_of(self, row: GameRow) -> Chat:
        return Chat(row.platform, row.chat_id, row.private)

    def lock(self, game_id: int) -> asyncio.Lock:
        return self._locks.setdefault(game_id, asyncio.Lock())

    def release(self, game_id: int) -> None:
        """Forget the lock of a game that has ended (or that nobody waits for)."""
        self._locks.pop(game_id, None)

    async def lang(self, ib: Inbound) -> str:
        """The reader's language for this inbound's chat."""
        return await self.renderer.lang_for(ib.chat, ib)

    async def think(self, key: tuple[Any, ...], spec: Any, fn: Callable[..., Any], *args: Any) -> Any:
        """`fn(solver, *args)` with the shared solver of the code space, in a worker process (the
        worker reads or builds its opening book); the same `key` (position) in flight is computed once."""
        return await self.thinker.run(key, solver_book.with_solver, spec, self.solver_cache, fn, *args)

    def owe(self, game_id: int) -> bool:
        """The bot's move in this game was refused as busy: it is tried again after `RETRY_DELAYS`
        (App.retry_bot_moves). True when this is news (the chat is told once), False while a retry
        is already owed."""
        owed = self.owed.get(game_id)
        if owed is not None:
            owed.refused = True
            return False
        self.owed[game_id] = Owed(self.clock() + RETRY_DELAYS[0])
        return True

    def note_chat(self, ib: Inbound) -> asyncio.Future[Any] | None:
        """An inbound from a group: its title (cleaned and capped, core/names.py `title`) and that the
        actor has acted there, stored when news to this process; `handle` awaits it before answering.
        A title is shown only in private messages to such members (`title_for`)."""
        chat = ib.chat
        if chat.private:
            return None
        key, title = (chat.platform, chat.chat_id, ib.actor.user_id), names.title(chat.title)
        if key in self._members and self._members.get(key) == title:
            return None
        saved = self.store.note_chat(chat.platform, chat.chat_id, title, ib.actor.user_id)

        def stored(fut: asyncio.Future[Any]) -> None:
            if not fut.cancelled() and fut.exception() is None:
                self._members[key] = title

        saved.add_done_callback(stored)
        return saved

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

    # ------------------------------------------------------------ players and lists
    async def my_game(self, actor: Any, chat: Chat) -> GameRow | None:
        rows = await self.store.seated_games(actor.platform, actor.user_id, chat.chat_id)
        return rows[0] if rows else None

    async def resolve_player(self, ib: Inbound, written: str) -> Player:
        """An opponent as written (see `find_player`); never the actor."""
        found = await self.find_player(ib, written)
        if found.user_id == ib.actor.user_id:
            raise GameError("self_challenge")
        if found.user_id in ib.bots:  # another bot account: it cannot play (the computer is the `bot` option)
            raise GameError("bot_opponent")
        return found

    async def find_player(self, ib: Inbound, written: str, for_scorer: bool = False,
                          known_only: bool = False) -> Player:
        """A mention, @name or name → one player of this platform: by name the users seen in this
        chat first, then anyone else of that name if there is only one; several are asked back
        (those of this chat listed by mention). Someone this chat has never seen is unknown for
        statistics (`known_only`: by mention or by name) and, mentioned as an opponent, is named by
        their id alone. Names compare as core.names.key. On the console a name is the player (unless
        `known_only`: statistics are only for users the store knows; or
        `for_scorer`: the scorer role goes only to a console player who has written, who can act)."""
        console = ib.chat.platform == "console"
        uid = mention_id(written)
        if uid is not None:
            # a mention (typed ids included) names only someone this chat has seen: another chat's
            # player is unknown here — no name, record or rating of theirs from elsewhere
            seen = uid == ib.actor.user_id or await self.store.seen_in_chat(ib.chat.platform, ib.chat.chat_id, uid)
            if not seen and known_only:
                raise GameError("unknown_player", name=written.strip()[:40])
            known = await self.store.user_name(ib.chat.platform, uid) if seen else None
            if known is None and for_scorer and console:  # a console "mention" is only typed text
                raise GameError("kegeln.unknown_user", name=uid[:40])
            return Player(uid, known or uid)
        name = names.clean(names.clean(written).lstrip("@"))
        if not name:
            raise GameError("empty_name")
        if console and not (known_only or for_scorer):
            return Player(name, name)
        here = await self.store.find_users(ib.chat.platform, ib.chat.chat_id, name)
        found = here or ([] if known_only else await self.store.find_users(ib.chat.platform, None, name, limit=2))
        if not found and for_scorer:
            raise GameError("kegeln.unknown_user", name=name[:40])
        if not found:
            raise GameError("unknown_player", name=name[:40])
        if len(found) > 1 and here:
            raise GameError("ambiguous_player", name=name[:40],
                            candidates=", ".join(f"{n[:40]} (<@{u}>)" for u, n in found))
        if len(found) > 1:  # people of other chats are not listed here
            raise GameError("ambiguous_player_elsewhere", name=name[:40])
        return Player(*found[0])

    async def more(self, ib: Inbound, hidden: int) -> str:
        """The "… and K more" line that ends a capped list, in the reader's language."""
        return self.catalogs.render(Text("board.more", {"n": hidden}), await self.lang(ib))

    async def capped(self, ib: Inbound, lines: list[str], limit: int, tail: int = 0) -> str:
        """At most `limit` lines: the first ones, "… and K more", and the last `tail` ones."""
        if limit <= 0 or len(lines) <= limit:
            return "\n".join(lines)
        hidden = len(lines) - limit
        head, back = lines[:limit - tail], lines[len(lines) - tail:] if tail else []
        return "\n".join([*head, await self.more(ib, hidden), *back])

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
        turn.messages.extend(await self.titled(kind, chat, await pictured(game, game.present, game_id, state, events,
                                                                           chat)))
        self.note_prompts(game, game_id, chat.platform, None, state, turn.inbound.actor.user_id)
        await self.plugins[kind].after_move(self, turn, game_id, raw)

    async def play(self, turn: Turn, row: GameRow, action: object) -> None:
        """A human's move: `action` by the inbound's actor, through the move runner."""
        await self.run(turn, row, acting(action, turn.inbound.actor.user_id))

    async def run(self, turn: Turn, row: GameRow, move: Move) -> None:
        """The one move runner, for every move (a human's, the bot's, a hint): under the game's
        lock, with compare-and-set retries for other processes, a lazy timer's move first, one
        transaction for the state, seats, events and results, and the after-move hooks (the bot's
        answer). `move.same_version`: the move was decided on `row` (the bot's thought, a hint) and
        is dropped (`Moved`) when another move got in first."""
        plugin = self.plugins[row.kind]
        if not row.private:
            turn.about = self.chat_of(row)
        if not move.computer:
            await plugin.before_move(self, turn, row)
        async with self.lock(row.id):
            # First try the row the router has just read (one read less per move); if another move
            # got in between, the version compare-and-set or the rules notice, and we read again.
            optimistic: GameRow | None = row
            for _ in range(5):
                fresh = optimistic or await self.store.get_game(row.id)
                if move.same_version and (fresh is None or fresh.over or fresh.version != row.version):
                    raise Moved()
                if fresh is None or fresh.over:
                    raise GameError("game_over")
                game = self.plugins[fresh.kind].game
                current = serial.load(game.state_type, fresh.state)
                pending = game.timeout_action() if self.expired(game, current) else game.due_action(
                    current, self.clock())
                try:
                    if pending is not None:  # the game's time ran out, or a lazy timer's (a guesser's): that first
                        await self.apply(turn, fresh, acting(pending, None))
                        optimistic = None
                        continue
                    await self.apply(turn, fresh, move)
                except Conflict:
                    if move.same_version:
                        raise Moved() from None
                    optimistic = None
                    continue
                except GameError:
                    if optimistic is None or move.same_version:
                        raise
                    optimistic = None  # maybe refused on a stale state: judge again on a fresh one
                    continue
                break
            else:
                raise GameError("busy")
        if turn.outcome.endswith(":over"):
            self.release(row.id)
        elif not move.computer:
            await plugin.after_move(self, turn, row.id, row.state)

    def expired(self, game: Game[Any], state: Any) -> bool:
        """Idle past the timeout: the game times out, whether the minutely sweep (App.sweep) or a move
        arriving first finds it so (a move just after a restart plays on no game long past its time)."""
        return game.last_activity(state) < self.clock() - self.idle_timeout

    async def apply(self, turn: Turn, row: GameRow, move: Move) -> None:
        """One move on the row read under the lock (the caller holds it): saved, then presented."""
        game = self.plugins[row.kind].game
        ctx = self.ctx(self.renderer.hears(row.platform, row.chat_id))  # a typed move may go unheard there
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
        extra = plugin.writes(self, row, state, new, over)
        match = await plugin.rated(self, row, new, results) if over else None
        if match is not None:
            extra = both(extra, self.store.rating_job(row.platform, row.chat_id, row.kind, match, ctx.now,
                                                                 row.id))
        try:
            await self.store.save_game(row, serial.dump(new), over, seats, events, results, ctx.now, turn.unsaved_seen,
                                       extra=extra, released=released)
            turn.seen_stored = True
        except SeatTaken as taken:
            raise seat_error(turn, taken) from None
        turn.outcome = f"{move.label}:{row.id}" + (":over" if over else "")
        chat = self.chat_of(row)
        turn.messages.extend(await self.titled(row.kind, chat, await pictured(game, game.present, row.id, new, events,
                                                                               chat)))
        self.note_prompts(game, row.id, row.platform, state, new, turn.inbound.actor.user_id)
        await plugin.after_save(self, turn, chat, new, over)

    def note_prompts(self, game: Game[Any], game_id: int, platform: str, old: Any, new: Any, actor: str) -> None:
        """Remember whom this move has asked for private input (newly waiting for it, or the actor
        still waiting after their own move: a daily attempt's next guess): their private input goes
        to the game that asked last (bot/routing.py `secret_input`)."""
        for p in game.seated(new):
            if game.secret_prompt(game_id, new, p.user_id) is None:
                continue
            if old is None or p.user_id == actor or game.secret_prompt(game_id, old, p.user_id) is None:
                self._prompted[(platform, p.user_id)] = game_id

    @staticmethod
    def results(game: Game[Any], state: Any) -> list[NewResult]:
        length, repeats = game.code_rules(state) or (None, None)  # the 1A2B games record them
        return [NewResult(r.user_id, r.name, r.outcome.value, r.attempts, length, repeats, r.rating, r.side)
                for r in game.results(state)]


def both(first: Any, then: Any) -> Any:
    """Two store write jobs as one (either may be None)."""
    if first is None:
        return then

    async def job(tx: Any) -> None:
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
