"""Logik's commands: /logik (a player, an open challenge) and /logik bot (the computer opponent)."""

from __future__ import annotations

from bot.app.turn import Turn
from bot.games.computer import LEVEL_KEYS, without_bot
from bot.games.plugin import Services
from bot.texts.i18n import Catalogs
from bot.texts.option_words import colour_letters
from core.errors import GameError
from core.games.base import Player
from core.games.challenge_events import Accepted, BotLevel
from core.games.logik import GAME
from core.games.logik import rules as logik
from core.games.logik.solver import new_bot_logik
from core.messages import Message, Text
from core.solver.games import parse_level


async def cmd_logik(svc: Services, turn: Turn, args: tuple[str, ...]) -> None:
    """/logik [opponent] [rows N]: a Logik challenge; the challenger plays white."""
    ib = turn.inbound
    rest = without_bot(args, svc.option_words)
    if rest is not None:  # /logik bot [easy|strong] [rows N], in any order: see the solver block
        await solver_bot_logik(svc, turn, rest)
        return
    written, rows = logik.parse_options(args, svc.option_words)
    opponent = await svc.players.opponent(ib, written) if written else None
    me = Player(ib.actor.user_id, ib.actor.name)
    state, events = logik.new(me, opponent, rows, logik_letters(svc.catalogs), svc.ctx())
    await svc.runner.create(turn, GAME.kind, state, events, [me.user_id])


def logik_letters(catalogs: Catalogs) -> dict[str, str]:
    """Colour initial → colour digit, from every catalog (bot/texts/option_words.py `colour_letters`)."""
    return colour_letters(catalogs)


async def solver_bot_logik(svc: Services, turn: Turn, args: tuple[str, ...]) -> None:
    """/logik bot [easy|strong] [rows N]: Logik against the bot; you play white."""
    ib = turn.inbound
    level, rest = parse_level(args, svc.option_words)
    written, rows = logik.parse_options(rest, svc.option_words)
    if written is not None:
        raise GameError("bad_option", option=written[:30])
    lang = await svc.lang(ib)
    bot_name = svc.catalogs.render(Text("solver.bot_name"), lang)
    me = Player(ib.actor.user_id, ib.actor.name)
    state, events = new_bot_logik(me, bot_name, rows, logik_letters(svc.catalogs), svc.ctx())
    intro = Message(ib.chat, Text("solver.bot_logik", {"name": me.name, "bot": bot_name,
                                                       "level": Text(LEVEL_KEYS[level])}))
    at = len(turn.messages)
    shown = [e for e in events if not isinstance(e, Accepted)]
    await svc.runner.create(turn, GAME.kind, state, [BotLevel(level), *shown], [me.user_id])
    turn.messages.insert(at, intro)
