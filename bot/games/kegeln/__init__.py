"""Kegeln (Hausnummern), bot-side: the plugin (`PLUGIN`), its commands and how it reports its games to the
club (`club`, bot/club/host.py; after each move `writes` hands the club what the move did). The plugin also
carries the club's commands (bot/club/: roster, cash box, evenings, season, records) — a plugin is the one
way to add commands — and routes the club's buttons and the TV page's running game (`screen`, bot/web/)."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from bot.app.runner import both
from bot.app.turn import Command, Turn
from bot.club import games as club_games
from bot.club import schema as club_schema
from bot.club import wing as club_wing
from bot.games.kegeln import play
from bot.games.kegeln.play import cmd_kegeln, cmd_scorer, cmd_throw, cmd_undo, cmd_winner, cmd_wurf
from bot.games.kegeln.screen import SCREEN
from bot.games.plugin import GamePlugin, Services
from bot.storage.base import GameRow, NewResult
from bot.storage.sql import TxJob
from bot.web import hooks as tv
from core import serial
from core.achievements import ALLE_NEUNE, FIRST_WIN, Feat
from core.club.records import Played
from core.games.kegeln import GAME, records
from core.games.kegeln.state import MAX_DIGITS, MIN_DIGITS, State
from core.messages import Chat
from core.ratings import Match


class ForTheClub:
    """What the club asks of a stored Hausnummern game (bot/club/host.py `ClubGames`)."""

    def played(self, row: GameRow) -> Played:
        return records.played(serial.load(State, row.state))

    def renamed(self, state: dict[str, Any], old: str, name: str) -> dict[str, Any] | None:
        new = records.renamed(serial.load(State, state), old, name)
        return None if new is None else serial.dump(new)


PLACES = tuple(str(n) for n in range(MIN_DIGITS, MAX_DIGITS + 1))  # Hausnummern digits


class KegelnPlugin(GamePlugin[State]):
    game = GAME
    title = "game.kegeln"
    # the club's evenings and cash box were first shipped in this game's own list: kept there (its version
    # is kept under this name), the club owns their reads and writes (bot/club/schema.py)
    schema = club_schema.shipped_under(GAME.kind)
    wings = (club_schema.CLUB,)  # the club's roster and roles (bot/club/, owner `club`)
    personal = club_schema.PERSONAL  # the club's tables (bot/club/schema.py)
    club = ForTheClub()  # how the club reads this game's stored games (bot/club/host.py)
    screen = SCREEN  # the running game on the club's TV page (bot/web/screen.py)
    # the scorer's work: a group's anonymous admin may do it (its admins may score)
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
        *club_wing.COMMANDS,  # the club's (bot/club/wing.py, docs/club.md) and its TV page's (docs/tv.md)
    )

    async def chat_action(self, svc: Services, turn: Turn, chat: Chat, arg: str) -> None:
        await club_wing.chat_action(svc, turn, chat, arg)  # every button of this game's own is a move

    def writes(self, svc: Services, row: GameRow, old: State, new: State, over: bool) -> TxJob | None:
        """The move's own writes (the scorer's seat), what it means for the club (bot/club/games.py: its
        records, roster and fines) and the TV pages' nudge, all in the move's transaction."""
        club = club_games.move_job(row, records.played(old), records.played(new), svc.clock())
        own = play.move_writes(row, old, new)
        if club is not None:
            own = both(own, club)
        notify = tv.move_job(svc, row.platform, row.chat_id)  # the TV pages in every process (PostgreSQL)
        return own if notify is None else both(own, notify)

    async def after_save(self, svc: Services, turn: Turn, chat: Chat, state: State, over: bool,
                         saved: tuple[int, int, dict[str, Any]]) -> None:
        tv.saved(svc, chat, None if over else saved)  # the move's result to this process's TV pages (an end: they read)

    rated_in_chat = True  # its players are the club's members, names within the chat

    async def rated(self, svc: Services, row: GameRow, state: State, results: list[NewResult]) -> Match | None:
        match = play.kegeln_match(records.member_records(state), bool(state.teams))
        return replace(match, local=self.rated_in_chat) if match else None

    # a member's, by name (the club's records, as the ratings): the scorer's account earns none
    achievements = (FIRST_WIN, ALLE_NEUNE)
    forgotten_player_ends = False  # a scorer's /forgetme leaves the club's evening running (an admin scores on)

    async def feats(self, svc: Services, row: GameRow, state: State, results: list[NewResult],
                    at: float) -> list[Feat]:
        return [Feat(m.name.casefold(), m.name, m.win, nines=m.nines) for m in records.member_records(state)]


PLUGIN = KegelnPlugin()
