"""Logik, bot-side: the plugin (`PLUGIN`), its commands (`commands`: /logik, /logik bot), its statistics
(`stats`: `/stats logik`) and their queries (`storage`); the computer opponent is bot/games/computer/."""

from __future__ import annotations

from bot.app.turn import Command, Turn
from bot.games.computer import BOT_CHOICES, ComputerOpponent
from bot.games.logik.commands import cmd_logik
from bot.games.logik.stats import logik_stats
from bot.games.plugin import Services
from core.achievements import FIRST_WIN, LOGIK_IN_5
from core.games.logik import GAME
from core.games.logik.rules import State
from core.games.logik.solver import VIEW


class LogikPlugin(ComputerOpponent[State]):
    game = GAME
    solver = VIEW  # /analyse replays its finished games; the computer opponent plays through it
    title = "game.logik"
    commands = (Command("logik", ("bot", "opponent", "rows"), cmd_logik, group_only=True,
                        choices=(("bot", BOT_CHOICES),)),)
    achievements = (FIRST_WIN, LOGIK_IN_5)

    async def stats(self, svc: Services, turn: Turn, args: tuple[str, ...]) -> bool:
        await logik_stats(svc, turn, args)
        return True


PLUGIN = LogikPlugin()
