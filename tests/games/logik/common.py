"""Shared helpers for the Logik tests."""

from __future__ import annotations

import random

from core.games.actions import Accept, Guess, SetSecret
from core.games.base import Ctx, Player
from core.games.logik import rules as logik
from core.messages import Chat

A, B = Player("a", "Alice"), Player("b", "Bob")
CHAT = Chat("console", "#t", False)
# the letters the App builds from the en and de catalogs
LETTERS = {"r": "1", "g": "2", "b": "3", "y": "4", "e": "4", "o": "5", "p": "6", "l": "6", "w": "7", "k": "8",
           "s": "8"}
# … and the ones the ru, bg and sv catalogs add (Cyrillic letters are their own code points, not Latin look-alikes)
LETTERS |= {"к": "1", "р": "1", "з": "2", "с": "3", "ж": "4", "u": "4", "о": "5", "ф": "6", "л": "6", "б": "7",
            "v": "7", "ч": "8"}


def ctx(seed: int = 0, now: float = 1.0) -> Ctx:
    return Ctx(now=now, rng=random.Random(seed))


def playing(secret_a: str = "12345", secret_b: str = "54321", rows: int = 10) -> logik.State:
    """After both secrets: Alice (white) cracks Bob's secret, Bob cracks Alice's."""
    s, _ = logik.new(A, B, rows, LETTERS, ctx())
    s, _ = logik.apply(s, Accept("Bob"), "b", ctx())
    s, _ = logik.apply(s, SetSecret(secret_a), "a", ctx())
    s, _ = logik.apply(s, SetSecret(secret_b), "b", ctx())
    return s


def round_(s: logik.State, row_a: str, row_b: str) -> tuple[logik.State, list[str]]:
    s, ev1 = logik.apply(s, Guess(row_a), "a", ctx())
    s, ev2 = logik.apply(s, Guess(row_b), "b", ctx())
    return s, [e.type for e in ev1 + ev2]
