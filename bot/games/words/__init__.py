"""The word game's bot side (Бык-корова): `PLUGIN`, its commands (commands.py), /hint in solo practice
(hint.py) and the rating of a finished match (ratings.py), as bot/games/registry.py registers it."""

from __future__ import annotations

from bot.app.turn import Command, Turn
from bot.games.plugin import GamePlugin, Services
from bot.games.words.commands import cmd_begin, cmd_words
from bot.games.words.hint import words_hint
from bot.games.words.ratings import rated_match
from bot.storage.base import GameRow, NewResult
from core.achievements import FIRST_WIN
from core.games.words import GAME
from core.games.words.state import State
from core.ratings import Match


class WordsPlugin(GamePlugin[State]):
    game = GAME
    title = "game.words"
    commands = (Command("words", ("options",), cmd_words), Command("begin", (), cmd_begin))
    achievements = (FIRST_WIN,)

    async def rated(self, svc: Services, row: GameRow, state: State, results: list[NewResult]) -> Match | None:
        return rated_match(state, results)

    async def hint(self, svc: Services, turn: Turn, row: GameRow) -> bool:
        await words_hint(svc, turn, row)
        return True


PLUGIN = WordsPlugin()
