"""Kegeln (Hausnummern), bot-side: the plugin (`PLUGIN`) and its commands; play, statistics, recaps, export,
seasons, merges and storage each in a module of this package."""

from __future__ import annotations

from bot.games.kegeln import merge, play
from bot.games.kegeln.export import cmd_kegelexport
from bot.games.kegeln.merge import cmd_kegelmerge
from bot.games.kegeln.play import cmd_kegeln, cmd_scorer, cmd_throw, cmd_undo, cmd_winner, cmd_wurf
from bot.games.kegeln.recap import cmd_abend, cmd_jahresrueckblick
from bot.games.kegeln.season import cmd_saison
from bot.games.kegeln.stats import cmd_kegelstats
from bot.games.plugin import GamePlugin
from bot.services import Command, Handling, Services
from bot.storage.base import GameRow, NewResult
from bot.storage.sql import TxJob
from bot.yourdata.declare import Kept
from core.achievements import ALLE_NEUNE, FIRST_WIN, Feat
from core.games.kegeln import GAME, records
from core.games.kegeln.state import MAX_DIGITS, MIN_DIGITS, State
from core.messages import Chat
from core.ratings import Match

PLACES = tuple(str(n) for n in range(MIN_DIGITS, MAX_DIGITS + 1))  # Hausnummern digits


class KegelnPlugin(GamePlugin[State]):
    game = GAME
    title = "game.kegeln"
    # the club's records: members are names the scorer types, not accounts (a /forgetme keeps them)
    personal = (Kept("kegeln_members", ("member", "name"), "a club member's name: the club's records"),
                Kept("kegeln_throws", ("member", "name"), "a club member's name: the club's records"),
                Kept("kegeln_games", ("winner",), "a club member's name: the club's records"))
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
    )

    async def chat_action(self, svc: Services, turn: Handling, chat: Chat, arg: str) -> None:
        await merge.answer_merge(svc, turn, chat, arg)

    def writes(self, svc: Services, row: GameRow, old: State, new: State, over: bool) -> TxJob | None:
        return play.move_writes(svc, row, old, new, over)

    async def rated(self, svc: Services, row: GameRow, state: State, results: list[NewResult]) -> Match | None:
        return play.kegeln_match(records.member_records(state), bool(state.teams))

    # a member's, by name (the club's records, as the ratings): the scorer's account earns none
    achievements = (FIRST_WIN, ALLE_NEUNE)
    forgotten_player_ends = False  # a scorer's /forgetme leaves the club's evening running (an admin scores on)

    async def feats(self, svc: Services, row: GameRow, state: State, results: list[NewResult],
                    at: float) -> list[Feat]:
        return [Feat(m.name.casefold(), m.name, m.win, nines=m.nines) for m in records.member_records(state)]


PLUGIN = KegelnPlugin()
