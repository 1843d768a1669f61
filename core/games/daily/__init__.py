"""The daily puzzle as one package: its rules and presenter (docs/daily.md). The names of `rules` are
re-exported here, so `from core.games import daily` reads the game's rules."""

from core.games.daily.game import Daily
from core.games.daily.rules import *  # noqa: F403

GAME = Daily()
