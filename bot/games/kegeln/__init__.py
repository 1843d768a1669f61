"""Kegeln (Hausnummern), bot-side: the plugin (`PLUGIN`) and its commands; play, statistics, recaps, export,
seasons, merges, the cash box (cash_*.py) and storage each in a module of this package."""

from __future__ import annotations

from bot.app.runner import both
from bot.app.turn import Command, Turn
from bot.club import commands as club_commands
from bot.club import storage as club_storage
from bot.games.kegeln import cash_cmd, cash_fines, cash_storage, merge, play, storage, termin
from bot.games.kegeln.export import cmd_kegelexport
from bot.games.kegeln.merge import cmd_kegelmerge
from bot.games.kegeln.play import cmd_kegeln, cmd_scorer, cmd_throw, cmd_undo, cmd_winner, cmd_wurf
from bot.games.kegeln.recap import cmd_abend, cmd_jahresrueckblick
from bot.games.kegeln.season import cmd_saison
from bot.games.kegeln.stats import cmd_kegelstats
from bot.games.kegeln.termin import cmd_termin
from bot.games.kegeln.termin_storage import EVENING_CHAT_MOVES, EVENING_MIGRATIONS
from bot.games.plugin import GamePlugin, Services
from bot.schedule.scheduler import Job
from bot.storage.base import GameRow, NewResult
from bot.storage.schemas import Schema
from bot.storage.sql import TxJob
from bot.web import command as tv_command
from bot.web import hooks as tv
from bot.yourdata.declare import Kept, Personal
from core.achievements import ALLE_NEUNE, FIRST_WIN, Feat
from core.games.kegeln import GAME, records
from core.games.kegeln.state import MAX_DIGITS, MIN_DIGITS, State
from core.messages import Chat, Message
from core.ratings import Match

PLACES = tuple(str(n) for n in range(MIN_DIGITS, MAX_DIGITS + 1))  # Hausnummern digits


class KegelnPlugin(GamePlugin[State]):
    game = GAME
    title = "game.kegeln"
    # its first tables are in the shared list (shipped); its own (bot/storage/schemas.py): the club evenings'
    # (termin_storage.py, shipped first on main), then the cash box's (cash_storage.py) — shipped entries keep
    # their numbers, a new list goes after them
    schema = Schema("kegeln", EVENING_MIGRATIONS + cash_storage.CASH_MIGRATIONS,
                    chat_moves=(*storage.CHAT_MOVES, *EVENING_CHAT_MOVES, *cash_storage.CHAT_MOVES))
    wings = (club_storage.SCHEMA,)  # the club's roster and roles (bot/club/, owner `club`)
    # the club's records: members are names the scorer types, not accounts (a /forgetme keeps them)
    personal = (Kept("kegeln_members", ("member", "name"), "a club member's name: the club's records"),
                Kept("kegeln_throws", ("member", "name"), "a club member's name: the club's records"),
                Kept("kegeln_games", ("winner",), "a club member's name: the club's records"),
                # the club evenings (termin_storage.py): who set one, who answered — accounts, so personal;
                # anonymised, so that an evening's list and counts stay as they were
                Personal("kegel_evening_dates", user="set_by"),
                Personal("kegel_evening_answers", user="user_id", name="name", platform="",
                         where="evening_id IN (SELECT id FROM kegel_evening_dates WHERE platform = :platform)"),
                # the cash box (cash_storage.py): the treasurer and who booked a line are accounts, anonymised
                # (the lines, amounts and balances stay: a member is the club's record, kept)
                Personal("kegel_cash_settings", user="treasurer_id", name="treasurer_name"),
                Personal("kegel_cash_book", user="by_id", name="by_name"),
                Kept("kegel_cash_book", ("member", "name"), "a club member's name: the club's records"),
                Kept("kegel_cash_members", ("member", "name"), "a club member's name: the club's records"),
                Personal("kegel_cash_members", user="user_id"),  # the account linked to a member: unlinked
                Kept("kegel_cash_fines", ("name",), "a fine's name the club chose: nobody's data"),
                # the club's roles and roster (bot/club/): an appointed scorer is an account (the role goes);
                # a member's linked account is anonymised (the member, a name, stays the club's)
                Personal("club_roles", user="user_id", name="name", forget="delete"),
                Personal("club_roles", user="by_id"),
                Personal("club_members", user="user_id"),
                Personal("club_members", user="added_by"),
                Kept("club_members", ("member", "name"), "a club member's name: the club's roster"))
    # the scorer's work and the club's tables: a group's anonymous admin may do them (its admins may score)
    commands = (
        Command("kegeln", ("mode", "places", "names"), cmd_kegeln, personal=False, choices=(("mode", ("high", "low")),
                                                                              ("places", PLACES))),
        Command("wurf", ("pins", "position"), cmd_wurf, personal=False),
        Command("throw", ("pins", "position"), cmd_throw, personal=False),
        Command("undo", (), cmd_undo, personal=False),
        Command("scorer", ("user",), cmd_scorer, personal=False),
        Command("winner", ("name",), cmd_winner, personal=False,
                aliases=(("de", "sieger"), ("sv", "vinnare"), ("ru", "победитель"), ("ru", "pobeditel"),
                         ("bg", "победител"), ("bg", "pobeditel"))),
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

    async def chat_action(self, svc: Services, turn: Turn, chat: Chat, arg: str) -> None:
        if arg.startswith("cash_"):  # the cash box's buttons (bot/games/kegeln/cash_cmd.py)
            await cash_cmd.chat_action(svc, turn, chat, arg)
        elif not await termin.answer(svc, turn, chat, arg):  # ✅/❌ on an evening, else a /kegelmerge answer
            await merge.answer_merge(svc, turn, chat, arg)

    async def scheduled(self, svc: Services, job: Job) -> list[Message]:
        """The club evening's reminders (`termin:<id>:day|hour`, bot/games/kegeln/termin.py)."""
        return await termin.reminder(svc, job) if job.key.startswith("termin:") else []

    def writes(self, svc: Services, row: GameRow, old: State, new: State, over: bool) -> TxJob | None:
        own = both(play.move_writes(svc, row, old, new, over), cash_fines.move_job(row, new, svc.clock()))
        notify = tv.move_job(svc, row.platform, row.chat_id)  # the TV pages in every process (PostgreSQL)
        return own if notify is None else both(own, notify)

    async def after_save(self, svc: Services, turn: Turn, chat: Chat, state: State, over: bool) -> None:
        tv.saved(svc, chat)  # this process's TV pages of the chat

    async def rated(self, svc: Services, row: GameRow, state: State, results: list[NewResult]) -> Match | None:
        return play.kegeln_match(records.member_records(state), bool(state.teams))

    # a member's, by name (the club's records, as the ratings): the scorer's account earns none
    achievements = (FIRST_WIN, ALLE_NEUNE)
    forgotten_player_ends = False  # a scorer's /forgetme leaves the club's evening running (an admin scores on)

    async def feats(self, svc: Services, row: GameRow, state: State, results: list[NewResult],
                    at: float) -> list[Feat]:
        return [Feat(m.name.casefold(), m.name, m.win, nines=m.nines) for m in records.member_records(state)]


PLUGIN = KegelnPlugin()
