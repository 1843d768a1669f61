"""The App: the application service that takes every Inbound, and the services its handlers and games are given.

`App.handle` routes an inbound to its command or game (bot/app/routing.py, game-neutral), catches every refusal and
returns localised Outbounds. The App knows no game by name: the games come from the registry
(bot/games/registry.py, each game's plugin). It holds the store, the catalogs and their localiser, the clock and the
random source, the solver's thinker, the move runner through which every move goes (bot/app/runner.py `MoveRunner`,
`App.runner`), and what it remembers of users (bot/app/memory.py); it finds players by mention or name for the
handlers. It is what the games and handlers see as `Services` (bot/games/plugin.py)."""

from __future__ import annotations

import asyncio
import logging
import random
import re
import time
from collections.abc import Callable, Sequence
from dataclasses import replace
from functools import cached_property
from typing import Any

from bot.app import edits, routing
from bot.app.memory import CACHED_USERS, Known, PrivateInputs
from bot.app.players import Players
from bot.app.runner import MoveRunner
from bot.app.turn import Command, Turn, command_aliases
from bot.games.plugin import PLUGINS, GamePlugin, Services, schemas
from bot.games.registry import commands  # the registry fills the plugins' table
from bot.process import state
from bot.process.bounded import Bounded
from bot.process.ratelimit import RateLimiter
from bot.schedule import own_posts
from bot.solver import book as solver_book
from bot.solver.dictionary import lexicon
from bot.solver.thinking import Thinker
from bot.storage.base import Duplicate, GameRow, Store, StoreUnavailable
from bot.storage.schemas import Schema
from bot.storage.sqlite import SqliteStore
from bot.texts.i18n import Catalogs, text_folders
from bot.texts.option_words import option_vocabulary
from bot.texts.render import Localiser
from bot.yourdata import logged  # a person in the log: a keyed hash, never the id
from core import names
from core.errors import GameError
from core.games.base import Ctx
from core.messages import Actor, Chat, CommandInfo, Inbound, Message, Response, Text

log = logging.getLogger("bot.app.app")

STORE_ERRORS = {"busy": "error.store_busy", "full": "error.store_full", "error": "error.store_error"}
# A run of more digits than any option, code or mention id (<@…>, ≤ 20 digits) can hold: refused
# before any parser turns it into a number (Python refuses int() of 4,300 digits and more).
LONG_NUMBER = re.compile(r"\d{25,}")


class App:
    """The application service, and the services of the handlers and games (`Services`)."""

    solver_cache: str | None = str(state.folder() / "solver-cache")  # the opening books (bot/process/state.py)

    def __init__(self, store: Store, catalogs: Catalogs, *, seed: int | None = None,
                 default_lang: str = "en", idle_timeout: float = 24 * 3600.0,
                 clock: Callable[[], float] = time.time, rate: float = 0.0, burst: int = 20,
                 max_games_chat: int = 20, max_games_user: int = 5, list_lines: int = 10) -> None:
        self.store = store
        self.list_lines = max(list_lines, 1)  # lines of a list reply before "… and K more"
        self.catalogs = catalogs
        self.localiser = Localiser(store, catalogs, default_lang)
        # secrets are drawn from the OS's cryptographic source unless a seed asks for repeatable ones
        # (tests, `--seed`): a Mersenne Twister could be rebuilt from the codes the bot reveals
        self.rng = random.Random(seed) if seed is not None else random.SystemRandom()
        self.idle_timeout = idle_timeout
        self.clock = clock
        self.limiter = RateLimiter(rate, burst, clock)
        self.inputs = PrivateInputs(CACHED_USERS)  # where a user's private input goes
        self.known = Known(CACHED_USERS)  # names, locales and chat titles stored already
        self._recent: Bounded[tuple[str, str], None] = Bounded(50_000)  # update ids answered here (redelivered soon)
        self.thinker = Thinker()  # solver work: worker processes, single flight, bounded (bot/solver/thinking.py)
        self.plugins: dict[str, GamePlugin[Any]] = dict(PLUGINS)  # the games registered now, by kind
        self.commands: dict[str, Command] = {c.name: c for c in commands()}  # by name, in menu order
        self.aliases = command_aliases(self.commands.values())  # a localised command name → the command's name
        self.players = Players(store)
        self.runner = MoveRunner(self, max_games_chat=max_games_chat, max_games_user=max_games_user)
        self.scheduler = own_posts.scheduler(self, list(self.plugins.values()))  # the bot's own posts

    @classmethod
    async def open(cls, db_path: str, seed: int | None = None, default_lang: str = "en",
                   idle_timeout: float = 24 * 3600.0, synchronous: str = "FULL",
                   clock: Callable[[], float] = time.time, rate: float = 0.0, burst: int = 20,
                   max_games_chat: int = 20, max_games_user: int = 5, list_lines: int = 10) -> App:
        """`db_path`: a SQLite file, or a `postgresql://` URL (several processes on one database)."""
        store = open_store(db_path, synchronous, schemas())
        await store.open()
        return cls(store, Catalogs(owners=text_folders(PLUGINS.values())), seed=seed, default_lang=default_lang,
                   idle_timeout=idle_timeout, clock=clock, rate=rate, burst=burst,
                   max_games_chat=max_games_chat, max_games_user=max_games_user, list_lines=list_lines)

    async def close(self) -> None:
        await self.store.close()

    def _option_key(self, command: str, option: str) -> str:
        """`opt.<command>.<option>` where an option name means something else for this command
        (e.g. /lang's code is a language, /guess's a code to guess), else `opt.<option>`."""
        own = f"opt.{command}.{option}"
        return own if self.catalogs.has(own) else f"opt.{option}"

    def command_menu(self) -> dict[str, list[CommandInfo]]:
        """Every language's command menu, for setMyCommands / slash command localisations."""
        return {lang: [CommandInfo(c.name, self.catalogs.render(Text(f"cmd.{c.name}"), lang), c.options,
                                   dict(c.choices),
                                   {o: self.catalogs.render(Text(self._option_key(c.name, o)), lang)
                                    for o in c.options}, c.names(lang), c.group_only)
                       for c in self.commands.values() if not c.hidden]
                for lang in self.catalogs.languages}

    # ------------------------------------------------------------ entry
    async def handle(self, inbound: Inbound) -> Response:
        started = time.perf_counter()
        inbound = _cleaned(inbound)
        turn = Turn(inbound)
        user_saved: asyncio.Future[Any] | None = None
        chat_saved: asyncio.Future[Any] | None = None
        try:
            verdict = self.limiter.check(inbound.actor.platform, inbound.actor.user_id)
            if verdict != "ok":  # a flood: one polite notice, then silence until it calms down
                turn.outcome = "flood"
                if verdict == "warn":
                    turn.notice = Text("error.flood")
                return await self.localiser.response(inbound, [], turn.notice, False)
            if turn.seen and turn.seen in self._recent:  # redelivered: answered already
                turn.outcome = "duplicate"
                return Response()
            if not inbound.actor.as_chat:  # a post as a chat is nobody to find by name or tell a title
                user_saved, chat_saved = self._remember(inbound.actor), self.note_chat(inbound)
            self.localiser.note_hearing(inbound)
            _refuse_long_numbers(inbound)
            if inbound.migrate_to:  # set by the platform itself, never typed by a user
                await self.store.migrate_chat(inbound.chat.platform, inbound.chat.chat_id, inbound.migrate_to)
                self.localiser.forget_chat(inbound.chat.platform, inbound.chat.chat_id)
            elif await edits.reported(self, turn):  # a topic closed, a secret undeleted, an edit (bot/app/edits.py)
                pass
            elif inbound.action:
                await routing.on_action(self, turn, inbound.action)
            elif inbound.command:
                await edits.once(self, turn, self._on_command(turn, inbound.command.lower(), inbound.args))
            elif inbound.text:
                await self._on_text(turn, inbound.text)
        except GameError as err:
            turn.outcome = f"refused:{err.code}"
            self._refuse(turn, err)
        except Duplicate:  # redelivered after a restart: its move is stored already, say nothing
            turn.outcome = "duplicate"
            turn.messages, turn.notice, turn.delete_inbound = [], None, False
        except StoreUnavailable as err:  # logged by the store; the move was not applied
            turn.outcome = f"store-{err.reason}"
            turn.messages = []
            self._say_refusal(turn, Text(STORE_ERRORS[err.reason]))
        except Exception:
            turn.outcome = "crashed"
            log.exception("failed to handle %s in %s:%s from %s", _what(inbound), *logged.who(inbound))
            turn.messages = [Message(inbound.chat, Text("error.internal"))]
        finally:
            if log.isEnabledFor(logging.INFO):  # the keyed hashes only for a line that is written (every event)
                log.info("%s chat=%s user=%s %s -> %s (%.1f ms)", *logged.who(inbound), _what(inbound),
                         turn.outcome, (time.perf_counter() - started) * 1000)
        if turn.seen:
            self._recent[turn.seen] = None
        for saved in (user_saved, chat_saved):
            try:
                if saved is not None:
                    await saved
            except Exception as exc:  # a name, language or title not stored is no reason to fail the answer
                log.warning("could not store user %s or chat: %s", logged.who(inbound)[2], exc)
        return await self.localiser.response(inbound, turn.messages, turn.notice, turn.delete_inbound,
                                            turn.about)

    def _refuse(self, turn: Turn, err: GameError) -> None:
        self._say_refusal(turn, Text(f"error.{err.code}", err.params))

    def _say_refusal(self, turn: Turn, text: Text) -> None:
        """A refusal goes to whoever acted: a button press gets a notice, a message a reply (where the
        bot cannot post, a notice too: ephemeral, or a private message)."""
        ib = turn.inbound
        if ib.action or ib.cannot_post:
            turn.notice = text
        elif ib.chat.private:
            turn.messages.append(Message(ib.chat, text, only_for_actor=True, about=turn.about))
        else:
            turn.messages.append(Message(ib.chat, Text("reply.to", {"name": ib.actor.name, "text": text}),
                                         only_for_actor=True))

    def _remember(self, actor: Actor) -> asyncio.Future[Any] | None:
        """Queue a changed name/locale; `handle` awaits it before answering."""
        key, known = (actor.platform, actor.user_id), (actor.name, actor.locale)
        if self.known.user_is(key, known):
            return None
        self.localiser.note_locale(actor)
        saved = self.store.save_user(actor.platform, actor.user_id, actor.name, actor.locale)

        def stored(fut: asyncio.Future[Any]) -> None:  # believed saved only once it is (a full disk refuses it)
            if not fut.cancelled() and fut.exception() is None:
                self.known.user_stored(key, known)

        saved.add_done_callback(stored)
        return saved

    async def _on_text(self, turn: Turn, raw: str) -> None:
        text = raw.strip()
        if text == "/" or (text.startswith("/") and text[1:2].isspace()):  # a command without its name
            turn.outcome = "refused:no_command_name"
            self._say_refusal(turn, Text("error.no_command_name"))
            return
        await routing.on_text(self, turn, text)

    async def _on_command(self, turn: Turn, name: str, args: tuple[str, ...]) -> None:
        cmd = self.commands.get(self.aliases.get(name, name))
        if cmd is None or cmd.handler is None:
            raise GameError("unknown_command", command=name[:30])
        if cmd.group_only and turn.inbound.chat.private:
            raise GameError("group_only", command=name)
        if cmd.personal and turn.inbound.actor.as_chat:  # posted as the group or a channel: nobody to seat
            raise GameError("personal_account", command=name)
        await cmd.handler(self, turn, args)

    # ------------------------------------------------------------ services of the handlers and games
    @cached_property
    def option_words(self) -> dict[str, str]:
        """Every catalog's option words → the option id, for the games' option parsers (core/options.py)."""
        return option_vocabulary(self.catalogs)

    def ctx(self, typed: bool = True) -> Ctx:
        return Ctx(self.clock(), self.rng, lexicon, typed)

    def chat_of(self, row: GameRow) -> Chat:
        return Chat(row.platform, row.chat_id, row.private)

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

    async def lang(self, ib: Inbound) -> str:
        """The reader's language for this inbound's chat."""
        return await self.localiser.lang_for(ib.chat, ib)

    async def think(self, key: tuple[Any, ...], spec: Any, fn: Callable[..., Any], *args: Any,
                    aside: bool = False) -> Any:
        """`fn(solver, *args)` with the shared solver of the code space, in a worker process (the
        worker reads or builds its opening book); the same `key` (position) in flight is computed once;
        `aside`: the chat's next update need not wait for it (bot/solver/thinking.py)."""
        return await self.thinker.run(key, solver_book.with_solver, spec, self.solver_cache, fn, *args, aside=aside)

    def note_chat(self, ib: Inbound) -> asyncio.Future[Any] | None:
        """An inbound from a group: its title (cleaned and capped, core/names.py `title`) and that the
        actor has acted there, stored when news to this process; `handle` awaits it before answering.
        A title is shown only in private messages to such members (`title_for`)."""
        chat = ib.chat
        if chat.private:
            return None
        key, title = (chat.platform, chat.chat_id, ib.actor.user_id), names.title(chat.title)
        if self.known.member_is(key, title):
            return None
        saved = self.store.note_chat(chat.platform, chat.chat_id, title, ib.actor.user_id)

        def stored(fut: asyncio.Future[Any]) -> None:
            if not fut.cancelled() and fut.exception() is None:
                self.known.member_stored(key, title)

        saved.add_done_callback(stored)
        return saved

    def forget_user(self, platform: str, user_id: str) -> None:
        """/forgetme: what the App remembers of the user (their stored name, where they acted, their
        private input's games, their private chat's language and their own /lang choice) goes too."""
        self.inputs.forget((platform, user_id))
        self.known.forget((platform, user_id))
        for chat in (user_id, f"u:{user_id}"):
            self.localiser.forget_chat(platform, chat)

    # ------------------------------------------------------------ lists
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


def open_store(db: str, synchronous: str = "FULL", owned: Sequence[Schema] = ()) -> Store:
    """The store for a DATABASE_URL (`postgresql://…`) or a SQLite file; `owned`: the games' own tables."""
    if is_postgres(db):
        from bot.storage.postgres import PostgresStore  # asyncpg is only needed for PostgreSQL
        return PostgresStore(db, schemas=owned)
    return SqliteStore(db, synchronous=synchronous, schemas=owned)


def is_postgres(db: str) -> bool:
    return db.startswith(("postgresql://", "postgres://"))


def _cleaned(ib: Inbound) -> Inbound:
    """The inbound with the actor's display name as core.names.clean shows and stores it (a name
    with nothing visible left becomes the user id)."""
    name = names.clean(ib.actor.name) or ib.actor.user_id
    return ib if name == ib.actor.name else replace(ib, actor=replace(ib.actor, name=name))


def _refuse_long_numbers(ib: Inbound) -> None:
    """A number longer than any the bot takes, in a command's options or a button id: the usual
    refusal, before a parser tries to read it."""
    if ib.command:
        for arg in ib.args:
            if LONG_NUMBER.search(arg):
                raise GameError("bad_option", option=arg[:20] + "…")
    if ib.action and LONG_NUMBER.search(ib.action):
        raise GameError("stale_button")


def _what(ib: Inbound) -> str:
    """What an inbound was, for the log: never its text (it may hold a secret)."""
    if ib.action:
        return f"button {ib.action}" + (" +input" if ib.text is not None else "")
    if ib.command:
        return f"/{ib.command}" + (f" ({len(ib.args)} args)" if ib.args else "")
    return "text"


def _fits(app: App) -> Services:
    """Here mypy checks that the App fits the `Services` protocol of bot/games/plugin.py, member by member."""
    return app
