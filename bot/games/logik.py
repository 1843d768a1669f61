"""Logik, bot-side: /logik (a player, an open challenge, or the bot), `/stats logik`."""

from __future__ import annotations

from bot.games.computer import BOT_CHOICES, LEVEL_KEYS, ComputerOpponent, without_bot
from bot.i18n import Catalogs
from bot.options import colour_letters
from bot.services import Command, Services, Turn
from core.errors import GameError
from core.games import logik
from core.games.base import Player
from core.games.challenge import Accepted, BotLevel
from core.messages import Message, Text
from core.solver import games as solver_games


async def cmd_logik(svc: Services, turn: Turn, args: tuple[str, ...]) -> None:
    """/logik [opponent] [rows N]: a Logik challenge; the challenger plays white."""
    ib = turn.inbound
    rest = without_bot(args, svc.option_words)
    if rest is not None:  # /logik bot [easy|strong] [rows N], in any order: see the solver block
        await solver_bot_logik(svc, turn, rest)
        return
    written, rows = logik.parse_options(args, svc.option_words)
    opponent = await svc.resolve_player(ib, written) if written else None
    me = Player(ib.actor.user_id, ib.actor.name)
    state, events = logik.new(me, opponent, rows, logik_letters(svc.catalogs), svc.ctx())
    await svc.create(turn, "logik", state, events, [me.user_id])


def logik_letters(catalogs: Catalogs) -> dict[str, str]:
    """Colour initial → colour digit, from every catalog (bot/options.py `colour_letters`)."""
    return colour_letters(catalogs)


async def logik_stats(svc: Services, turn: Turn, args: tuple[str, ...]) -> None:
    """/stats logik [player]: white wins, black wins and draws here and everywhere, and a record."""
    ib = turn.inbound
    uid, name = ib.actor.user_id, ib.actor.name
    if args:
        found = await svc.find_player(ib, " ".join(args), known_only=True)
        uid, name = found.user_id, found.name

    def sides(white: int, black: int, draws: int, abandoned: int) -> Text:
        n = white + black + draws  # decided games; the timed-out ones are counted apart
        if n == 0:
            return Text("logik.stats_timed_out", {"n": abandoned}) if abandoned else Text("logik.stats_none")
        return Text("logik.stats_sides", {"n": n, "white": white, "black": black, "draws": draws,
                                          "wp": 100 * white / n, "bp": 100 * black / n,
                                          "dp": 100 * draws / n, "abandoned": abandoned})

    here = await svc.store.logik_sides(ib.chat.platform, ib.chat.chat_id)
    everywhere = await svc.store.logik_sides(ib.chat.platform, None)
    record = await svc.store.logik_record(ib.chat.platform, None, uid)
    ww, wd, wl, wt = record.get("white", (0, 0, 0, 0))
    bw, bd, bl, bt = record.get("black", (0, 0, 0, 0))
    mine = Text("logik.stats_record", {"ww": ww, "wd": wd, "wl": wl, "bw": bw, "bd": bd, "bl": bl,
                                       "abandoned": wt + bt})
    turn.messages.append(Message(ib.chat, Text("logik.stats", {
        "here": sides(*here), "everywhere": sides(*everywhere), "name": name, "record": mine})))



async def solver_bot_logik(svc: Services, turn: Turn, args: tuple[str, ...]) -> None:
    """/logik bot [easy|strong] [rows N]: Logik against the bot; you play white."""
    ib = turn.inbound
    level, rest = solver_games.parse_level(args, svc.option_words)
    written, rows = logik.parse_options(rest, svc.option_words)
    if written is not None:
        raise GameError("bad_option", option=written[:30])
    lang = await svc.lang(ib)
    bot_name = svc.catalogs.render(Text("solver.bot_name"), lang)
    me = Player(ib.actor.user_id, ib.actor.name)
    state, events = solver_games.new_bot_logik(me, bot_name, rows, logik_letters(svc.catalogs), svc.ctx())
    intro = Message(ib.chat, Text("solver.bot_logik", {"name": me.name, "bot": bot_name,
                                                       "level": Text(LEVEL_KEYS[level])}))
    at = len(turn.messages)
    shown = [e for e in events if not isinstance(e, Accepted)]
    await svc.create(turn, "logik", state, [BotLevel(level), *shown], [me.user_id])
    turn.messages.insert(at, intro)


class LogikPlugin(ComputerOpponent[logik.State]):
    game = logik.GAME
    title = "game.logik"
    commands = (Command("logik", ("bot", "opponent", "rows"), cmd_logik, group_only=True,
                        choices=(("bot", BOT_CHOICES),)),)

    async def stats(self, svc: Services, turn: Turn, args: tuple[str, ...]) -> bool:
        await logik_stats(svc, turn, args)
        return True


PLUGIN = LogikPlugin()
