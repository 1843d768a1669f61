"""Logik as one package: `rules` (state, moves, options), `events`, `presenter` (texts, buttons),
`picture` (the PNG board) and `game`, the class the App plays it through; `GAME` is its one object."""

from core.games.logik.game import Logik

GAME = Logik()
