"""The application service: routes an Inbound to its game, runs the move under the game's
lock, persists state + events in one transaction, and returns localised Outbounds."""

from __future__ import annotations

import asyncio
import contextlib
import logging
import random
import re
import time
from collections.abc import Callable
from dataclasses import dataclass, field, replace
from datetime import UTC, date, datetime
from functools import cached_property
from pathlib import Path
from typing import Any, ClassVar

from bot import solver_book
from bot.bounded import Bounded
from bot.commands import BY_NAME, COMMANDS, mention_id, option_choices, option_vocabulary, parse_code_options
from bot.dictionary import lexicon
from bot.i18n import Catalogs
from bot.ratelimit import RateLimiter
from bot.render import Renderer
from bot.storage.base import (
    Conflict,
    Duplicate,
    GameRow,
    NewResult,
    SeatTaken,
    Store,
    StoreUnavailable,
    TooManyGames,
)
from bot.storage.sqlite import SqliteStore
from bot.thinking import Thinker
from core import names, serial
from core.codes import CodeRules, looks_like_code
from core.errors import GameError
from core.games import duel, kegeln, logik, practice, words
from core.games.base import Answer, Challenge, Ctx, Event, Game, Player, repeats_text
from core.games.kegeln import chart as kegeln_chart
from core.games.kegeln import report as kegeln_report
from core.games.registry import GAMES
from core.messages import Actor, Button, Chat, CommandInfo, Inbound, Message, Outbound, Response, Text
from core.options import meaning
from core.solver import EASY, STRONG, Spec, analyse
from core.solver import games as solver_games

log = logging.getLogger("bot.app")

CACHED_USERS = 100_000  # names and locales last stored (bot/bounded.py: a miss costs one write)
STORE_ERRORS = {"busy": "error.store_busy", "full": "error.store_full", "error": "error.store_error"}
RANDOM_WORDS = {"random", "zufall", "zufallscode", "случайно", "случаен", "slump"}
# A run of more digits than any option, code or mention id (<@…>, ≤ 20 digits) can hold: refused
# before any parser turns it into a number (Python refuses int() of 4,300 digits and more).
LONG_NUMBER = re.compile(r"\d{25,}")
ANALYSE_LINES = 30  # guesses /analyse shows at most (the first ones and the last 5)


@dataclass(frozen=True)
class Move:
    """One move for the move runner (`App._run`): how it changes the state, and how it is told."""

    step: Callable[[Game[Any], Any, Ctx], tuple[Any, list[Event]]]
    label: str  # the log's outcome: "guess", "bot", "hint" …
    extra: tuple[Event, ...] = ()  # events logged before the move's own
    same_version: bool = False  # decided on the row given (a thought, a hint): `Moved` if another came first
    computer: bool = False  # the bot's own move: the bot does not answer it


class Moved(Exception):
    """A move decided on a state that another move has changed meanwhile: decide again."""


@dataclass
class Turn:
    """What handling one inbound has produced so far."""

    inbound: Inbound
    messages: list[Message] = field(default_factory=list)
    notice: Text | None = None
    delete_inbound: bool = False
    outcome: str = "ok"

    seen_stored: bool = False  # its id went into the store with the first move it caused

    @property
    def seen(self) -> tuple[str, str] | None:
        ev = self.inbound.event_id
        return (self.inbound.actor.platform, ev) if ev else None

    @property
    def unsaved_seen(self) -> tuple[str, str] | None:
        """The update id for the next save, once: one inbound may cause several moves."""
        return None if self.seen_stored else self.seen


class App:
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
        self.rng = random.Random(seed)
        self.idle_timeout = idle_timeout
        self.clock = clock
        self.limiter = RateLimiter(rate, burst, clock)
        self._locks: dict[int, asyncio.Lock] = {}
        self._users: Bounded[tuple[str, str], tuple[str, str | None]] = Bounded(CACHED_USERS)
        self._focus: Bounded[tuple[str, str], int] = Bounded(CACHED_USERS)  # private input goes to this game
        self._recent: Bounded[tuple[str, str], None] = Bounded(50_000)  # update ids answered here (redelivered soon)
        self.thinker = Thinker()  # solver work: worker processes, single flight, bounded (bot/thinking.py)

    @classmethod
    async def open(cls, db_path: str, seed: int | None = None, default_lang: str = "en",
                   idle_timeout: float = 24 * 3600.0, synchronous: str = "FULL",
                   clock: Callable[[], float] = time.time, rate: float = 0.0, burst: int = 20,
                   max_games_chat: int = 20, max_games_user: int = 5, list_lines: int = 10) -> App:
        """`db_path`: a SQLite file, or a `postgresql://` URL (several processes on one database)."""
        store = open_store(db_path, synchronous)
        await store.open()
        return cls(store, Catalogs(), seed=seed, default_lang=default_lang,
                   idle_timeout=idle_timeout, clock=clock, rate=rate, burst=burst,
                   max_games_chat=max_games_chat, max_games_user=max_games_user, list_lines=list_lines)

    async def close(self) -> None:
        await self.store.close()

    def _option_key(self, command: str, option: str) -> str:
        """`opt.<command>.<option>` where an option name means something else for this command
        (e.g. /lang's code is a language, /guess's a code to guess), else `opt.<option>`."""
        own = f"opt.{command}.{option}"
        return own if self.catalogs.has(own) else f"opt.{option}"

    @cached_property
    def option_words(self) -> dict[str, str]:
        """Every catalog's option words → the option id, for the games' option parsers (core/options.py)."""
        return option_vocabulary(self.catalogs)

    def command_menu(self) -> dict[str, list[CommandInfo]]:
        """Every language's command menu, for setMyCommands / slash command localisations."""
        return {lang: [CommandInfo(c.name, self.catalogs.render(Text(f"cmd.{c.name}"), lang), c.options,
                                   option_choices(c),
                                   {o: self.catalogs.render(Text(self._option_key(c.name, o)), lang)
                                    for o in c.options})
                       for c in COMMANDS if not c.hidden]
                for lang in self.catalogs.languages}

    # ------------------------------------------------------------ entry
    async def handle(self, inbound: Inbound) -> Response:
        started = time.perf_counter()
        inbound = _cleaned(inbound)
        turn = Turn(inbound)
        user_saved: asyncio.Future[Any] | None = None
        try:
            verdict = self.limiter.check(inbound.actor.platform, inbound.actor.user_id)
            if verdict != "ok":  # a flood: one polite notice, then silence until it calms down
                turn.outcome = "flood"
                if verdict == "warn":
                    turn.notice = Text("error.flood")
                return await self.renderer.response(inbound, [], turn.notice, False)
            if turn.seen and turn.seen in self._recent:  # redelivered: answered already
                turn.outcome = "duplicate"
                return Response()
            user_saved = self._remember(inbound.actor)
            _refuse_long_numbers(inbound)
            if inbound.migrate_to:  # set by the platform itself, never typed by a user
                await self.store.migrate_chat(inbound.chat.platform, inbound.chat.chat_id, inbound.migrate_to)
                self.renderer.forget_chat(inbound.chat.platform, inbound.chat.chat_id)
            elif inbound.action:
                await self._on_action(turn, inbound.action)
            elif inbound.command:
                await self._on_command(turn, inbound.command.lower(), inbound.args)
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
            log.exception("failed to handle %s in %s:%s from %s", _what(inbound), inbound.chat.platform,
                          inbound.chat.chat_id, inbound.actor.user_id)
            turn.messages = [Message(inbound.chat, Text("error.internal"))]
        finally:
            log.info("%s chat=%s user=%s %s -> %s (%.1f ms)", inbound.chat.platform, inbound.chat.chat_id,
                     inbound.actor.user_id, _what(inbound), turn.outcome,
                     (time.perf_counter() - started) * 1000)
        if turn.seen:
            self._recent[turn.seen] = None
        if user_saved is not None:
            try:
                await user_saved
            except Exception as exc:  # a name or language not stored is no reason to fail the answer
                log.warning("could not store user %s: %s", inbound.actor.user_id, exc)
        return await self.renderer.response(turn.inbound, turn.messages, turn.notice, turn.delete_inbound)

    def _refuse(self, turn: Turn, err: GameError) -> None:
        self._say_refusal(turn, Text(f"error.{err.code}", err.params))

    def _say_refusal(self, turn: Turn, text: Text) -> None:
        """A refusal goes to whoever acted: a button press gets a notice, a message a reply."""
        ib = turn.inbound
        if ib.action:
            turn.notice = text
        elif ib.chat.private:
            turn.messages.append(Message(ib.chat, text))
        else:
            turn.messages.append(Message(ib.chat, Text("reply.to", {"name": ib.actor.name, "text": text})))

    def _remember(self, actor: Actor) -> asyncio.Future[Any] | None:
        """Queue a changed name/locale; `handle` awaits it before answering."""
        key, known = (actor.platform, actor.user_id), (actor.name, actor.locale)
        if self._users.get(key) == known:
            return None
        self.renderer.note_locale(actor)
        saved = self.store.save_user(actor.platform, actor.user_id, actor.name, actor.locale)

        def stored(fut: asyncio.Future[Any]) -> None:  # believed saved only once it is (a full disk refuses it)
            if not fut.cancelled() and fut.exception() is None:
                self._users[key] = known

        saved.add_done_callback(stored)
        return saved

    def _ctx(self) -> Ctx:
        return Ctx(self.clock(), self.rng, lexicon)

    # ------------------------------------------------------------ plain text
    async def _on_text(self, turn: Turn, raw: str) -> None:
        ib = turn.inbound
        text = raw.strip()
        if text == "/" or (text.startswith("/") and text[1:2].isspace()):  # a command without its name
            turn.outcome = "refused:no_command_name"
            self._say_refusal(turn, Text("error.no_command_name"))
            return
        is_random = text.lower() in RANDOM_WORDS
        if not (looks_like_code(text) or is_random):
            if await self._offer_text(turn, text):
                return
            if ib.chat.private:
                waiting = await self._awaiting_secret(ib.actor)
                if waiting:  # typed here while a secret is due, it is meant as one: the game says what is wrong
                    await self._secret_input(turn, waiting, text)
                    return
                turn.messages.append(Message(ib.chat, Text("private.hint")))
            else:
                turn.outcome = "ignored"
            return
        if ib.chat.private:
            waiting = await self._awaiting_secret(ib.actor)
            if waiting:
                await self._secret_input(turn, waiting, None if is_random else text)
                return
        row = await self._my_game(ib.actor, ib.chat)
        if row is None:
            if ib.chat.private:
                turn.messages.append(Message(ib.chat, Text("private.no_game")))
            else:
                turn.outcome = "ignored"
            return
        await self._guess_or_secret(turn, row, text, is_random)

    async def _offer_text(self, turn: Turn, text: str) -> bool:
        """Plain text that is no digit code goes to a game whose `accepts_text(state, text)` says yes:
        privately as the secret it waits for, else as the seated player's move in this chat."""
        ib = turn.inbound

        def accepts(row: GameRow) -> bool:
            game, state = _loaded(row)
            return game.accepts_text(state, text)

        if ib.chat.private:
            waiting = [r for r in await self._awaiting_secret(ib.actor) if accepts(r)]
            if waiting:
                await self._secret_input(turn, waiting, text)
                return True
        row = await self._my_game(ib.actor, ib.chat)
        if row is None or not accepts(row):
            return False
        await self._guess_or_secret(turn, row, text, False)
        return True

    async def _guess_or_secret(self, turn: Turn, row: GameRow, text: str, is_random: bool) -> None:
        ib = turn.inbound
        game, state = _loaded(row)
        if game.secret_prompt(row.id, state, ib.actor.user_id) is not None:
            if is_random:  # revealing nothing, so it is taken even in the open
                await self._play(turn, row, game.secret_action(None))
                return
            # typed in the open where a secret was expected: never echo it
            turn.delete_inbound = True
            turn.messages.append(Message(ib.chat, Text("private.secret_in_group", {"name": ib.actor.name})))
            return
        action = None if is_random else game.text_action(state, ib.actor.user_id, text)
        if action is None:
            turn.outcome = "ignored"
            return
        await self._play(turn, row, action)

    async def _awaiting_secret(self, actor: Actor) -> list[GameRow]:
        """The user's games (in any chat) that wait for their private input."""
        waiting = []
        for row in await self.store.seated_games(actor.platform, actor.user_id):
            game, state = _loaded(row)
            if game.secret_prompt(row.id, state, actor.user_id) is not None:
                waiting.append(row)
        return waiting

    async def _secret_input(self, turn: Turn, waiting: list[GameRow], code: str | None) -> None:
        actor = turn.inbound.actor
        focus = self._focus.get((actor.platform, actor.user_id))
        chosen = [r for r in waiting if r.id == focus] or (waiting if len(waiting) == 1 else [])
        if not chosen:
            buttons = tuple((Button(Text("button.game_in", {"game": r.id}), f"g:{r.id}:secret"),) for r in waiting)
            turn.messages.append(Message(turn.inbound.chat, Text("private.which_game"), buttons))
            return
        self._focus.pop((actor.platform, actor.user_id), None)
        await self._play(turn, chosen[0], GAMES[chosen[0].kind].secret_action(code))

    async def _my_game(self, actor: Actor, chat: Chat) -> GameRow | None:
        rows = await self.store.seated_games(actor.platform, actor.user_id, chat.chat_id)
        return rows[0] if rows else None

    # ------------------------------------------------------------ buttons
    async def _on_action(self, turn: Turn, action: str) -> None:
        ib = turn.inbound
        parts = action.split(":")
        if parts[0] == "lang" and len(parts) == 2:
            await self._set_lang(turn, parts[1])
            return
        if parts[0] != "g" or len(parts) != 3 or not parts[1].isdecimal():
            raise GameError("stale_button")
        row = await self.store.get_game(int(parts[1]))
        if row is None:
            raise GameError("stale_button")
        verb = parts[2]
        game, state = _loaded(row)
        _check_origin(ib, row, game, state, verb)
        if verb in ("again", "rematch") and game.follows_up:
            await self._follow_up(turn, row, verb)
        elif verb == "secret":
            text = game.secret_prompt(row.id, state, ib.actor.user_id)
            if text is None:
                raise GameError("no_secret_expected")
            if ib.text is not None:  # a modal's answer: the secret itself, typed privately
                await self._play(turn, row, game.secret_action(ib.text.strip()))
                return
            self._focus[(ib.actor.platform, ib.actor.user_id)] = row.id
            turn.messages.append(Message(ib.actor, text))
        else:
            pressed = game.button_action(state, verb, ib.actor.user_id, ib.actor.name, ib.text)
            if pressed is None:
                raise GameError("stale_button")
            await self._play(turn, row, pressed)

    # ------------------------------------------------------------ commands
    async def _on_command(self, turn: Turn, name: str, args: tuple[str, ...]) -> None:
        ib = turn.inbound
        cmd = BY_NAME.get(name)
        if cmd is None:
            raise GameError("unknown_command", command=name[:30])
        if cmd.group_only and ib.chat.private:
            raise GameError("group_only", command=name)
        handler = getattr(self, f"_cmd_{name}")
        await handler(turn, args)

    async def _cmd_help(self, turn: Turn, args: tuple[str, ...]) -> None:
        name = args[0].lstrip("/").lower() if args else ""
        if name in BY_NAME:
            text = Text(f"help.cmd.{name}")
        elif name:  # say that it is unknown, then what there is
            text = Text("help.unknown", {"command": name[:30], "help": Text("help.text")})
        else:
            text = Text("help.text")
        turn.messages.append(Message(turn.inbound.chat, text))

    async def _cmd_start(self, turn: Turn, args: tuple[str, ...]) -> None:
        turn.messages.append(Message(turn.inbound.chat, Text("help.welcome")))

    async def _cmd_practice(self, turn: Turn, args: tuple[str, ...]) -> None:
        opts = parse_code_options(args, allow_opponent=False, vocab=self.option_words)
        await self._new_practice(turn, CodeRules(opts.length, opts.repeats))

    async def _new_practice(self, turn: Turn, rules: CodeRules) -> None:
        ib = turn.inbound
        state, events = practice.new(rules, Player(ib.actor.user_id, ib.actor.name), self._ctx())
        await self._create(turn, "practice", state, events, [ib.actor.user_id])


    async def _cmd_duel(self, turn: Turn, args: tuple[str, ...]) -> None:
        ib = turn.inbound
        rest = _without_bot(args, self.option_words)
        if rest is not None:  # /duel bot [easy|strong], options in any order: see the solver block
            await self._solver_bot_duel(turn, rest)
            return
        opts = parse_code_options(args, allow_opponent=True, vocab=self.option_words)
        opponent = await self._resolve_player(ib, opts.opponent) if opts.opponent else None
        me = Player(ib.actor.user_id, ib.actor.name)
        state, events = duel.new(CodeRules(opts.length, opts.repeats), me, opponent, self._ctx())
        await self._create(turn, "duel", state, events, [me.user_id])

    async def _resolve_player(self, ib: Inbound, written: str) -> Player:
        """An opponent as written (see `_find_player`); never the actor."""
        found = await self._find_player(ib, written)
        if found.user_id == ib.actor.user_id:
            raise GameError("self_challenge")
        return found

    async def _find_player(self, ib: Inbound, written: str, for_scorer: bool = False,
                           known_only: bool = False) -> Player:
        """A mention, @name or name → one player of this platform: by name the users seen in this
        chat first, then anyone else of that name if there is only one; several are asked back
        (those of this chat listed by mention). Names compare as core.names.key. On the console a
        name is the player (unless `known_only`: statistics are only for users the store knows; or
        `for_scorer`: the scorer role goes only to a console player who has written, who can act)."""
        console = ib.chat.platform == "console"
        uid = mention_id(written)
        if uid is not None:
            known = await self.store.user_name(ib.chat.platform, uid)
            if known is None and for_scorer and console:  # a console "mention" is only typed text
                raise GameError("kegeln.unknown_user", name=uid[:40])
            return Player(uid, known or uid)
        name = names.clean(names.clean(written).lstrip("@"))
        if not name:
            raise GameError("empty_name")
        if console and not (known_only or for_scorer):
            return Player(name, name)
        here = await self.store.find_users(ib.chat.platform, ib.chat.chat_id, name)
        found = here or await self.store.find_users(ib.chat.platform, None, name, limit=2)
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

    async def _cmd_accept(self, turn: Turn, args: tuple[str, ...]) -> None:
        await self._answer(turn, "accept")

    async def _cmd_decline(self, turn: Turn, args: tuple[str, ...]) -> None:
        await self._answer(turn, "decline")

    async def _answer(self, turn: Turn, verb: str) -> None:
        """/accept or /decline: the newest challenge here aimed at the actor, else the newest open one."""
        ib = turn.inbound
        targeted, open_ = [], []
        for row in await self.store.chat_games(ib.chat.platform, ib.chat.chat_id):
            game, state = _loaded(row)
            answer = game.can_answer(state, ib.actor.user_id)
            if answer is Answer.TARGETED:
                targeted.append((row, game, state))
            elif answer is Answer.OPEN:
                open_.append((row, game, state))
        found = targeted or open_
        if not found:
            await self._answer_own(turn, verb)
            return
        row, game, state = found[-1]
        if verb == "accept" and targeted:
            await self._withdraw_twins(turn, game.pair(state))
        await self._play(turn, row, game.button_action(state, verb, ib.actor.user_id, ib.actor.name, None))

    async def _answer_own(self, turn: Turn, verb: str) -> None:
        """/accept or /decline with nothing aimed at the actor, who waits for an answer to their own
        challenge: /decline withdraws it; /accept of one's own rematch offer says that it stands."""
        ib = turn.inbound
        row = await self._my_game(ib.actor, ib.chat)
        game, state = _loaded(row) if row else (None, None)
        waiting = game.challenge(state) if game else None
        if row is None or game is None or waiting is None or waiting.offerer != ib.actor.user_id:
            raise GameError("no_challenge")
        if verb == "decline":
            await self._play(turn, row, game.cancel_action(state, ib.actor.user_id))
        elif waiting.offer and len(waiting.pair) == 2:
            raise GameError("rematch_offered", game=row.id, other=waiting.other_name(ib.actor.user_id))
        else:
            raise GameError("no_challenge")

    async def _cmd_guess(self, turn: Turn, args: tuple[str, ...]) -> None:
        ib = turn.inbound
        if not args:
            raise GameError("guess_needs_code")
        text = " ".join(args)  # a row may come as "r g b y k"
        if ib.chat.private and await self._awaiting_secret(ib.actor) and await self._my_game(ib.actor, ib.chat) is None:
            await self._secret_input(turn, await self._awaiting_secret(ib.actor), text)
            return
        row = await self._my_game(ib.actor, ib.chat)
        if row is None:
            raise GameError("no_game")
        await self._guess_or_secret(turn, row, text, False)
        if turn.outcome == "ignored":  # a game that takes no typed guess (Kegeln): a command is never met with silence
            raise GameError("not_now")

    async def _cmd_giveup(self, turn: Turn, args: tuple[str, ...]) -> None:
        await self._quit(turn, "giveup")

    async def _cmd_resign(self, turn: Turn, args: tuple[str, ...]) -> None:
        await self._quit(turn, "resign")

    async def _quit(self, turn: Turn, command: str) -> None:
        row = await self._my_game(turn.inbound.actor, turn.inbound.chat)
        if row is None:
            raise GameError("no_game")
        game, state = _loaded(row)
        action = game.quit_action(state, turn.inbound.actor.user_id, command)
        if action is None:
            raise GameError("wrong_quit", command=command)
        await self._play(turn, row, action)

    async def _cmd_cancel(self, turn: Turn, args: tuple[str, ...]) -> None:
        ib = turn.inbound
        if self._focus.pop((ib.actor.platform, ib.actor.user_id), None) is not None:
            turn.messages.append(Message(ib.chat, Text("cancel.focus")))
            return
        row = await self._my_game(ib.actor, ib.chat)
        if row is None:  # a challenge aimed at the actor: /cancel means no, like /decline
            with contextlib.suppress(GameError):
                await self._answer(turn, "decline")
                return
            raise GameError("nothing_to_cancel")
        game, state = _loaded(row)
        action = game.cancel_action(state, ib.actor.user_id)
        if action is None:
            raise GameError("nothing_to_cancel")
        await self._play(turn, row, action)

    async def _cmd_board(self, turn: Turn, args: tuple[str, ...]) -> None:
        ib = turn.inbound
        row = await self._my_game(ib.actor, ib.chat)
        if row is None:
            running = await self.store.chat_games(ib.chat.platform, ib.chat.chat_id)
            if not running:
                raise GameError("no_game")
            shown = running[:self.list_lines]
            lines = [f"#{r.id} {self._title(r)}" for r in shown]  # only the shown games are loaded
            if len(running) > len(shown):
                lines.append(await self._more(ib, len(running) - len(shown)))
            turn.messages.append(Message(ib.chat, Text("board.list", {"games": "\n".join(lines)})))
            return
        game, state = _loaded(row)
        turn.messages.append(await _pictured(game, game.board, row.id, state, self._chat_of(row)))

    def _title(self, row: GameRow) -> str:
        game, state = _loaded(row)
        players = [p.name for p in game.players(state)]
        shown = " – ".join(players[:4]) + (" – …" if len(players) > 4 else "")  # a lobby of 12: one line
        return f"{row.kind}: {shown}"

    async def _more(self, ib: Inbound, hidden: int) -> str:
        """The "… and K more" line that ends a capped list, in the reader's language."""
        return self.catalogs.render(Text("board.more", {"n": hidden}), await self.renderer.lang_for(ib.chat, ib))

    async def _capped(self, ib: Inbound, lines: list[str], limit: int, tail: int = 0) -> str:
        """At most `limit` lines: the first ones, "… and K more", and the last `tail` ones."""
        if limit <= 0 or len(lines) <= limit:
            return "\n".join(lines)
        hidden = len(lines) - limit
        head, back = lines[:limit - tail], lines[len(lines) - tail:] if tail else []
        return "\n".join([*head, await self._more(ib, hidden), *back])

    async def _cmd_rematch(self, turn: Turn, args: tuple[str, ...]) -> None:
        ib = turn.inbound
        row = await self.store.last_game(ib.chat.platform, ib.chat.chat_id, ib.actor.user_id)
        if row is not None and not row.over:
            game, state = _loaded(row)
            waiting = game.challenge(state)
            if waiting is not None and waiting.offer and await self._join_offer(turn, row.kind, waiting.pair):
                return
        if row is None or not row.over:
            raise GameError("no_rematch")
        await self._follow_up(turn, row, "rematch" if row.kind != "practice" else "again")

    async def _follow_up(self, turn: Turn, row: GameRow, verb: str) -> None:
        """A new game from a finished one: rematch (other starter, score kept) or play again. A match
        goes on from its newest game: an old game's 🔁 follows `next_game` to the last played one. A
        rematch the other player has offered already is accepted instead (never two offers for one
        pair); the offerer asking again is told that the offer stands."""
        game, old = _loaded(row)
        moved_on: GameRow | None = None
        for _ in range(1000):
            next_id = game.next_game(old)
            newer = await self.store.get_game(next_id) if next_id else None
            if newer is None or newer.kind != row.kind:
                break
            if not newer.over:
                moved_on = newer
                break
            newer_state = serial.load(game.state_type, newer.state)
            if not game.results(newer_state):  # that offer was declined/withdrawn/expired: not played
                break
            row, old = newer, newer_state
        lock = self._lock(row.id)  # both players' requests from one finished game wait for each other
        try:
            async with lock:
                if verb == "rematch" and await self._join_offer(turn, row.kind, game.pair(old)):
                    return
                if moved_on is not None:
                    raise GameError("rematch_moved_on", game=moved_on.id)
                await self._offer_follow_up(turn, row, game, old, verb)
        finally:
            if not lock.locked():
                self._locks.pop(row.id, None)

    async def _offer_follow_up(self, turn: Turn, row: GameRow, game: Game[Any], old: Any, verb: str) -> None:
        made = game.follow_up(old, verb, turn.inbound.actor.user_id, self._ctx())
        if made is None:
            raise GameError("no_rematch")
        state, events = made
        chat = self._chat_of(row)
        await self._create(turn, row.kind, state, events, [p.user_id for p in game.seated(state)], chat)
        made_row = await self.store.last_game(chat.platform, chat.chat_id, turn.inbound.actor.user_id)
        # link the finished game to its rematch (no result, no event)
        if made_row is not None and made_row.id > row.id and game.link_next(old, made_row.id):
            with contextlib.suppress(Conflict):  # pressed twice at once: the other press linked it
                await self.store.save_game(row, serial.dump(old), True, [], [], [], self.clock())

    async def _pending_offers(self, chat: Chat, kind: str, pair: frozenset[str]
                              ) -> list[tuple[GameRow, Game[Any], Any, Challenge]]:
        """The rematch offers of this pair waiting for an answer in the chat, oldest first."""
        found = []
        for r in await self.store.chat_games(chat.platform, chat.chat_id):
            if r.kind == kind:
                game, state = _loaded(r)
                waiting = game.challenge(state)
                if waiting is not None and waiting.offer and waiting.pair == pair:
                    found.append((r, game, state, waiting))
        return found

    async def _join_offer(self, turn: Turn, kind: str, pair: frozenset[str]) -> bool:
        """A rematch asked for while one of the pair waits: the other player's offer is accepted
        (the actor's own offers are withdrawn first, left by two requests at once); the actor's own
        offer stands (said as a refusal). False when none waits."""
        ib = turn.inbound
        me = ib.actor.user_id
        if me not in pair:
            return False
        offers = await self._pending_offers(ib.chat, kind, pair)
        theirs = [o for o in offers if o[3].offerer != me]
        if theirs:
            row, game, state, waiting = theirs[-1]
            await self._withdraw_twins(turn, waiting.pair)
            await self._play(turn, row, game.button_action(state, "accept", me, ib.actor.name, None))
            return True
        if offers:
            row, _game, _state, waiting = offers[-1]
            raise GameError("rematch_offered", game=row.id, other=waiting.other_name(me))
        return False

    async def _withdraw_twins(self, turn: Turn, pair: frozenset[str]) -> None:
        """Before the actor accepts a challenge: their own waiting challenge of the same pair (two
        offers made at once) is withdrawn, so accepting never meets "already in a game"."""
        ib = turn.inbound
        row = await self._my_game(ib.actor, ib.chat)
        if row is None:
            return
        game, state = _loaded(row)
        waiting = game.challenge(state)
        if waiting is not None and waiting.offerer == ib.actor.user_id and waiting.pair == pair:
            await self._play(turn, row, game.cancel_action(state, ib.actor.user_id))

    async def _cmd_stats(self, turn: Turn, args: tuple[str, ...]) -> None:
        if args and args[0].lower() == "logik":
            await self._logik_stats(turn, args[1:])
            return
        ib = turn.inbound
        uid, name = ib.actor.user_id, ib.actor.name
        if args:
            found = await self._find_player(ib, " ".join(args), known_only=True)
            uid, name = found.user_id, found.name
        here = await self.store.stats(ib.chat.platform, ib.chat.chat_id, uid)
        everywhere = await self.store.stats(ib.chat.platform, None, uid)
        bests = await self.store.practice_bests(ib.chat.platform, uid)

        lang = await self.renderer.lang_for(ib.chat, ib)  # rating and game names in the reader's language

        def lines(rows: list[Any]) -> Text | str:
            if not rows:
                return Text("stats.none")
            return "\n".join(self._stat_line(r, lang) for r in rows)

        # one best per (length, repeats), each line saying which: `4 digits, all digits different: 6 (Pro)`
        best_lines = [Text("stats.best_line", {
            "n": b.length, "repeats": repeats_text(b.repeats), "best": b.best,
            "rating": Text(f"rating.{practice.rating(CodeRules(b.length, b.repeats), b.best)}")}) for b in bests]
        turn.messages.append(Message(ib.chat, Text("stats.text", {
            "name": name, "here": lines(here), "everywhere": lines(everywhere),
            "bests": best_lines or Text("stats.none")})))

    _game_names: ClassVar[dict[str, str]] = {"practice": "game.practice", "duel": "game.duel", "logik": "game.logik",
                                             "words": "game.words", "kegeln": "game.kegeln"}

    def _stat_line(self, r: Any, lang: str) -> str:
        key = self._game_names.get(r.kind)
        kind = self.catalogs.render(Text(key), lang) if key else r.kind
        if r.kind == "practice":
            return f"{kind}: {r.games} · ✓{r.wins} · ✗{r.gave_up}" + (f" · ⏱{r.abandoned}" if r.abandoned else "")
        return f"{kind}: {r.games} · {r.wins}/{r.draws}/{r.losses}" + (f" · ⏱{r.abandoned}" if r.abandoned else "")

    async def _cmd_top(self, turn: Turn, args: tuple[str, ...]) -> None:
        ib = turn.inbound
        rows = await self.store.top(ib.chat.platform, ib.chat.chat_id, limit=self.list_lines)
        if not rows:
            turn.messages.append(Message(ib.chat, Text("top.empty")))
            return
        table = "\n".join(f"{i}. {r.name} — {r.wins}/{r.draws}/{r.losses} ({r.games})" for i, r in enumerate(rows, 1))
        turn.messages.append(Message(ib.chat, Text("top.text", {"table": table})))

    async def _cmd_lang(self, turn: Turn, args: tuple[str, ...]) -> None:
        if not args:
            buttons = tuple((Button(Text(f"lang.name.{code}"), f"lang:{code}"),) for code in self.catalogs.languages)
            turn.messages.append(Message(turn.inbound.chat, Text("lang.choose"), buttons))
            return
        await self._set_lang(turn, args[0])

    async def _set_lang(self, turn: Turn, code: str) -> None:
        lang = self.catalogs.supported(code)
        if lang is None:
            raise GameError("unknown_lang", code=code[:10], languages=", ".join(self.catalogs.languages))
        ib = turn.inbound
        await self.renderer.set_lang(ib, lang)
        turn.messages.append(Message(ib.chat, Text("lang.set", {"lang": Text(f"lang.name.{lang}")})))

    # ---- kegeln commands
    async def _cmd_kegeln(self, turn: Turn, args: tuple[str, ...]) -> None:
        """/kegeln high|low [2–6] NAME… (or `teams A B / C D`): whoever starts is the scorer."""
        ib = turn.inbound
        setup = kegeln.parse_setup(args, self.option_words)
        state, events = kegeln.new(setup, Player(ib.actor.user_id, ib.actor.name), self._ctx())
        await self._create(turn, "kegeln", state, events, [ib.actor.user_id])

    async def _kegeln_game(self, ib: Inbound) -> GameRow:
        """The scorer's own game here, else the newest running Kegeln game of the chat (the rules
        then refuse anyone who is neither its scorer nor a chat admin, naming the scorer)."""
        row = await self._my_game(ib.actor, ib.chat)
        if row is not None and row.kind == "kegeln":
            return row
        running = [r for r in await self.store.chat_games(ib.chat.platform, ib.chat.chat_id) if r.kind == "kegeln"]
        if not running:
            raise GameError("kegeln.no_game")
        return running[-1]

    async def _cmd_wurf(self, turn: Turn, args: tuple[str, ...]) -> None:
        """/wurf PINS [POSITION]: `/wurf 7`, `/wurf 7 H`, `/wurf 7 100`, `/wurf 7h`, `/wurf pumpe e`."""
        ib = turn.inbound
        words = " ".join(args).split()  # a slash command's option may hold several words
        if words and len(words[0]) > 1 and words[0][0].isdecimal() and not words[0].isdecimal():
            words[:1] = [words[0][0], words[0][1:]]  # "7h" → "7", "h"
        if not words:
            raise GameError("kegeln.needs_pins")
        row = await self._kegeln_game(ib)
        pins = "0" if words[0].lower() in kegeln.PUMPE_WORDS else words[0]
        position = None
        if len(words) > 1:
            position = self._kegeln_position(" ".join(words[1:]), await self.renderer.lang_for(ib.chat, ib))
        await self._play(turn, row, kegeln.Pins(pins, position, ib.actor.is_admin))

    async def _cmd_throw(self, turn: Turn, args: tuple[str, ...]) -> None:
        await self._cmd_wurf(turn, args)

    def _kegeln_position(self, word: str, lang: str) -> int:
        """A position as typed: 1/10/100…, or a localised word or letter (the chat's language first)."""
        w = word.strip().lower().replace(" ", "")
        if w.isdecimal() and w == "1" + "0" * (len(w) - 1):
            return len(w) - 1
        here = {p for p, key in enumerate(kegeln.WORD_KEYS)
                if w in (str(x).lower() for x in self.catalogs.catalogs.get(lang, {}).get(key, []))}
        anywhere = {p for p, key in enumerate(kegeln.WORD_KEYS) if w in self.catalogs.words(key)}
        found = here or anywhere
        if len(found) != 1:
            raise GameError("kegeln.unknown_position", given=word[:20])
        return found.pop()

    async def _cmd_undo(self, turn: Turn, args: tuple[str, ...]) -> None:
        row = await self._kegeln_game(turn.inbound)
        await self._play(turn, row, kegeln.Undo(turn.inbound.actor.is_admin))

    async def _cmd_scorer(self, turn: Turn, args: tuple[str, ...]) -> None:
        """/scorer NAME-or-mention hands the scorer role to another chat member (an admin: /scorer takes it)."""
        ib = turn.inbound
        row = await self._kegeln_game(ib)
        if not args:
            if not ib.actor.is_admin:
                raise GameError("kegeln.scorer_needs_name")
            to = Player(ib.actor.user_id, ib.actor.name)
        else:
            to = await self._find_player(ib, " ".join(args), for_scorer=True)
        await self._play(turn, row, kegeln.HandOver(to, ib.actor.is_admin))

    def _kegeln_job(self, row: GameRow, old: Any, new: Any, over: bool) -> Any:
        """A Kegeln move's own writes, in the move's transaction: the seat follows the scorer role;
        the final move records the game, its members' statistics and the throw log."""
        keep = new.scorer.user_id if new.scorer.user_id != old.scorer.user_id else None
        records = kegeln.member_records(new) if over else []
        if keep is None and not records:
            return None
        game = (new.mode.value, new.digits, new.teams, kegeln.winner_label(new), new.decided) if records else None
        throws = [(new.members[t.member].name, t.pins, t.position, kegeln.digit_value(new.mode, t.pins), t.at)
                  for t in new.throws] if records else []
        return self.store.kegeln_job(row.id, row.platform, row.chat_id, keep, game, records, throws, self.clock())

    async def _cmd_kegelstats(self, turn: Turn, args: tuple[str, ...]) -> None:
        """/kegelstats [NAME]: a member's statistics and Kegel-Schnitt chart, or the club table."""
        ib = turn.inbound
        series = await self.store.kegeln_series(ib.chat.platform, ib.chat.chat_id)
        if args:
            wanted = names.clean(" ".join(args))
            if not wanted:
                raise GameError("empty_name")
            line = await self.store.kegeln_member(ib.chat.platform, ib.chat.chat_id, wanted)
            if line is None:
                raise GameError("kegeln.unknown_member", name=wanted[:40])
            mine = [row for row in series if row.member == wanted.casefold()]
            lines, evenings = kegeln_chart.evening_series(mine, [line.name])  # the average per club evening
            image = await asyncio.to_thread(kegeln_chart.line_chart, lines, await self._day_labels(evenings, ib))
            turn.messages.append(Message(ib.chat, Text("kegeln.stats", {
                "name": line.name, "n": line.games, "wins_high": line.wins_high, "wins_low": line.wins_low,
                "nines": line.nines, "pumpen": line.pumpen, "schnitt": kegeln.schnitt(line.pins, line.throws),
                "throws": line.throws}), image=image))
            return
        club = await self.store.kegeln_club(ib.chat.platform, ib.chat.chat_id, limit=self.list_lines)
        if not club:
            turn.messages.append(Message(ib.chat, Text("kegeln.stats_empty")))
            return
        table = kegeln_report.club_table(club)
        hidden = len({row.member for row in series}) - len(club)  # every member has a line in the series
        if hidden > 0:
            table.append(Text("board.more", {"n": hidden}))
        lines, evenings = kegeln_chart.evening_series(series, [r.name for r in club])
        chart = await asyncio.to_thread(kegeln_chart.club_chart, lines, await self._day_labels(evenings, ib),
                                        [(r.wins_high, r.wins_low) for r in club])  # PNG drawn off the event loop
        turn.messages.append(Message(ib.chat, Text("kegeln.club", {"table": table}), image=chart))

    async def _day_labels(self, days: list[date], ib: Inbound) -> list[str]:
        """A chart's evenings as the chat reads dates (the picture is drawn once, for the chat)."""
        lang = await self.renderer.lang_for(ib.chat, ib)
        return [self.catalogs.day_month(d, lang) for d in days]

    async def _cmd_abend(self, turn: Turn, args: tuple[str, ...]) -> None:
        """/abend: tonight's games of this chat (finished within the last 12 hours of the App clock):
        the winner of each, and who threw the most 9s, the most Pumpen and the best Kegel-Schnitt."""
        ib = turn.inbound
        since = self.clock() - kegeln_report.EVENING
        games = await self.store.kegeln_games_since(ib.chat.platform, ib.chat.chat_id, since)
        if not games:
            turn.messages.append(Message(ib.chat, Text("kegeln.abend.empty")))
            return
        members = await self.store.kegeln_members_since(ib.chat.platform, ib.chat.chat_id, since)
        lines, nines, pumpen, schnitt = kegeln_report.evening(games, members)
        lang = await self.renderer.lang_for(ib.chat, ib)
        rendered = "\n".join(self.catalogs.render(line, lang) for line in lines)
        # the evening's day: where the 12-hour window starts (an evening past midnight keeps its date);
        # shown in the reader's medium date format by the renderer
        tonight = datetime.fromtimestamp(since, UTC).date()
        turn.messages.append(Message(ib.chat, Text("kegeln.abend.text", {
            "head": Text("kegeln.abend.head", {"n": len(games), "date": tonight}),
            "games": rendered,
            **kegeln_report.leader_texts(nines, pumpen, schnitt)})))

    async def _cmd_kegelexport(self, turn: Turn, args: tuple[str, ...]) -> None:
        """/kegelexport: the club's throw log as one CSV file; the member table in the message text."""
        ib = turn.inbound
        log_rows = await self.store.kegeln_throw_log(ib.chat.platform, ib.chat.chat_id)
        if not log_rows:
            turn.messages.append(Message(ib.chat, Text("kegeln.stats_empty")))
            return
        club = await self.store.kegeln_club(ib.chat.platform, ib.chat.chat_id, limit=self.list_lines)
        table = kegeln_report.club_table(club)
        hidden = len({r.name.casefold() for r in log_rows}) - len(club)  # the file holds every member
        if hidden > 0:
            table.append(Text("board.more", {"n": hidden}))
        data = kegeln_report.throw_log_csv(log_rows)
        turn.messages.append(Message(ib.chat, Text("kegeln.export", {
            "n": len({r.game_id for r in log_rows}), "throws": len(log_rows), "table": table}),
            file=(kegeln_report.file_name(ib.chat.chat_id), data)))

    # ---- words commands
    async def _cmd_words(self, turn: Turn, args: tuple[str, ...]) -> None:
        """/words [solo] [options]: a Бык-корова lobby in a group, or solo practice against the bot."""
        ib = turn.inbound
        solo, opts = words.parse_options(args, await self.renderer.lang_for(ib.chat, ib), self.option_words)
        me = Player(ib.actor.user_id, ib.actor.name)
        if solo:
            state, events = words.new_solo(opts, me, self._ctx())
        elif ib.chat.private:
            raise GameError("group_only", command="words")
        else:
            state, events = words.new(opts, me, self._ctx())
        await self._create(turn, "words", state, events, [me.user_id])

    async def _cmd_join(self, turn: Turn, args: tuple[str, ...]) -> None:
        """/join: the newest lobby in this chat that takes players."""
        ib = turn.inbound
        for row in reversed(await self.store.chat_games(ib.chat.platform, ib.chat.chat_id)):
            game, state = _loaded(row)
            action = game.join_action(state, ib.actor.user_id, ib.actor.name)
            if action is not None:
                await self._play(turn, row, action)
                return
        raise GameError("words.no_lobby")

    async def _cmd_leave(self, turn: Turn, args: tuple[str, ...]) -> None:
        row = await self._my_game(turn.inbound.actor, turn.inbound.chat)
        if row is None:
            raise GameError("no_game")
        game, state = _loaded(row)
        action = game.leave_action(state, turn.inbound.actor.user_id)
        if action is None:
            raise GameError("no_game")
        await self._play(turn, row, action)

    async def _cmd_begin(self, turn: Turn, args: tuple[str, ...]) -> None:
        ib = turn.inbound
        row = await self._my_game(ib.actor, ib.chat)
        if row is None or row.kind != "words":
            for other in reversed(await self.store.chat_games(ib.chat.platform, ib.chat.chat_id)):
                _mod, state = _loaded(other)
                if other.kind == "words" and words.join_action(state, ib.actor.user_id, ib.actor.name):
                    raise GameError("words.not_in_lobby", name=state.opener.name)  # whose lobby it is
            raise GameError("words.no_lobby")
        await self._play(turn, row, words.Begin())

    # ---- logik commands
    async def _cmd_logik(self, turn: Turn, args: tuple[str, ...]) -> None:
        """/logik [opponent] [rows N]: a Logik challenge; the challenger plays white."""
        ib = turn.inbound
        rest = _without_bot(args, self.option_words)
        if rest is not None:  # /logik bot [easy|strong] [rows N], in any order: see the solver block
            await self._solver_bot_logik(turn, rest)
            return
        written, rows = logik.parse_options(args, self.option_words)
        opponent = await self._resolve_player(ib, written) if written else None
        me = Player(ib.actor.user_id, ib.actor.name)
        state, events = logik.new(me, opponent, rows, self._logik_letters(), self._ctx())
        await self._create(turn, "logik", state, events, [me.user_id])

    def _logik_letters(self) -> dict[str, str]:
        """Colour initial → colour digit, from every catalog; a letter two languages disagree on is left out."""
        found: dict[str, set[str]] = {}
        for cat in self.catalogs.catalogs.values():
            for colour in logik.COLOURS:
                initial = str(cat.get(colour.initial_key, "")).strip().lower()
                if len(initial) == 1:
                    found.setdefault(initial, set()).add(str(colour.number))
        return {letter: digits.pop() for letter, digits in sorted(found.items()) if len(digits) == 1}

    async def _logik_stats(self, turn: Turn, args: tuple[str, ...]) -> None:
        """/stats logik [player]: white wins, black wins and draws here and everywhere, and a record."""
        ib = turn.inbound
        uid, name = ib.actor.user_id, ib.actor.name
        if args:
            found = await self._find_player(ib, " ".join(args), known_only=True)
            uid, name = found.user_id, found.name

        def sides(white: int, black: int, draws: int, abandoned: int) -> Text:
            n = white + black + draws  # decided games; the timed-out ones are counted apart
            if n == 0:
                return Text("logik.stats_timed_out", {"n": abandoned}) if abandoned else Text("logik.stats_none")
            return Text("logik.stats_sides", {"n": n, "white": white, "black": black, "draws": draws,
                                              "wp": 100 * white / n, "bp": 100 * black / n,
                                              "dp": 100 * draws / n, "abandoned": abandoned})

        here = await self.store.logik_sides(ib.chat.platform, ib.chat.chat_id)
        everywhere = await self.store.logik_sides(ib.chat.platform, None)
        record = await self.store.logik_record(ib.chat.platform, None, uid)
        ww, wd, wl, wt = record.get("white", (0, 0, 0, 0))
        bw, bd, bl, bt = record.get("black", (0, 0, 0, 0))
        mine = Text("logik.stats_record", {"ww": ww, "wd": wd, "wl": wl, "bw": bw, "bd": bd, "bl": bl,
                                           "abandoned": wt + bt})
        turn.messages.append(Message(ib.chat, Text("logik.stats", {
            "here": sides(*here), "everywhere": sides(*everywhere), "name": name, "record": mine})))

    # ---- solver commands
    solver_cache: str | None = str(Path(__file__).resolve().parent.parent / "data" / "solver-cache")
    _solver_levels: ClassVar[dict[str, str]] = {EASY: "solver.level_easy", STRONG: "solver.level_strong"}

    async def _think(self, key: tuple[Any, ...], spec: Spec, fn: Callable[..., Any], *args: Any) -> Any:
        """`fn(solver, *args)` with the shared solver of the code space, in a worker process (the
        worker reads or builds its opening book); the same `key` (position) in flight is computed once."""
        return await self.thinker.run(key, solver_book.with_solver, spec, self.solver_cache, fn, *args)

    def _hint(self, state: practice.State) -> Any:
        position = tuple((a.code, a.a, a.b) for a in state.attempts)
        spec = solver_games.spec_of(state)
        return self._think(("hint", spec.name, position), spec, solver_games.hint, state)

    async def _cmd_hint(self, turn: Turn, args: tuple[str, ...]) -> None:
        """/hint in a practice game: codes still possible and a strong next guess; the game becomes assisted."""
        ib = turn.inbound
        row = await self._my_game(ib.actor, ib.chat)
        if row is not None and row.kind == "words":
            await self._words_hint(turn, row)
            return
        if row is None or row.kind != "practice":
            raise GameError("solver.hint_no_game")
        for _ in range(5):
            state = serial.load(practice.State, row.state)
            left, guess = await self._hint(state)  # a guess that comes in meanwhile: think again
            try:
                await self._run(turn, row, Move(_hint_step(left, guess), "hint", same_version=True))
            except Moved:
                fresh = await self.store.get_game(row.id)
                if fresh is None or fresh.over:
                    raise GameError("solver.hint_no_game") from None
                row = fresh
                continue
            break
        else:
            raise GameError("busy")
        first = not state.assisted  # the presenter says nothing of a hint: it is said here
        turn.outcome = f"hint:{row.id}"
        turn.messages.append(Message(ib.chat, Text("solver.hint", {"name": ib.actor.name, "n": left,
                                                                  "code": guess})))
        if first:
            turn.messages.append(Message(ib.chat, Text("solver.assisted")))

    async def _words_hint(self, turn: Turn, row: GameRow) -> None:
        """/hint in /words solo practice: how many of the bot's words still fit, and a strong next guess.
        Solo practice is not recorded, so the game itself does not change."""
        state = serial.load(words.State, row.state)
        if not solver_games.word_hint_allowed(state):
            raise GameError("solver.hint_no_game")
        opts = state.opts
        position = tuple((t.word, t.bulls, t.cows, t.answer.value) for t in state.tries)
        left, word = await self.thinker.run(("words", opts.lang, opts.length, opts.counts, position),
                                            solver_book.word_hint, opts.lang, opts.length, opts.counts, state)
        turn.outcome = f"hint:{row.id}"
        turn.messages.append(Message(turn.inbound.chat, Text("solver.words_hint", {
            "name": turn.inbound.actor.name, "n": left, "word": word})))

    async def _cmd_analyse(self, turn: Turn, args: tuple[str, ...]) -> None:
        """/analyse: the player's last finished practice game or duel in this chat, guess by guess."""
        ib = turn.inbound
        row = await self.store.last_game(ib.chat.platform, ib.chat.chat_id, ib.actor.user_id)
        if row is None or not row.over or row.kind not in ("practice", "duel", "logik"):
            raise GameError("solver.analyse_none")
        _mod, state = _loaded(row)
        spec, history, secret = solver_games.analysis_input(row.kind, state, ib.actor.user_id)
        result = await self._think(("analyse", spec.name, tuple(history), secret), spec, analyse, history, secret)
        rows = []
        for st in result.steps:
            marks = [f"#{j}" for j in st.contradicts]
            warn = " ⚠ " + " ".join(marks[:5] + (["…"] if len(marks) > 5 else [])) if marks else ""
            fb = f"{st.a}⚫ {st.b}⚪" if row.kind == "logik" else f"{st.a}A{st.b}B"
            rows.append(f"#{st.n} {st.code} → {fb} · {st.before} → {st.after}{warn}")
        key = "solver.analysis_contradictions" if any(st.contradicts for st in result.steps) else "solver.analysis"
        turn.messages.append(Message(ib.chat, Text(key, {
            "name": ib.actor.name, "game": row.id, "rows": await self._capped(ib, rows, ANALYSE_LINES, tail=5),
            "n": len(history),
            "solver": result.solver_guesses, "line": " ".join(result.solver_line) or "—"})))

    async def _solver_bot_duel(self, turn: Turn, args: tuple[str, ...]) -> None:
        """/duel bot [easy|strong] [3|4|5] [repeats]: the bot accepts at once and sets a random secret."""
        ib = turn.inbound
        level, rest = solver_games.parse_level(args, self.option_words)
        opts = parse_code_options(rest, allow_opponent=False, vocab=self.option_words)
        lang = await self.renderer.lang_for(ib.chat, ib)
        bot_name = self.catalogs.render(Text("solver.bot_name"), lang)
        me = Player(ib.actor.user_id, ib.actor.name)
        state, events = solver_games.new_bot_duel(CodeRules(opts.length, opts.repeats), me, bot_name, self._ctx())
        intro = Message(ib.chat, Text("solver.bot_duel", {"name": me.name, "bot": bot_name,
                                                          "level": Text(self._solver_levels[level])}))
        at = len(turn.messages)
        shown = [e for e in events if e.type != "accepted"]  # the intro says it: no "I wrote to you both"
        await self._create(turn, "duel", state, [Event("bot", {"level": level}), *shown], [me.user_id])
        turn.messages.insert(at, intro)

    async def _solver_bot_logik(self, turn: Turn, args: tuple[str, ...]) -> None:
        """/logik bot [easy|strong] [rows N]: Logik against the bot; you play white."""
        ib = turn.inbound
        level, rest = solver_games.parse_level(args, self.option_words)
        written, rows = logik.parse_options(rest, self.option_words)
        if written is not None:
            raise GameError("bad_option", option=written[:30])
        lang = await self.renderer.lang_for(ib.chat, ib)
        bot_name = self.catalogs.render(Text("solver.bot_name"), lang)
        me = Player(ib.actor.user_id, ib.actor.name)
        state, events = solver_games.new_bot_logik(me, bot_name, rows, self._logik_letters(), self._ctx())
        intro = Message(ib.chat, Text("solver.bot_duel", {"name": me.name, "bot": bot_name,
                                                          "level": Text(self._solver_levels[level])}))
        at = len(turn.messages)
        shown = [e for e in events if e.type != "accepted"]
        await self._create(turn, "logik", state, [Event("bot", {"level": level}), *shown], [me.user_id])
        turn.messages.insert(at, intro)

    @staticmethod
    def _computer_in(row: GameRow) -> bool:
        """Whether a stored two-player game seats the bot (read from the JSON, no full load)."""
        raw = row.state
        return row.kind in solver_games.COMPUTER_KINDS and any(
            isinstance(raw.get(k), dict) and raw[k].get("user_id") == solver_games.BOT
            for k in ("challenger", "opponent"))

    async def _solver_after_move(self, turn: Turn, game_id: int) -> None:
        """The computer opponent (1A2B duel or Logik) answers in the same handle call: it accepts a
        rematch, sets its secret, and guesses (thinking in a worker thread) while the duel's turn is its
        own, or, in Logik, as soon as a round waits for its row. Its private messages go nowhere."""
        human_outcome, ended = turn.outcome, False
        for _ in range(6):
            row = await self.store.get_game(game_id)
            if row is None or row.over:
                break
            game = GAMES[row.kind]
            state = serial.load(game.state_type, row.state)
            action = solver_games.bot_action(state)
            if action is None:
                break
            human = next(p.user_id for p in game.players(state) if p.user_id != solver_games.BOT)
            level = await self.store.solver_bot_level(row.platform, row.chat_id, row.id, human) or STRONG
            extra = [Event("bot", {"level": level})] if isinstance(action, solver_games.Accept) else []
            if action == "guess":
                rng = random.Random(self.rng.random())
                try:
                    action = await self._think(("bot", row.id, row.version), solver_games.spec_of(state),
                                               solver_games.bot_guess, state, level, rng)
                except GameError as err:  # busy: the move waits for the human's next message or a restart
                    turn.messages.append(Message(self._chat_of(row), Text(f"error.{err.code}", err.params)))
                    break
                except Exception:  # the human's move stands; their next message or a restart tries again
                    log.exception("the bot could not think in game %d", game_id)
                    break
            try:
                await self._run(turn, row, Move(_bot_step(action), "bot", extra=tuple(extra), same_version=True,
                                                computer=True))
            except Moved:
                continue  # the human moved meanwhile: look again
            else:
                ended = turn.outcome.endswith(":over")
        turn.messages = [m for m in turn.messages
                         if not (isinstance(m.to, Actor) and m.to.user_id == solver_games.BOT)]
        if turn.outcome != human_outcome:
            turn.outcome = f"{human_outcome}+bot"
        if ended:
            self._locks.pop(game_id, None)

    async def _solver_pending(self, turn: Turn, row: GameRow) -> None:
        """Before a human's move in a game against the bot: a bot move left pending (its thinking
        refused as busy, or the process stopped while it thought) is made first."""
        game = GAMES[row.kind]
        if solver_games.bot_action(serial.load(game.state_type, row.state)) is not None:
            await self._solver_after_move(turn, row.id)

    async def resume(self) -> list[Outbound]:
        """At start: running games against the bot in which the bot is to act (the process stopped
        while it thought) get the bot's move now. Returns the messages for those games' chats."""
        outbounds: list[Outbound] = []
        for row in await self.store.idle_games(self.clock() + 1):  # every running game
            if not self._computer_in(row):
                continue
            system = Inbound(Actor(row.platform, "", ""), self._chat_of(row))
            turn = Turn(system)
            try:
                await self._solver_pending(turn, row)
            except Exception:  # one broken game must not keep the bot from starting
                log.exception("could not resume the bot's move in game %d", row.id)
                continue
            if turn.messages:
                log.info("%s chat=%s game %d: the bot's pending move resumed", row.platform, row.chat_id, row.id)
            outbounds.extend((await self.renderer.response(system, turn.messages, None, False)).messages)
        return outbounds

    # ------------------------------------------------------------ moves
    def _chat_of(self, row: GameRow) -> Chat:
        return Chat(row.platform, row.chat_id, row.private)

    def _lock(self, game_id: int) -> asyncio.Lock:
        return self._locks.setdefault(game_id, asyncio.Lock())

    async def _create(self, turn: Turn, kind: str, state: Any, events: list[Event], seats: list[str],
                      chat: Chat | None = None) -> None:
        chat = chat or turn.inbound.chat
        try:
            game_id = await self.store.create_game(chat.platform, chat.chat_id, chat.private, kind,
                                                   serial.dump(state), seats, events, self.clock(), turn.unsaved_seen,
                                                   creator=turn.inbound.actor.user_id,
                                                   max_chat=self.max_games_chat, max_user=self.max_games_user)
            turn.seen_stored = True
        except SeatTaken as taken:
            raise _seat_error(turn, taken) from None
        except TooManyGames as bound:  # counted in the creating transaction: concurrent creations cannot pass it
            if bound.scope == "user":
                raise GameError("too_many_games_user", n=bound.limit) from None
            raise GameError("too_many_games_chat", n=bound.limit) from None
        turn.outcome = f"created:{kind}:{game_id}"
        game = GAMES[kind]
        turn.messages.extend(await _pictured(game, game.present, game_id, state, events, chat))
        if kind in solver_games.COMPUTER_KINDS and solver_games.has_bot(state):
            await self._solver_after_move(turn, game_id)

    async def _play(self, turn: Turn, row: GameRow, action: object) -> None:
        """A human's move: `action` by the inbound's actor, through the move runner."""
        actor = turn.inbound.actor.user_id
        await self._run(turn, row, Move(_acting(action, actor), type(action).__name__.lower()))

    async def _run(self, turn: Turn, row: GameRow, move: Move) -> None:
        """The one move runner, for every move (a human's, the bot's, a hint): under the game's
        lock, with compare-and-set retries for other processes, a lazy timer's move first, one
        transaction for the state, seats, events and results, and the after-move hooks (the bot's
        answer). `move.same_version`: the move was decided on `row` (the bot's thought, a hint) and
        is dropped (`Moved`) when another move got in first."""
        human = not move.computer
        if human and self._computer_in(row):
            await self._solver_pending(turn, row)
        async with self._lock(row.id):
            # First try the row the router has just read (one read less per move); if another move
            # got in between, the version compare-and-set or the rules notice, and we read again.
            optimistic: GameRow | None = row
            for _ in range(5):
                fresh = optimistic or await self.store.get_game(row.id)
                if move.same_version and (fresh is None or fresh.over or fresh.version != row.version):
                    raise Moved()
                if fresh is None or fresh.over:
                    raise GameError("game_over")
                game = GAMES[fresh.kind]
                pending = game.due_action(serial.load(game.state_type, fresh.state), self.clock())
                try:
                    if pending is not None:  # a lazy timer ran out (a guesser's time): that happens first
                        await self._apply(turn, fresh, Move(_acting(pending, None), type(pending).__name__.lower()))
                        optimistic = None
                        continue
                    await self._apply(turn, fresh, move)
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
            self._locks.pop(row.id, None)
        elif human and self._computer_in(row):
            await self._solver_after_move(turn, row.id)

    async def _apply(self, turn: Turn, row: GameRow, move: Move) -> None:
        game = GAMES[row.kind]
        ctx = self._ctx()
        state = serial.load(game.state_type, row.state)
        new, events = move.step(game, state, ctx)
        events = [*move.extra, *events]
        before = {p.user_id for p in game.seated(state)}
        over = game.is_over(new)
        # the move that ends a game seats nobody new (a declined challenge never seats the one who
        # declined: they may be waiting in a game of their own here); the bot never takes a seat (it
        # plays in any number of games in one chat)
        after = {p.user_id for p in game.seated(new)}
        seats = [] if over else [u for u in after if u not in before and u != solver_games.BOT]
        released = [] if over else sorted(before - after)  # /leave
        results = self._results(row.kind, new) if over else []
        extra = self._kegeln_job(row, state, new, over) if row.kind == "kegeln" else None
        try:
            await self.store.save_game(row, serial.dump(new), over, seats, events, results, ctx.now, turn.unsaved_seen,
                                       extra=extra, released=released)
            turn.seen_stored = True
        except SeatTaken as taken:
            raise _seat_error(turn, taken) from None
        turn.outcome = f"{move.label}:{row.id}" + (":over" if over else "")
        chat = self._chat_of(row)
        turn.messages.extend(await _pictured(game, game.present, row.id, new, events, chat))
        if over and row.kind == "practice" and new.outcome == "cracked" and not new.assisted:
            await self._report_best(turn, new, chat)

    def _results(self, kind: str, state: Any) -> list[NewResult]:
        rules = getattr(state, "rules", None)
        return [NewResult(r.user_id, r.name, r.outcome, r.attempts,
                          rules.length if rules else None, rules.repeats if rules else None, r.rating, r.side)
                for r in GAMES[kind].results(state)]

    async def _report_best(self, turn: Turn, state: practice.State, chat: Chat) -> None:
        n = len(state.attempts)
        for b in await self.store.practice_bests(chat.platform, state.player.user_id):
            if (b.length, b.repeats) == (state.rules.length, state.rules.repeats):
                key = "practice.new_best" if b.best == n else "practice.best"
                turn.messages.append(Message(chat, Text(key, {"name": state.player.name, "best": b.best,
                                                             "length": b.length, "repeats": repeats_text(b.repeats)})))

    # ------------------------------------------------------------ time
    async def sweep(self) -> list[Outbound]:
        """Time out games idle for longer than the configured timeout; returns what to announce."""
        cutoff = self.clock() - self.idle_timeout
        outbounds: list[Outbound] = []
        for row in await self.store.idle_games(cutoff):
            game = GAMES[row.kind]
            system = Inbound(Actor(row.platform, "", ""), self._chat_of(row))
            turn = Turn(system)
            async with self._lock(row.id):
                fresh = await self.store.get_game(row.id)
                if fresh is None or fresh.over:
                    continue
                if game.last_activity(serial.load(game.state_type, fresh.state)) >= cutoff:
                    continue
                try:
                    await self._apply(turn, fresh, Move(_acting(game.timeout_action(), None), "timeout"))
                except (GameError, Conflict):
                    continue
            self._locks.pop(row.id, None)
            log.info("%s chat=%s game %d timed out", row.platform, row.chat_id, row.id)
            outbounds.extend((await self.renderer.response(system, turn.messages, None, False)).messages)
        return outbounds


def open_store(db: str, synchronous: str = "FULL") -> Store:
    """The store for a DATABASE_URL (`postgresql://…`) or a SQLite database file."""
    if is_postgres(db):
        from bot.storage.postgres import PostgresStore  # asyncpg is only needed for PostgreSQL

        return PostgresStore(db)
    return SqliteStore(db, synchronous=synchronous)


def is_postgres(db: str) -> bool:
    return db.startswith(("postgresql://", "postgres://"))


def _loaded(row: GameRow) -> tuple[Game[Any], Any]:
    """A stored game's game and its state object."""
    game = GAMES[row.kind]
    return game, serial.load(game.state_type, row.state)


PRIVATE_VERBS = frozenset({"secret", "random"})  # what a player is asked privately: their own secret


def _check_origin(ib: Inbound, row: GameRow, game: Game[Any], state: Any, verb: str) -> None:
    """The one rule for every button, deep link and modal that names a game: it acts from the game's
    own chat; from a private chat only to answer what that player is asked privately (their own
    secret, while they are seated and the game waits for it). Anything else names a game elsewhere."""
    if row.platform != ib.chat.platform or row.platform != ib.actor.platform:
        raise GameError("wrong_chat")
    if row.chat_id == ib.chat.chat_id:
        return
    if ib.chat.private and verb in PRIVATE_VERBS and game.secret_prompt(row.id, state, ib.actor.user_id) is not None:
        return
    raise GameError("wrong_chat")


async def _pictured(game: Game[Any], present: Callable[..., Any], *args: Any) -> Any:
    """A game's messages; where they may carry a picture (`Game.pictured`), drawn and encoded in a
    thread, so that the event loop answers other chats meanwhile (Pillow works in C, mostly without the GIL)."""
    if game.pictured:
        return await asyncio.to_thread(present, *args)
    return present(*args)


Step = Callable[[Game[Any], Any, Ctx], tuple[Any, list[Event]]]


def _acting(action: object, actor: str | None) -> Step:
    """The step of a move by a player (or, with no actor, by the game's timer)."""
    return lambda game, state, ctx: game.apply(state, action, actor, ctx)


def _bot_step(action: object) -> Step:
    """The bot's move (core/solver/games.py: its disguise is drawn with its secret)."""
    return lambda game, state, ctx: solver_games.bot_apply(state, action, ctx)


def _hint_step(left: int, guess: str) -> Step:
    """A hint given in practice: the game becomes assisted."""
    return lambda game, state, ctx: solver_games.take_hint(state, left, guess, ctx)


def _seat_error(turn: Turn, taken: SeatTaken) -> GameError:
    """One game per player per chat: say whose seat is taken."""
    if taken.user_id == turn.inbound.actor.user_id:
        return GameError("already_in_game")
    return GameError("other_in_game")


def _without_bot(args: tuple[str, ...], vocab: dict[str, str]) -> tuple[str, ...] | None:
    """The other options when `bot` (in any language) is among them (in any place), else None: a game
    against the computer."""
    words = tuple(w for a in args for w in a.split())  # a platform option may hold several words
    said = [meaning(w, vocab, ("bot",)) for w in words]
    if "bot" not in said:
        return None
    i = said.index("bot")
    return words[:i] + words[i + 1:]


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
