"""The application service: routes an Inbound to its game, runs the move under the game's
lock, persists state + events in one transaction, and returns localised Outbounds."""

from __future__ import annotations

import asyncio
import logging
import random
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from bot.commands import BY_NAME, COMMANDS, mention_id, parse_code_options
from bot.i18n import Catalogs
from bot.render import Renderer
from bot.storage.base import Conflict, GameRow, NewResult, SeatTaken
from bot.storage.sqlite import SqliteStore
from core import serial
from core.codes import CodeRules, looks_like_code
from core.errors import GameError
from core.games import duel, practice
from core.games.base import Ctx, Event, GameKind, Player
from core.messages import Actor, Button, Chat, CommandInfo, Inbound, Message, Response, Text

log = logging.getLogger("bot.app")

GAMES: dict[str, GameKind] = {"practice": practice, "duel": duel}  # type: ignore[dict-item]
RANDOM_WORDS = {"random", "zufall", "zufallscode", "случайно", "случаен", "slump"}


@dataclass
class Turn:
    """What handling one inbound has produced so far."""

    inbound: Inbound
    messages: list[Message] = field(default_factory=list)
    notice: Text | None = None
    delete_inbound: bool = False
    outcome: str = "ok"

    @property
    def seen(self) -> tuple[str, str] | None:
        ev = self.inbound.event_id
        return (self.inbound.actor.platform, ev) if ev else None


class App:
    def __init__(self, store: SqliteStore, catalogs: Catalogs, *, seed: int | None = None,
                 default_lang: str = "en", idle_timeout: float = 24 * 3600.0,
                 clock: Callable[[], float] = time.time) -> None:
        self.store = store
        self.catalogs = catalogs
        self.renderer = Renderer(store, catalogs, default_lang)
        self.rng = random.Random(seed)
        self.idle_timeout = idle_timeout
        self.clock = clock
        self._locks: dict[int, asyncio.Lock] = {}
        self._users: dict[tuple[str, str], tuple[str, str | None]] = {}
        self._focus: dict[tuple[str, str], int] = {}  # private input goes to this game

    @classmethod
    async def open(cls, db_path: str, seed: int | None = None, default_lang: str = "en",
                   idle_timeout: float = 24 * 3600.0, synchronous: str = "FULL",
                   clock: Callable[[], float] = time.time) -> App:
        store = SqliteStore(db_path, synchronous=synchronous)
        await store.open()
        return cls(store, Catalogs(), seed=seed, default_lang=default_lang,
                   idle_timeout=idle_timeout, clock=clock)

    async def close(self) -> None:
        await self.store.close()

    def command_menu(self) -> dict[str, list[CommandInfo]]:
        """Every language's command menu, for setMyCommands / slash command localisations."""
        return {lang: [CommandInfo(c.name, self.catalogs.render(Text(f"cmd.{c.name}"), lang), c.options)
                       for c in COMMANDS if not c.hidden]
                for lang in self.catalogs.languages}

    # ------------------------------------------------------------ entry
    async def handle(self, inbound: Inbound) -> Response:
        started = time.perf_counter()
        turn = Turn(inbound)
        try:
            if turn.seen and await self.store.was_seen(*turn.seen):
                turn.outcome = "duplicate"
                return Response()
            await self._remember(inbound.actor)
            if inbound.action:
                await self._on_action(turn, inbound.action)
            elif inbound.command:
                await self._on_command(turn, inbound.command.lower(), inbound.args)
            elif inbound.text:
                await self._on_text(turn, inbound.text)
        except GameError as err:
            turn.outcome = f"refused:{err.code}"
            self._refuse(turn, err)
        except Exception:
            turn.outcome = "crashed"
            log.exception("failed to handle %s in %s:%s from %s", _what(inbound), inbound.chat.platform,
                          inbound.chat.chat_id, inbound.actor.user_id)
            turn.messages = [Message(inbound.chat, Text("error.internal"))]
        finally:
            log.info("%s chat=%s user=%s %s -> %s (%.1f ms)", inbound.chat.platform, inbound.chat.chat_id,
                     inbound.actor.user_id, _what(inbound), turn.outcome,
                     (time.perf_counter() - started) * 1000)
        return await self.renderer.response(turn.inbound, turn.messages, turn.notice, turn.delete_inbound)

    def _refuse(self, turn: Turn, err: GameError) -> None:
        text = Text(f"error.{err.code}", err.params)
        ib = turn.inbound
        if ib.action:
            turn.notice = text
        elif ib.chat.private:
            turn.messages.append(Message(ib.chat, text))
        else:
            turn.messages.append(Message(ib.chat, Text("reply.to", {"name": ib.actor.name, "text": text})))

    async def _remember(self, actor: Actor) -> None:
        key = (actor.platform, actor.user_id)
        if self._users.get(key) != (actor.name, actor.locale):
            self._users[key] = (actor.name, actor.locale)
            await self.store.save_user(actor.platform, actor.user_id, actor.name, actor.locale)

    def _ctx(self) -> Ctx:
        return Ctx(self.clock(), self.rng)

    # ------------------------------------------------------------ plain text
    async def _on_text(self, turn: Turn, raw: str) -> None:
        ib = turn.inbound
        text = raw.strip()
        is_random = text.lower() in RANDOM_WORDS
        if not (looks_like_code(text) or is_random):
            if ib.chat.private:
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

    async def _guess_or_secret(self, turn: Turn, row: GameRow, text: str, is_random: bool) -> None:
        ib = turn.inbound
        mod, state = _loaded(row)
        prompt = getattr(mod, "secret_prompt", None)
        if prompt and prompt(row.id, state, ib.actor.user_id) is not None:
            if is_random:  # revealing nothing, so it is taken even in the open
                await self._play(turn, row, mod.secret_action(None))
                return
            # typed in the open where a secret was expected: never echo it
            turn.delete_inbound = True
            turn.messages.append(Message(ib.chat, Text("private.secret_in_group", {"name": ib.actor.name})))
            return
        text_action = getattr(mod, "text_action", None)
        if is_random or text_action is None:
            turn.outcome = "ignored"
            return
        await self._play(turn, row, text_action(state, ib.actor.user_id, text))

    async def _awaiting_secret(self, actor: Actor) -> list[GameRow]:
        """The user's games (in any chat) that wait for their private input."""
        waiting = []
        for row in await self.store.seated_games(actor.platform, actor.user_id):
            mod, state = _loaded(row)
            prompt = getattr(mod, "secret_prompt", None)
            if prompt and prompt(row.id, state, actor.user_id) is not None:
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
        await self._play(turn, chosen[0], GAMES[chosen[0].kind].secret_action(code))  # type: ignore[attr-defined]

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
        if parts[0] != "g" or len(parts) != 3 or not parts[1].isdigit():
            raise GameError("stale_button")
        row = await self.store.get_game(int(parts[1]))
        if row is None:
            raise GameError("stale_button")
        verb = parts[2]
        mod, state = _loaded(row)
        follow_up = getattr(mod, "follow_up", None)
        if verb in ("again", "rematch") and follow_up:
            await self._follow_up(turn, row, verb)
        elif verb == "secret":
            prompt = getattr(mod, "secret_prompt", None)
            text = prompt(row.id, state, ib.actor.user_id) if prompt else None
            if text is None:
                raise GameError("no_secret_expected")
            if ib.text is not None:  # a modal's answer: the secret itself, typed privately
                await self._play(turn, row, mod.secret_action(ib.text.strip()))
                return
            self._focus[(ib.actor.platform, ib.actor.user_id)] = row.id
            turn.messages.append(Message(ib.actor, text))
        else:
            hook = getattr(mod, "button_action", None)
            action = hook(state, verb, ib.actor.user_id, ib.actor.name, ib.text) if hook else None
            if action is None:
                raise GameError("stale_button")
            await self._play(turn, row, action)

    # ------------------------------------------------------------ commands
    async def _on_command(self, turn: Turn, name: str, args: tuple[str, ...]) -> None:
        ib = turn.inbound
        cmd = BY_NAME.get(name)
        if cmd is None:
            if name == "_migrate" and args:
                await self.store.migrate_chat(ib.chat.platform, ib.chat.chat_id, args[0])
                self.renderer.forget_chat(ib.chat.platform, ib.chat.chat_id)
                return
            raise GameError("unknown_command", command=name[:30])
        if cmd.group_only and ib.chat.private:
            raise GameError("group_only", command=name)
        handler = getattr(self, f"_cmd_{name}")
        await handler(turn, args)

    async def _cmd_help(self, turn: Turn, args: tuple[str, ...]) -> None:
        if args and args[0].lstrip("/").lower() in BY_NAME:
            key = f"help.cmd.{args[0].lstrip('/').lower()}"
        else:
            key = "help.text"
        turn.messages.append(Message(turn.inbound.chat, Text(key)))

    async def _cmd_start(self, turn: Turn, args: tuple[str, ...]) -> None:
        turn.messages.append(Message(turn.inbound.chat, Text("help.welcome")))

    async def _cmd_practice(self, turn: Turn, args: tuple[str, ...]) -> None:
        opts = parse_code_options(args, allow_opponent=False)
        await self._new_practice(turn, CodeRules(opts.length, opts.repeats))

    async def _new_practice(self, turn: Turn, rules: CodeRules) -> None:
        ib = turn.inbound
        state, events = practice.new(rules, Player(ib.actor.user_id, ib.actor.name), self._ctx())
        await self._create(turn, "practice", state, events, [ib.actor.user_id])


    async def _cmd_duel(self, turn: Turn, args: tuple[str, ...]) -> None:
        ib = turn.inbound
        opts = parse_code_options(args, allow_opponent=True)
        opponent = await self._resolve_player(ib, opts.opponent) if opts.opponent else None
        me = Player(ib.actor.user_id, ib.actor.name)
        state, events = duel.new(CodeRules(opts.length, opts.repeats), me, opponent, self._ctx())
        await self._create(turn, "duel", state, events, [me.user_id])

    async def _resolve_player(self, ib: Inbound, written: str) -> Player:
        """A mention, @name or name → a known player of this platform."""
        uid = mention_id(written)
        name = written.lstrip("@")
        if uid is None:
            if ib.actor.platform == "console":
                return Player(name, name)
            found = await self.store.find_user(ib.actor.platform, ib.chat.chat_id, name)
            if found is None:
                raise GameError("unknown_player", name=name[:40])
            uid, name = found
        else:
            name = await self.store.user_name(ib.actor.platform, uid) or written
        if uid == ib.actor.user_id:
            raise GameError("self_challenge")
        return Player(uid, name)

    async def _cmd_accept(self, turn: Turn, args: tuple[str, ...]) -> None:
        await self._answer(turn, "accept")

    async def _cmd_decline(self, turn: Turn, args: tuple[str, ...]) -> None:
        await self._answer(turn, "decline")

    async def _answer(self, turn: Turn, verb: str) -> None:
        """/accept or /decline: the newest challenge here aimed at the actor, else the newest open one."""
        ib = turn.inbound
        targeted, open_ = [], []
        for row in await self.store.chat_games(ib.chat.platform, ib.chat.chat_id):
            mod, state = _loaded(row)
            can_answer = getattr(mod, "can_answer", None)
            answer = can_answer(state, ib.actor.user_id) if can_answer else None
            if answer == "targeted":
                targeted.append((row, mod, state))
            elif answer == "open":
                open_.append((row, mod, state))
        found = targeted or open_
        if not found:
            raise GameError("no_challenge")
        row, mod, state = found[-1]
        await self._play(turn, row, mod.button_action(state, verb, ib.actor.user_id, ib.actor.name, None))

    async def _cmd_guess(self, turn: Turn, args: tuple[str, ...]) -> None:
        ib = turn.inbound
        if not args:
            raise GameError("guess_needs_code")
        text = args[0]
        if ib.chat.private and await self._awaiting_secret(ib.actor) and await self._my_game(ib.actor, ib.chat) is None:
            await self._secret_input(turn, await self._awaiting_secret(ib.actor), text)
            return
        row = await self._my_game(ib.actor, ib.chat)
        if row is None:
            raise GameError("no_game")
        await self._guess_or_secret(turn, row, text, False)

    async def _cmd_giveup(self, turn: Turn, args: tuple[str, ...]) -> None:
        await self._quit(turn, "giveup")

    async def _cmd_resign(self, turn: Turn, args: tuple[str, ...]) -> None:
        await self._quit(turn, "resign")

    async def _quit(self, turn: Turn, command: str) -> None:
        row = await self._my_game(turn.inbound.actor, turn.inbound.chat)
        if row is None:
            raise GameError("no_game")
        mod, state = _loaded(row)
        hook = getattr(mod, "quit_action", None)
        action = hook(state, turn.inbound.actor.user_id, command) if hook else None
        if action is None:
            raise GameError("wrong_quit", command=command)
        await self._play(turn, row, action)

    async def _cmd_cancel(self, turn: Turn, args: tuple[str, ...]) -> None:
        ib = turn.inbound
        if self._focus.pop((ib.actor.platform, ib.actor.user_id), None) is not None:
            turn.messages.append(Message(ib.chat, Text("cancel.focus")))
            return
        row = await self._my_game(ib.actor, ib.chat)
        mod, state = _loaded(row) if row else (None, None)
        hook = getattr(mod, "cancel_action", None)
        if row is None or hook is None:
            raise GameError("nothing_to_cancel")
        await self._play(turn, row, hook(state, ib.actor.user_id))

    async def _cmd_board(self, turn: Turn, args: tuple[str, ...]) -> None:
        ib = turn.inbound
        row = await self._my_game(ib.actor, ib.chat)
        if row is None:
            running = await self.store.chat_games(ib.chat.platform, ib.chat.chat_id)
            if not running:
                raise GameError("no_game")
            lines = "\n".join(f"#{r.id} {self._title(r)}" for r in running)
            turn.messages.append(Message(ib.chat, Text("board.list", {"games": lines})))
            return
        mod, state = _loaded(row)
        turn.messages.append(mod.board(row.id, state, self._chat_of(row)))  # type: ignore[attr-defined]

    def _title(self, row: GameRow) -> str:
        mod, state = _loaded(row)
        return f"{row.kind}: " + " – ".join(p.name for p in mod.players(state))

    async def _cmd_rematch(self, turn: Turn, args: tuple[str, ...]) -> None:
        ib = turn.inbound
        row = await self.store.last_game(ib.chat.platform, ib.chat.chat_id, ib.actor.user_id)
        if row is None or not row.over:
            raise GameError("no_rematch")
        await self._follow_up(turn, row, "rematch" if row.kind != "practice" else "again")

    async def _follow_up(self, turn: Turn, row: GameRow, verb: str) -> None:
        """A new game from a finished one: rematch (other starter, score kept) or play again."""
        mod, old = _loaded(row)
        made = mod.follow_up(old, verb, turn.inbound.actor.user_id, self._ctx())  # type: ignore[attr-defined]
        if made is None:
            raise GameError("no_rematch")
        state, events = made
        await self._create(turn, row.kind, state, events, [p.user_id for p in mod.seated(state)], self._chat_of(row))

    async def _cmd_stats(self, turn: Turn, args: tuple[str, ...]) -> None:
        ib = turn.inbound
        uid, name = ib.actor.user_id, ib.actor.name
        if args:
            wanted = " ".join(args)
            target = mention_id(wanted)
            if target is None:
                found = await self.store.find_user(ib.chat.platform, ib.chat.chat_id, wanted.lstrip("@"))
                if found is None:
                    raise GameError("unknown_player", name=wanted[:40])
                uid, name = found
            else:
                uid, name = target, await self.store.user_name(ib.chat.platform, target) or wanted
        here = await self.store.stats(ib.chat.platform, ib.chat.chat_id, uid)
        everywhere = await self.store.stats(ib.chat.platform, None, uid)
        bests = await self.store.practice_bests(ib.chat.platform, uid)

        def lines(rows: list[Any]) -> Text | str:
            if not rows:
                return Text("stats.none")
            return "\n".join(self._stat_line(r) for r in rows)

        best_lines = "\n".join(
            f"{length}{'+' if rep else ''}: {n} ({practice.rating(CodeRules(length, rep), n)})"
            for length, rep, n in bests)
        turn.messages.append(Message(ib.chat, Text("stats.text", {
            "name": name, "here": lines(here), "everywhere": lines(everywhere),
            "bests": best_lines or Text("stats.none")})))

    @staticmethod
    def _stat_line(r: Any) -> str:
        if r.kind == "practice":
            return f"{r.kind}: {r.games} · ✓{r.wins} · ✗{r.gave_up + r.abandoned}"
        return f"{r.kind}: {r.games} · {r.wins}/{r.draws}/{r.losses}" + (f" · ⏱{r.abandoned}" if r.abandoned else "")

    async def _cmd_top(self, turn: Turn, args: tuple[str, ...]) -> None:
        ib = turn.inbound
        rows = await self.store.top(ib.chat.platform, ib.chat.chat_id)
        if not rows:
            turn.messages.append(Message(ib.chat, Text("top.empty")))
            return
        table = "\n".join(f"{i}. {name} — {w}/{d}/{lost} ({g})" for i, (name, w, d, lost, g) in enumerate(rows, 1))
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
                                                   serial.dump(state), seats, events, self.clock(), turn.seen)
        except SeatTaken as taken:
            raise _seat_error(turn, taken) from None
        turn.outcome = f"created:{kind}:{game_id}"
        turn.messages.extend(GAMES[kind].present(game_id, state, events, chat))

    async def _play(self, turn: Turn, row: GameRow, action: object) -> None:
        """Apply one action under the game's lock; compare-and-set with retries for other processes."""
        actor = turn.inbound.actor
        async with self._lock(row.id):
            for _ in range(5):
                fresh = await self.store.get_game(row.id)
                if fresh is None or fresh.over:
                    raise GameError("game_over")
                try:
                    await self._apply(turn, fresh, action, actor.user_id)
                except Conflict:
                    continue
                break
            else:
                raise GameError("busy")
        if turn.outcome.endswith(":over"):
            self._locks.pop(row.id, None)

    async def _apply(self, turn: Turn, row: GameRow, action: object, actor_id: str | None) -> None:
        mod = GAMES[row.kind]
        ctx = self._ctx()
        state = serial.load(mod.state_type, row.state)
        new, events = mod.apply(state, action, actor_id, ctx)
        before = {p.user_id for p in mod.seated(state)}
        seats = [p.user_id for p in mod.seated(new) if p.user_id not in before]
        over = mod.is_over(new)
        results = self._results(row.kind, new) if over else []
        try:
            await self.store.save_game(row, serial.dump(new), over, seats, events, results, ctx.now, turn.seen)
        except SeatTaken as taken:
            raise _seat_error(turn, taken) from None
        turn.outcome = f"{type(action).__name__.lower()}:{row.id}" + (":over" if over else "")
        chat = self._chat_of(row)
        turn.messages.extend(mod.present(row.id, new, events, chat))
        if over and row.kind == "practice" and new.outcome == "cracked" and not new.assisted:
            await self._report_best(turn, new, chat)

    def _results(self, kind: str, state: Any) -> list[NewResult]:
        rules = getattr(state, "rules", None)
        return [NewResult(r.user_id, r.name, r.outcome, r.attempts,
                          rules.length if rules else None, rules.repeats if rules else None, r.rating)
                for r in GAMES[kind].results(state)]

    async def _report_best(self, turn: Turn, state: practice.State, chat: Chat) -> None:
        n = len(state.attempts)
        for length, repeats, best in await self.store.practice_bests(chat.platform, state.player.user_id):
            if (length, repeats) == (state.rules.length, state.rules.repeats):
                key = "practice.new_best" if best == n else "practice.best"
                turn.messages.append(Message(chat, Text(key, {"name": state.player.name, "best": best,
                                                             "length": length})))

    # ------------------------------------------------------------ time
    async def sweep(self) -> list[Any]:
        """Time out games idle for longer than the configured timeout; returns what to announce."""
        cutoff = self.clock() - self.idle_timeout
        outbounds = []
        for row in await self.store.idle_games(cutoff):
            mod: Any = GAMES[row.kind]
            system = Inbound(Actor(row.platform, "", ""), self._chat_of(row))
            turn = Turn(system)
            async with self._lock(row.id):
                fresh = await self.store.get_game(row.id)
                if fresh is None or fresh.over or mod.last_activity(serial.load(mod.State, fresh.state)) >= cutoff:
                    continue
                try:
                    await self._apply(turn, fresh, mod.Timeout(), None)
                except (GameError, Conflict):
                    continue
            self._locks.pop(row.id, None)
            log.info("%s chat=%s game %d timed out", row.platform, row.chat_id, row.id)
            outbounds.extend((await self.renderer.response(system, turn.messages, None, False)).messages)
        return outbounds


def _loaded(row: GameRow) -> tuple[Any, Any]:
    """A stored game's module and its state object."""
    mod: Any = GAMES[row.kind]
    return mod, serial.load(mod.state_type, row.state)


def _seat_error(turn: Turn, taken: SeatTaken) -> GameError:
    """One game per player per chat: say whose seat is taken."""
    if taken.user_id == turn.inbound.actor.user_id:
        return GameError("already_in_game")
    return GameError("other_in_game")


def _what(ib: Inbound) -> str:
    """What an inbound was, for the log: never its text (it may hold a secret)."""
    if ib.action:
        return f"button {ib.action}" + (" +input" if ib.text is not None else "")
    if ib.command:
        return f"/{ib.command}" + (f" ({len(ib.args)} args)" if ib.args else "")
    return "text"
