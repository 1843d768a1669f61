"""The duel game as one package: its rules (state machine, options, presenter). The names of
`rules` are re-exported here, so `from core.games import duel` reads the game's rules."""

from core.games.duel.game import Duel
from core.games.duel.rules import *  # noqa: F403

GAME = Duel()
