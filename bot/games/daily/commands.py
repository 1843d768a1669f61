"""The daily puzzle's commands: /daily (a chat's puzzle of the day, its board, its table) and /timezone.

/timezone sets the chat's zone: its day changes at that zone's midnight."""

from __future__ import annotations

from datetime import date
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

from bot.app.routing import awaiting_secret
from bot.app.runner import loaded
from bot.app.turn import Turn
from bot.games.daily.attempt import play
from bot.games.daily.day import today
from bot.games.daily.tables import show_day, show_table
from bot.games.plugin import Services
from bot.retention.schedule import rearm_group
from bot.schedule.zones import DEFAULT_TZ
from core.errors import GameError
from core.games.daily import GAME, rules
from core.messages import Message, Text
from core.options import Vocabulary, meaning

SUBCOMMANDS = ("board", "table")


def parse(args: tuple[str, ...], vocab: Vocabulary | None) -> tuple[str, str | None]:
    """`[1a2b|logik|words] [board|table]` in any order (localised words) → (puzzle, subcommand)."""
    puzzle, sub = rules.DEFAULT_PUZZLE, None
    for raw in args:
        word = meaning(raw, vocab, (*rules.PUZZLES, *SUBCOMMANDS))
        if word in rules.PUZZLES:
            puzzle = word
        elif word in SUBCOMMANDS:
            sub = word
        else:
            raise GameError("bad_option", option=raw[:30])
    return puzzle, sub


async def cmd_daily(svc: Services, turn: Turn, args: tuple[str, ...]) -> None:
    """/daily in a group: that chat's puzzle of the day (or its board, its table). In the private chat,
    where there is no chat's puzzle to start: the player's running dailies shown again, each naming
    its group and day (yesterday's may still run next to today's, or dailies of several groups)."""
    puzzle, sub = parse(args, svc.option_words)
    chat = turn.inbound.chat
    if chat.private:
        running = [r for r in await awaiting_secret(svc, turn.inbound.actor) if r.kind == GAME.kind]
        if not running or sub is not None:
            raise GameError("group_only", command="daily")
        for row in running:
            kind, state = loaded(row)
            if len(running) == 1:  # the only one: the next private input goes to it
                svc.inputs.note_prompts(kind, row.id, row.platform, None, state, turn.inbound.actor.user_id)
            turn.messages.extend(await svc.titled(row.kind, svc.chat_of(row),
                                                  [kind.board(row.id, state, svc.chat_of(row))]))
        return
    if sub == "board":
        await show_day(svc, turn, chat, puzzle)
    elif sub == "table":
        await show_table(svc, turn, chat, puzzle)
    else:
        await play(svc, turn, chat, puzzle)


async def cmd_timezone(svc: Services, turn: Turn, args: tuple[str, ...]) -> None:
    """/timezone: the chat's zone and day; /timezone Europe/Berlin sets it (chat admins in a group)."""
    ib = turn.inbound
    if not args:
        tz = await svc.store.chat_tz(ib.chat.platform, ib.chat.group) or DEFAULT_TZ
        day = date.fromisoformat(await today(svc, ib.chat))
        turn.messages.append(Message(ib.chat, Text("timezone.show", {"tz": tz, "day": day})))
        return
    if not ib.chat.private and not ib.actor.is_admin:
        raise GameError("timezone.admins_only")
    name = args[0].strip()
    try:
        if len(name) > 60 or name.startswith(("/", ".")):
            raise ValueError(name)
        ZoneInfo(name)
    except (ZoneInfoNotFoundError, ValueError):
        raise GameError("timezone.unknown", tz=name[:60]) from None
    await svc.store.set_chat_tz(ib.chat.platform, ib.chat.group, name)
    await rearm_group(svc, ib.chat)  # the group's own posts (its topics' too) keep their time of day
    day = date.fromisoformat(await today(svc, ib.chat))
    turn.messages.append(Message(ib.chat, Text("timezone.set", {"tz": name, "day": day})))
