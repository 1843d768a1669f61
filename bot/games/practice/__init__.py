"""Practice (1A2B against a hidden code), bot-side: the plugin (`PLUGIN`) with /practice, the personal best
told, /hint; the bests' query is in `storage`."""

from __future__ import annotations

from typing import Any

from bot.app.move_types import Move, Moved
from bot.app.turn import Command, Turn
from bot.games.plugin import GamePlugin, Services
from bot.games.practice.storage import practice_bests
from bot.storage.base import GameRow, StatLine
from bot.texts.option_words import LENGTH_CHOICES, parse_code_options
from core import serial
from core.achievements import CRACK_IN_4, FIRST_WIN, Feat
from core.codes import CodeRules
from core.errors import GameError
from core.games.base import Player, repeats_text
from core.games.practice import GAME
from core.games.practice import rules as practice
from core.games.practice import solver as practice_solver
from core.messages import Chat, Message, Text


async def cmd_practice(svc: Services, turn: Turn, args: tuple[str, ...]) -> None:
    opts = parse_code_options(args, allow_opponent=False, vocab=svc.option_words)
    await new_practice(svc, turn, CodeRules(opts.length, opts.repeats))


async def new_practice(svc: Services, turn: Turn, rules: CodeRules) -> None:
    ib = turn.inbound
    state, events = practice.new(rules, Player(ib.actor.user_id, ib.actor.name), svc.ctx())
    await svc.runner.create(turn, GAME.kind, state, events, [ib.actor.user_id])


async def report_best(svc: Services, turn: Turn, state: practice.State, chat: Chat) -> None:
    n = len(state.attempts)
    for b in await practice_bests(svc.store, chat.platform, state.player.user_id):
        if (b.length, b.repeats) == (state.rules.length, state.rules.repeats):
            key = "practice.new_best" if b.best == n else "practice.best"
            turn.messages.append(Message(chat, Text(key, {"name": state.player.name, "best": b.best,
                                                         "length": b.length, "repeats": repeats_text(b.repeats)})))


def think_hint(svc: Services, state: practice.State) -> Any:
    position = tuple((a.code, a.a, a.b) for a in state.attempts)
    spec = practice_solver.VIEW.spec(state)
    # aside: the chat's next update need not wait (the hint's move checks the game's version)
    return svc.think(("hint", spec.name, position), spec, practice_solver.hint, state, aside=True)


def hint_step(left: int, guess: str) -> Any:
    """A hint given: the game becomes assisted."""
    return lambda game, state, ctx: practice_solver.take_hint(state, left, guess, ctx)


class PracticePlugin(GamePlugin[practice.State]):
    game = GAME
    solver = practice_solver.VIEW  # /analyse replays its finished games; /hint
    title = "game.practice"
    commands = (Command("practice", ("length", "repeats"), cmd_practice, choices=(("length", LENGTH_CHOICES),)),)
    achievements = (FIRST_WIN, CRACK_IN_4)

    async def feats(self, svc: Services, row: GameRow, state: practice.State, results: Any,
                    at: float) -> list[Feat]:
        """Cracked without a hint (a hinted game is assisted: no rating, no best, no achievement)."""
        won = state.outcome == practice.PracticeOutcome.CRACKED and not state.assisted
        return [Feat(state.player.user_id, state.player.name, won, len(state.attempts) if won else None)]

    async def after_save(self, svc: Services, turn: Turn, chat: Chat, state: practice.State, over: bool,
                         saved: tuple[int, int, dict[str, Any]]) -> None:
        if over and state.outcome == practice.PracticeOutcome.CRACKED and not state.assisted:
            await report_best(svc, turn, state, chat)

    async def hint(self, svc: Services, turn: Turn, row: GameRow) -> bool:
        """Codes still possible and a strong next guess; the game becomes assisted."""
        ib = turn.inbound
        for _ in range(5):
            state = serial.load(practice.State, row.state)
            left, guess = await think_hint(svc, state)  # a guess that comes in meanwhile: think again
            try:
                await svc.runner.run(turn, row, Move(hint_step(left, guess), "hint", "hint"))
            except Moved:
                fresh = await svc.store.get_game(row.id)
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
        return True

    async def bests(self, svc: Services, platform: str, user_id: str) -> list[Text]:
        """One best per (length, repeats), each line saying which: `4 digits, all digits different: 6 (Pro)`."""
        return [Text("stats.best_line", {
            "n": b.length, "repeats": repeats_text(b.repeats), "best": b.best,
            "rating": Text(f"rating.{practice.rating(CodeRules(b.length, b.repeats), b.best)}")})
            for b in await practice_bests(svc.store, platform, user_id)]

    def stat_line(self, line: StatLine, name: str) -> str:
        extra = f" · ⏱{line.abandoned}" if line.abandoned else ""
        return f"{name}: {line.games} · ✓{line.wins} · ✗{line.gave_up}" + extra


PLUGIN = PracticePlugin()
