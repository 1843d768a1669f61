"""`LobbyGame`: the part of the game interface (core/games/base.py) only a game with a lobby has, one that
players /join and /leave while it runs (the word game's group match)."""

from __future__ import annotations

from core.games.base import Game, S


class LobbyGame(Game[S]):
    """A game players join and leave by command: /join and /leave (bot/games/shared.py) ask it what they
    mean now."""

    def join_action(self, state: S, user_id: str, name: str) -> object | None:
        """/join: the action that seats this player now (None: the game takes nobody now)."""
        return None

    def leave_action(self, state: S, user_id: str) -> object | None:
        """/leave."""
        return None
