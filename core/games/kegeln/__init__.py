"""The kegeln game as one package: its rules (state machine, options, presenter), chart and report. The names of
`rules` are re-exported here, so `from core.games import kegeln` reads the game's rules."""

from core.games.kegeln.game import Kegeln
from core.games.kegeln.rules import *  # noqa: F403

GAME = Kegeln()
