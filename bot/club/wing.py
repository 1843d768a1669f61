"""What the club gives the game's plugin that carries it — a plugin is the one way to add commands and button
handlers: the club's commands (`COMMANDS`) and its buttons (`chat_action`). Hausnummern's plugin names them
(bot/games/kegeln/__init__.py), beside the club's tables (`schema.py`) and how it reports (`games.py`)."""

from __future__ import annotations

from bot.app.turn import Command, Turn
from bot.club import commands as club_commands
from bot.club import merge
from bot.club.cash import command as cash_cmd
from bot.club.evenings import termin
from bot.club.evenings.termin import cmd_termin
from bot.club.export import cmd_kegelexport
from bot.club.merge import cmd_kegelmerge
from bot.club.recap import cmd_abend, cmd_jahresrueckblick
from bot.club.season import cmd_saison
from bot.club.stats import cmd_kegelstats
from bot.games.plugin import Services
from bot.web import command as tv_command
from core.messages import Chat

# the club's work: a group's anonymous admin may do it (`personal=False`: its admins may act for the club)
COMMANDS: tuple[Command, ...] = (
    Command("kegelstats", ("name",), cmd_kegelstats, personal=False),
    Command("abend", (), cmd_abend, personal=False),
    Command("kegelexport", ("season",), cmd_kegelexport, personal=False),
    Command("saison", ("season",), cmd_saison, personal=False),
    Command("jahresrueckblick", ("season",), cmd_jahresrueckblick, personal=False,
            aliases=(("en", "yearreview"), ("de", "jahresrueckblick"), ("sv", "arsrevy"),
                     ("ru", "итоги_года"), ("ru", "itogi_goda"),
                     ("bg", "годишен_преглед"), ("bg", "godishen_pregled"))),
    Command("kegelmerge", ("old", "new"), cmd_kegelmerge, personal=False),
    Command("termin", ("when",), cmd_termin, group_only=True, personal=False,
            aliases=(("en", "evening"), ("de", "termin"), ("sv", "träff"), ("sv", "traff"),
                     ("ru", "встреча"), ("ru", "vstrecha"),
                     ("bg", "среща"), ("bg", "sreshta"))),
    Command("kasse", ("what",), cash_cmd.cmd_kasse, group_only=True,  # money is booked by a person
            aliases=(("en", "cashbox"), ("de", "kasse"), ("sv", "kassa"), ("ru", "касса"), ("ru", "kassa"),
                     ("bg", "каса"), ("bg", "kasa"))),
    club_commands.COMMAND,  # the club's roster and roles (bot/club/, docs/club.md)
    tv_command.COMMAND,  # the TV page at the lanes (bot/web/, docs/tv.md)
)


async def chat_action(svc: Services, turn: Turn, chat: Chat, arg: str) -> None:
    """A club button pressed (`<host>:<chat>:<arg>`, bot/club/host.py `action`)."""
    if arg.startswith("cash_"):  # the cash box's buttons (bot/club/cash/command.py)
        await cash_cmd.chat_action(svc, turn, chat, arg)
    elif not await termin.answer(svc, turn, chat, arg):  # ✅/❌ on an evening, else a /kegelmerge answer
        await merge.answer_merge(svc, turn, chat, arg)
