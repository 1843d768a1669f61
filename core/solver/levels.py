"""The computer's levels by name: plain data, importable without loading the solver."""

EASY, STRONG, PERFECT = "easy", "strong", "perfect"
LEVELS = (EASY, STRONG, PERFECT)  # perfect: the space's shipped optimal tree (core/solver/perfect.py)
