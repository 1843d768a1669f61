"""The computer's levels by name: plain data, importable without loading the solver."""

EASY, STRONG = "easy", "strong"
LEVELS = (EASY, STRONG)
