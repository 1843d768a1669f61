"""The 1A2B duel as one package: `rules` (state, moves), `events`, `presenter` (texts, buttons, board)
and `game`, the class the App plays it through; `GAME` is its one object."""

from core.games.duel.game import Duel

GAME = Duel()
