"""The words game as one package: its rules (state machine, options, presenter). The names of
`rules` are re-exported here, so `from core.games import words` reads the game's rules."""

from core.games.words.game import Words
from core.games.words.rules import *  # noqa: F403

GAME = Words()
