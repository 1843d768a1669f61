"""Hausnummern (kind `kegeln`), the Kegel club's game: `GAME`; its state, actions, option parsing, rules, records,
presenter, charts and reports are the modules of this package."""

from core.games.kegeln.game import Kegeln

GAME = Kegeln()
"""Kegeln through the App's game interface (core/games/base.py)."""
