"""Which stored games are the club's: one question for every reader of the club's games (the TV page's
evening, a rebuild), so that a casual game is left out everywhere alike."""

from __future__ import annotations

from bot.storage.base import GameRow
from core import serial
from core.games.kegeln import GAME, records
from core.games.kegeln.state import State


def is_club_game(row: GameRow) -> bool:
    """A stored Kegeln game that counts for the club (started by a chat admin or an appointed scorer; every
    game stored before the club's roles existed counts). Another game kind is no club game."""
    return row.kind == GAME.kind and records.is_club(serial.load(State, row.state))
