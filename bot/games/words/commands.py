"""The word game's own commands: /words (a lobby, or solo practice) and /begin (the lobby's match)."""

from __future__ import annotations

from bot.app.turn import Turn
from bot.games.plugin import Services
from core import serial
from core.errors import GameError
from core.games.base import Player
from core.games.words import GAME, rules
from core.games.words.actions import Begin
from core.games.words.options import parse_options
from core.games.words.state import State


async def cmd_words(svc: Services, turn: Turn, args: tuple[str, ...]) -> None:
    """/words [solo] [options]: a Бык-корова lobby in a group, or solo practice against the bot."""
    ib = turn.inbound
    solo, opts = parse_options(args, await svc.lang(ib), svc.option_words)
    me = Player(ib.actor.user_id, ib.actor.name)
    if solo:
        state, events = rules.new_solo(opts, me, svc.ctx())
    elif ib.chat.private:
        raise GameError("group_only", command="words")
    else:
        state, events = rules.new(opts, me, svc.ctx())
    await svc.runner.create(turn, GAME.kind, state, events, [me.user_id])


async def cmd_begin(svc: Services, turn: Turn, args: tuple[str, ...]) -> None:
    """/begin: the opener starts the match of their lobby; anyone else is told whose lobby it is."""
    ib = turn.inbound
    row = await svc.players.seated_game(ib.actor, ib.chat)
    if row is None or row.kind != GAME.kind:
        for other in reversed(await svc.store.chat_games(ib.chat.platform, ib.chat.chat_id)):
            if other.kind != GAME.kind:
                continue
            state = serial.load(State, other.state)
            if GAME.join_action(state, ib.actor.user_id, ib.actor.name):
                raise GameError("words.not_in_lobby", name=state.opener.name)  # whose lobby it is
        raise GameError("words.no_lobby")
    await svc.runner.play(turn, row, Begin())
