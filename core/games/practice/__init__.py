"""The practice game as one package: its rules (state machine, options, presenter). The names of
`rules` are re-exported here, so `from core.games import practice` reads the game's rules."""

from core.games.practice.game import Practice
from core.games.practice.rules import *  # noqa: F403

GAME = Practice()
