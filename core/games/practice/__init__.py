"""Practice (1A2B alone) as one package: `rules` (state, moves, ratings), `events`, `presenter` (texts,
buttons, board) and `game`, the class the App plays it through; `GAME` is its one object."""

from core.games.practice.game import Practice

GAME = Practice()
