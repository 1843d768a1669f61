"""Logik as one package: `rules` (state machine, options), `presenter` (texts, buttons) and `picture`
(the PNG board). Their names are re-exported here, so `from core.games import logik` reads both."""

from core.games.logik.game import Logik
from core.games.logik.presenter import *  # noqa: F403
from core.games.logik.rules import *  # noqa: F403

GAME = Logik()
