"""Higher or lower, bot-side: the /hilo command that starts it, and its best games in its own table
(tests/example_game/storage.py), written in the move's transaction."""

from __future__ import annotations

from bot.app.turn import Command, Turn
from bot.games.plugin import GamePlugin, Services
from bot.storage.base import GameRow
from bot.storage.sql import TxJob
from core.games.base import Player
from tests.example_game import rules, storage


async def cmd_hilo(svc: Services, turn: Turn, args: tuple[str, ...]) -> None:
    ib = turn.inbound
    state, events = rules.new(Player(ib.actor.user_id, ib.actor.name), svc.ctx())
    await svc.runner.create(turn, rules.GAME.kind, state, events, [ib.actor.user_id])


class HigherOrLowerPlugin(GamePlugin[rules.State]):
    game = rules.GAME
    commands = (Command("hilo", (), cmd_hilo),)
    schema = storage.SCHEMA

    def writes(self, svc: Services, row: GameRow, old: rules.State, new: rules.State, over: bool) -> TxJob | None:
        if not (over and new.outcome == "win"):
            return None
        return storage.best_job(row.platform, row.chat_id, new.player.user_id, new.tries, row.id)


PLUGIN = HigherOrLowerPlugin()

