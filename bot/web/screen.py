"""What a game shows on the club's TV page, as a neutral hook: the game's plugin carries a `Screen` as its
`screen` (Hausnummern's: bot/games/kegeln/screen.py), so that bot/web/ names no game and reads no game's
state. The evening beside it is the club's (bot/club/tv.py)."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any, Protocol

from bot.games.plugin import Services
from bot.storage.base import GameRow
from core.messages import Text

Say = Callable[[Text | str], str]  # a text in the page's language
MAX_LANES = 4  # the most games the page splits its screen between (a club hall with four lanes)


class Screen(Protocol):
    def shows(self, row: GameRow) -> bool:
        """THE one place that says whether a stored game shows on the chat's TV (the club's games only:
        a member's casual game never takes the club's screen)."""

    def scorer(self, row: GameRow) -> str:
        """The account keeping a running game's score (it may have the page's link)."""

    def view(self, running: Sequence[GameRow], ended: Sequence[GameRow], now: float, say: Say) -> dict[str, Any]:
        """The screen's part of the page (`screen`: game, lanes or idle; `game`; `lanes`) from the running
        games it shows and those that ended tonight (oldest first, at most MAX_LANES)."""


def screen_of(svc: Services) -> Screen | None:
    """The game whose games the TV page shows (the plugin carrying a `screen`), or None."""
    for plugin in svc.plugins.values():
        shown = getattr(plugin, "screen", None)
        if shown is not None:
            return shown  # type: ignore[no-any-return]
    return None
