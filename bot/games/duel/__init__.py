"""The 1A2B duel, bot-side: /duel (a player, an open challenge, or the bot)."""

from __future__ import annotations

from bot.app.turn import Command, Turn
from bot.games.computer import BOT_CHOICES, LEVEL_KEYS, ComputerOpponent, without_bot
from bot.games.plugin import Services
from bot.texts.option_words import LENGTH_CHOICES, parse_code_options
from core.achievements import CRACK_IN_4, FIRST_WIN
from core.codes import CodeRules
from core.games.base import Player
from core.games.challenge_events import Accepted, BotLevel
from core.games.duel import GAME
from core.games.duel import rules as duel
from core.games.duel.solver import VIEW, new_bot_duel
from core.messages import Message, Text
from core.solver.games import parse_level


async def cmd_duel(svc: Services, turn: Turn, args: tuple[str, ...]) -> None:
    ib = turn.inbound
    rest = without_bot(args, svc.option_words)
    if rest is not None:  # /duel bot [easy|strong], options in any order: see the solver block
        await solver_bot_duel(svc, turn, rest)
        return
    opts = parse_code_options(args, allow_opponent=True, vocab=svc.option_words)
    opponent = await svc.players.opponent(ib, opts.opponent) if opts.opponent else None
    me = Player(ib.actor.user_id, ib.actor.name)
    state, events = duel.new(CodeRules(opts.length, opts.repeats), me, opponent, svc.ctx())
    await svc.runner.create(turn, GAME.kind, state, events, [me.user_id])


async def solver_bot_duel(svc: Services, turn: Turn, args: tuple[str, ...]) -> None:
    """/duel bot [easy|strong|perfect] [3|4|5] [repeats]: the bot accepts at once and sets a random secret."""
    ib = turn.inbound
    level, rest = parse_level(args, svc.option_words)
    opts = parse_code_options(rest, allow_opponent=False, vocab=svc.option_words)
    lang = await svc.lang(ib)
    bot_name = svc.catalogs.render(Text("solver.bot_name"), lang)
    me = Player(ib.actor.user_id, ib.actor.name)
    state, events = new_bot_duel(CodeRules(opts.length, opts.repeats), me, bot_name, svc.ctx())
    intro = Message(ib.chat, Text("solver.bot_duel", {"name": me.name, "bot": bot_name,
                                                      "level": Text(LEVEL_KEYS[level])}))
    at = len(turn.messages)
    shown = [e for e in events if not isinstance(e, Accepted)]  # the intro says it: no "I wrote to you both"
    await svc.runner.create(turn, GAME.kind, state, [BotLevel(level), *shown], [me.user_id])
    turn.messages.insert(at, intro)


class DuelPlugin(ComputerOpponent[duel.State]):
    game = GAME
    solver = VIEW  # /analyse replays its finished games; the computer opponent plays through it
    title = "game.duel"
    wins_table = True  # the plain /top and the tables by period list its wins
    commands = (Command("duel", ("bot", "opponent", "length", "repeats"), cmd_duel, group_only=True,
                        choices=(("bot", BOT_CHOICES), ("length", LENGTH_CHOICES))),)
    achievements = (FIRST_WIN, CRACK_IN_4)


PLUGIN = DuelPlugin()
