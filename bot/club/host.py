"""The game the club plays, as the club knows it: `ClubGames`, what the club may ask of a stored game (the
game's plugin carries one as its `club`: Hausnummern's, bot/games/kegeln/__init__.py), found with `host`.
That plugin also carries the club's commands, so the club's buttons are routed to it (`action`: the prefix
`<kind>:<chat>:` every message already sent has). The club never reads a game's state itself."""

from __future__ import annotations

from typing import Any, NamedTuple, Protocol

from bot.games.plugin import Services
from bot.storage.base import GameRow
from core.club.records import Played


class ClubGames(Protocol):
    """What the club asks of the game its club games are played in."""

    def played(self, row: GameRow) -> Played:
        """A stored game as the club sees it (core/club/records.py)."""

    def renamed(self, state: dict[str, Any], old: str, name: str) -> dict[str, Any] | None:
        """A stored game's state with member `old` (names' key) written `name`, or None (unchanged):
        /kegelmerge renames a member in the finished games too."""


class Host(NamedTuple):
    kind: str  # the game's kind: its stored games, its buttons' prefix
    games: ClubGames


def host(svc: Services) -> Host:
    """The game the club plays (the plugin carrying a `club`)."""
    for kind, plugin in svc.plugins.items():
        games = getattr(plugin, "club", None)
        if games is not None:
            return Host(kind, games)
    raise LookupError("no game carries the club")


def is_club_game(svc: Services, row: GameRow) -> bool:
    """A stored game that counts for the club: the club's game, started by a chat admin or an appointed
    scorer (every game stored before the club's roles existed counts); a casual game does not."""
    club = host(svc)
    return row.kind == club.kind and club.games.played(row).club


def action(svc: Services, chat_id: str, arg: str) -> str:
    """A club button's action: routed to the plugin that carries the club (its `chat_action`)."""
    return f"{host(svc).kind}:{chat_id}:{arg}"
