"""The application service: routes an Inbound to its game, runs the move under the game's
lock, persists state + events in one transaction, and returns localised Outbounds.

The App knows no game by name: the games come from the registry (bot/games/registry.py, each game's plugin),
every move goes through the move runner (bot/app/runner.py), routing is game-neutral (bot/app/routing.py)."""

from __future__ import annotations

import asyncio
import logging
import re
import time
from collections.abc import Callable, Sequence
from dataclasses import replace
from typing import Any

from bot.app import edits, routing
from bot.app.runner import timed_out
from bot.app.services import RETRY_DELAYS, AppServices
from bot.app.turn import Turn, command_aliases
from bot.games.registry import GAMES, PLUGINS, commands, schemas
from bot.schedule import own_posts
from bot.storage.base import Conflict, Duplicate, GameRow, Store, StoreUnavailable
from bot.storage.schemas import Schema
from bot.storage.sqlite import SqliteStore
from bot.texts.i18n import Catalogs, text_folders
from bot.yourdata import logged  # a person in the log: a keyed hash, never the id
from core import names, serial
from core.errors import GameError
from core.messages import Actor, CommandInfo, Inbound, Message, Outbound, Response, Text

log = logging.getLogger("bot.app.app")

STORE_ERRORS = {"busy": "error.store_busy", "full": "error.store_full", "error": "error.store_error"}
# A run of more digits than any option, code or mention id (<@…>, ≤ 20 digits) can hold: refused
# before any parser turns it into a number (Python refuses int() of 4,300 digits and more).
LONG_NUMBER = re.compile(r"\d{25,}")
__all__ = ["GAMES", "App", "is_postgres", "open_store"]


class App(AppServices):
    def __init__(self, store: Store, catalogs: Catalogs, **options: Any) -> None:
        super().__init__(store, catalogs, **options)
        self.plugins = dict(PLUGINS)  # the games registered now (bot/games/registry.py)
        self.commands = {c.name: c for c in commands()}
        self.aliases = command_aliases(self.commands.values())
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
        if self._users.get(key) == known:
            return None
        self.localiser.note_locale(actor)
        saved = self.store.save_user(actor.platform, actor.user_id, actor.name, actor.locale)

        def stored(fut: asyncio.Future[Any]) -> None:  # believed saved only once it is (a full disk refuses it)
            if not fut.cancelled() and fut.exception() is None:
                self._users[key] = known

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

    # ------------------------------------------------------------ time
    async def _bot_move(self, row: GameRow, why: str) -> list[Outbound]:
        """The bot's move left pending in a game (`GamePlugin.before_move`), made now; one broken game
        keeps no other from its move (nor the bot from starting)."""
        turn = self.by_the_app(row)
        try:
            await self.plugins[row.kind].before_move(self, turn, row)
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
        for row in await self.store.idle_games(self.clock() + 1):  # every running game
            outbounds.extend(await self._bot_move(row, "resumed"))
        return outbounds

    async def retry_bot_moves(self) -> list[Outbound]:
        """The bot's moves refused as busy (`Services.owe`) whose time has come are tried again
        (`python -m bot` calls this every second): the human waiting for the bot needs to write
        nothing. Refused again, a move waits longer (`RETRY_DELAYS`), and after the last delay it
        waits for the human's next move or a restart. A game that has ended is not moved (nor one
        in which the bot moved meanwhile). Returns the messages for those games' chats."""
        now = self.clock()
        outbounds: list[Outbound] = []
        for game_id, owed in list(self.owed.items()):
            if owed.due > now:
                continue
            owed.refused, owed.tries, owed.due = False, owed.tries + 1, float("inf")  # in flight
            row = await self.store.get_game(game_id)
            if row is None or row.over:
                self.owed.pop(game_id, None)
                continue
            told = await self._bot_move(row, "retried")
            if not owed.refused:  # moved (or nothing owed any more)
                self.owed.pop(game_id, None)
            elif owed.tries < len(RETRY_DELAYS):
                owed.due = self.clock() + RETRY_DELAYS[owed.tries]
            else:
                self.owed.pop(game_id, None)
                log.warning("%s chat=%s game %d: the bot is still busy; its move waits for the human",
                            row.platform, logged.where(row), game_id)
            outbounds.extend(told)
        return outbounds

    async def sweep(self) -> list[Outbound]:
        """Time out games idle for longer than the configured timeout; returns what to announce."""
        cutoff = self.clock() - self.idle_timeout
        outbounds: list[Outbound] = []
        for row in await self.store.idle_games(cutoff):
            game = GAMES[row.kind]
            turn = self.by_the_app(row)
            async with self.lock(row.id):
                fresh = await self.store.get_game(row.id)
                if fresh is None or fresh.over:
                    continue
                state = serial.load(game.state_type, fresh.state)
                if not self.expired(game, state):
                    continue
                try:
                    await self.apply(turn, fresh, timed_out(), state)
                except (GameError, Conflict):
                    continue
            self.release(row.id)
            log.info("%s chat=%s game %d timed out", row.platform, logged.where(row), row.id)
            outbounds.extend(await self.told(turn))
        return outbounds


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
