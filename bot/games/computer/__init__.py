"""The computer opponent of the two-player challenge games (1A2B duel, Logik): `/duel bot`,
`/logik bot`, its answers after every human move, its pending moves on start. Its choices come from
the solver through each game's `ComputerView` (core/games/<kind>/solver.py, its plugin's `solver`), thought out
in a worker process (bot/solver/thinking.py); the level it plays at is read back by `storage`."""

from __future__ import annotations

import logging
import random
from typing import Any, TypeVar

from bot.app.move_types import Move, Moved
from bot.app.turn import Turn
from bot.games.computer.storage import bot_level
from bot.games.plugin import GAMES, PLUGINS, GamePlugin, Services
from bot.storage.base import GameRow, NewResult
from core import serial
from core.achievements import Feat
from core.errors import GameError
from core.games.actions import Accept
from core.games.base import Event
from core.games.challenge_events import BotLevel, ChallengeOutcome
from core.messages import Actor, Message, Text
from core.options import meaning
from core.ratings import BOT_RATINGS, Match, duel_match
from core.solver import EASY, PERFECT, STRONG
from core.solver.games import BOT, ComputerView, Think

log = logging.getLogger("bot.app.app")
S = TypeVar("S")
LEVEL_KEYS = {EASY: "solver.level_easy", STRONG: "solver.level_strong", PERFECT: "solver.level_perfect"}
# The `bot` option of /duel and /logik (its words lead the arguments): a platform menu offers these
# (Discord: a string option beside the user picker, which cannot pick the computer).
BOT_CHOICES = ("bot", "bot easy", "bot strong", "bot perfect")  # perfect: strong where a space has no tree


def without_bot(args: tuple[str, ...], vocab: dict[str, str]) -> tuple[str, ...] | None:
    """The other options when `bot` (in any language) is among them (in any place), else None: a game
    against the computer."""
    words = tuple(w for a in args for w in a.split())  # a platform option may hold several words
    said = [meaning(w, vocab, ("bot",)) for w in words]
    if "bot" not in said:
        return None
    i = said.index("bot")
    return words[:i] + words[i + 1:]


def view_of(kind: str) -> ComputerView[Any]:
    """The solver's view of a game the computer plays (its plugin's `solver`)."""
    view = PLUGINS[kind].solver
    assert isinstance(view, ComputerView), f"{kind} declares no ComputerView"
    return view


def bot_step(view: ComputerView[Any], action: object) -> Any:
    """The bot's move (`ComputerView.apply`: its disguise is drawn with its secret)."""
    return lambda game, state, ctx: view.apply(state, action, ctx)


def computer_in(kind: str, raw: dict[str, Any]) -> bool:
    """Whether a stored two-player game seats the bot (read from the JSON, no full load)."""
    return kind in PLUGINS and PLUGINS[kind].computer_plays and any(
        isinstance(raw.get(k), dict) and raw[k].get("user_id") == BOT
        for k in ("challenger", "opponent"))


async def solver_after_move(svc: Services, turn: Turn, game_id: int) -> None:
    """The computer opponent (1A2B duel or Logik) answers in the same handle call: it accepts a
    rematch, sets its secret, and guesses (thinking in a worker thread) while the duel's turn is its
    own, or, in Logik, as soon as a round waits for its row. Its private messages go nowhere."""
    human_outcome, ended = turn.outcome, False
    for _ in range(6):
        row = await svc.store.get_game(game_id)
        if row is None or row.over:
            break
        game, view = GAMES[row.kind], view_of(row.kind)
        state = serial.load(game.state_type, row.state)
        action = view.action(state)
        if action is None:
            break
        human = next(p.user_id for p in game.players(state) if p.user_id != BOT)
        level = await bot_level(svc.store, row.platform, row.chat_id, row.kind, row.id, human) or STRONG
        extra: list[Event] = [BotLevel(level)] if isinstance(action, Accept) else []
        if isinstance(action, Think):
            rng = random.Random(svc.rng.random())
            try:
                action = await svc.think(("bot", row.id, row.version), view.spec(state), view.guess, state, level,
                                           rng)
            except GameError as err:  # busy: the App tries again shortly (MoveRunner.retry_bot_moves); told once
                if err.code != "solver.busy":
                    turn.messages.append(Message(svc.chat_of(row), Text(f"error.{err.code}", err.params)))
                elif svc.runner.owe(row.id):
                    turn.messages.append(Message(svc.chat_of(row), Text("solver.busy_move")))
                break
            except Exception:  # the human's move stands; their next message or a restart tries again
                log.exception("the bot could not think in game %d", game_id)
                break
        try:
            played = await svc.runner.run(turn, row, Move(bot_step(view, action), "bot", "bot", extra=tuple(extra)))
        except Moved:
            continue  # the human moved meanwhile: look again
        else:
            ended = played.over
    turn.messages = [m for m in turn.messages
                     if not (isinstance(m.to, Actor) and m.to.user_id == BOT)]
    if turn.outcome != human_outcome:
        turn.outcome = f"{human_outcome}+bot"
    if ended:
        svc.runner.release(game_id)


async def solver_pending(svc: Services, turn: Turn, row: GameRow) -> None:
    """Before a human's move in a game against the bot (or the App's retry of a move refused as
    busy, or a restart): a bot move left pending (its thinking refused as busy, or the process
    stopped while it thought) is made first."""
    game = GAMES[row.kind]
    if view_of(row.kind).action(serial.load(game.state_type, row.state)) is not None:
        await solver_after_move(svc, turn, row.id)


class ComputerOpponent(GamePlugin[S]):
    """A game the bot may play in: a move it left pending comes first, and it answers every move.
    A decided game is rated one against one (a draw ties) once each side made `ratings.MIN_MOVES`
    guesses (revealed rows) — after that a resignation or a timeout is a rated loss; the bot has the
    fixed rating of its level."""

    computer_plays = True

    async def rated(self, svc: Services, row: GameRow, state: S, results: list[NewResult]) -> Match | None:
        outcomes = {r.user_id: r.outcome for r in results}
        fixed = {}
        if BOT in outcomes:
            human = next((u for u in outcomes if u != BOT), "")
            level = await bot_level(svc.store, row.platform, row.chat_id, row.kind, row.id, human) or STRONG
            fixed[BOT] = BOT_RATINGS[level]
        moves = {r.user_id: r.attempts or 0 for r in results}  # guesses (duel), rows (Logik)
        return duel_match(outcomes, {r.user_id: r.name for r in results}, fixed, moves)

    async def feats(self, svc: Services, row: GameRow, state: S, results: list[NewResult], at: float) -> list[Feat]:
        """A win, and the guesses or rows of each player who cracked the code: the winner of a game won by
        cracking (not by a resignation or a timeout), both of a game drawn by cracking in the same round."""
        outcome = getattr(state, "outcome", None)

        def cracked(r: NewResult) -> bool:
            if outcome == ChallengeOutcome.WIN:
                return r.outcome == "win"
            rows = (getattr(state, "attempts", None) or getattr(state, "rows", None) or {}).get(r.user_id)
            last = rows[-1] if rows else None  # a duel's Attempt (a bulls) or a Logik Row (black pegs)
            return outcome == ChallengeOutcome.DRAW and last is not None and getattr(
                last, "a", getattr(last, "black", -1)) == len(last.code)

        return [Feat(r.user_id, r.name, r.outcome == "win", r.attempts if cracked(r) else None) for r in results]

    async def before_move(self, svc: Services, turn: Turn, row: GameRow) -> None:
        if computer_in(row.kind, row.state):
            await solver_pending(svc, turn, row)

    async def after_move(self, svc: Services, turn: Turn, game_id: int, raw: dict[str, Any]) -> None:
        if computer_in(self.kind, raw):
            await solver_after_move(svc, turn, game_id)
