"""The App's services for command handlers: the store, catalogs, caches, the solver's thinker, players by name.

`AppServices` (the App's base class) is a `MoveRunner` (bot/app/runner.py: every move runs through `run`) and
holds the store, the catalogs and their localiser, the clock and the random source, the solver's thinker, the
caches of names, titles and prompts, and finds players by mention or name for the handlers.

The names the game packages import from here — `Turn` and `Command` (bot/app/turn.py), `Move`,
`Moved`, `Played` (bot/app/move_types.py), `acting`, `loaded`, `pictured` (bot/app/runner.py), `GamePlugin` and
`Services`, the protocol of what `AppServices` offers the games and handlers (bot/games/plugin.py) — are
re-exported until each imports them from their homes."""

from __future__ import annotations

import asyncio
import random
import time
from collections.abc import Callable
from dataclasses import dataclass
from functools import cached_property
from typing import Any

from bot.app.move_types import Move, Moved, Played
from bot.app.runner import MoveRunner, acting, loaded, pictured
from bot.app.turn import Command, Turn, command_aliases
from bot.games.plugin import GamePlugin, Services
from bot.process import state
from bot.process.bounded import Bounded
from bot.process.ratelimit import RateLimiter
from bot.solver import book as solver_book
from bot.solver.thinking import Thinker
from bot.storage.base import GameRow, Store
from bot.texts.i18n import Catalogs
from bot.texts.option_words import mention_id, option_vocabulary
from bot.texts.render import Localiser
from core import names
from core.errors import GameError
from core.games.base import Player
from core.messages import Actor, Chat, Inbound, Outbound, Text

__all__ = [
    "CACHED_USERS",
    "RETRY_DELAYS",
    "AppServices",
    "Command",
    "GamePlugin",
    "Move",
    "Moved",
    "Owed",
    "Played",
    "Services",
    "Turn",
    "acting",
    "command_aliases",
    "loaded",
    "pictured",
]

CACHED_USERS = 100_000  # names and locales last stored (bot/process/bounded.py: a miss costs one write)
# The bot's own move refused as busy (bot/solver/thinking.py) is tried again after these delays (seconds),
# one after another; after the last one it waits for the human's next move or a restart.
RETRY_DELAYS = (2.0, 4.0, 8.0, 15.0, 30.0, 60.0, 60.0, 60.0, 60.0, 60.0)

@dataclass
class Owed:
    """A bot move refused as busy: when it is tried next, how often it was, and whether the last
    try was refused again."""

    due: float
    tries: int = 0
    refused: bool = False


class AppServices(MoveRunner):
    """The App's services for handlers, and the one move runner (`MoveRunner`)."""

    solver_cache: str | None = str(state.folder() / "solver-cache")  # the opening books (bot/process/state.py)
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
        self.localiser = Localiser(store, catalogs, default_lang)
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
        self.thinker = Thinker()  # solver work: worker processes, single flight, bounded (bot/solver/thinking.py)
        self.owed: dict[int, Owed] = {}  # bot moves refused as busy, by game: tried again (App.retry_bot_moves)

    @cached_property
    def option_words(self) -> dict[str, str]:
        """Every catalog's option words → the option id, for the games' option parsers (core/options.py)."""
        return option_vocabulary(self.catalogs)

    def by_the_app(self, row: GameRow) -> Turn:
        """The handling of what the App does on its own in a game (a resumed or retried bot move, a timeout)."""
        return Turn(Inbound(Actor(row.platform, "", ""), self.chat_of(row)))

    async def told(self, turn: Turn) -> list[Outbound]:
        """The messages of a turn without an inbound of its own (`by_the_app`), rendered."""
        return list((await self.localiser.response(turn.inbound, turn.messages, None, False)).messages)

    async def lang(self, ib: Inbound) -> str:
        """The reader's language for this inbound's chat."""
        return await self.localiser.lang_for(ib.chat, ib)

    async def think(self, key: tuple[Any, ...], spec: Any, fn: Callable[..., Any], *args: Any,
                    aside: bool = False) -> Any:
        """`fn(solver, *args)` with the shared solver of the code space, in a worker process (the
        worker reads or builds its opening book); the same `key` (position) in flight is computed once;
        `aside`: the chat's next update need not wait for it (bot/solver/thinking.py)."""
        return await self.thinker.run(key, solver_book.with_solver, spec, self.solver_cache, fn, *args, aside=aside)

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
            # named as the platform names them in this message (issue 35), else as this chat knows them
            shown = names.clean(dict(ib.named).get(uid, ""))
            known = shown or (await self.store.user_name(ib.chat.platform, uid) if seen else None)
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



def as_services(svc: AppServices) -> Services:
    """The App's services as the games and handlers see them: here mypy checks that `AppServices` (with its
    `MoveRunner`) fits the protocol of bot/games/plugin.py, member by member."""
    return svc
