"""Digit codes for Zahlenraten 1A2B: options, validation, random codes."""

from __future__ import annotations

import random
from dataclasses import dataclass

from core.errors import GameError
from core.messages import Text

LENGTHS = (3, 4, 5)
DEFAULT_LENGTH = 4


@dataclass(frozen=True)
class CodeRules:
    """Length 3–5, digits 0–9 with a leading 0 allowed; distinct digits unless `repeats`."""

    length: int = DEFAULT_LENGTH
    repeats: bool = False

    def __post_init__(self) -> None:
        if self.length not in LENGTHS:
            raise GameError("bad_length", given=self.length, lengths="/".join(map(str, LENGTHS)))

    @property
    def space(self) -> int:
        """How many codes exist under these rules (720/5040/30240 or 10^n)."""
        if self.repeats:
            return int(10**self.length)  # an int, but typed Any (a negative power would be a float)
        n = 1
        for i in range(self.length):
            n *= 10 - i
        return n

    def validate(self, text: str) -> str:
        """The code in `text`, or a GameError that says what is wrong."""
        code = text.strip()
        if not code.isascii() or not code.isdigit():
            raise GameError("code_not_digits", given=code[:20], length=self.length,
                            repeats=Text("option.repeats_on" if self.repeats else "option.repeats_off"))
        if len(code) != self.length:
            raise GameError("code_length", given=len(code), length=self.length, n=len(code))
        if not self.repeats and len(set(code)) != len(code):
            raise GameError("code_repeats", code=code)
        return code

    def random_code(self, rng: random.Random) -> str:
        """A uniformly random valid code, from the injected generator."""
        if self.repeats:
            return "".join(rng.choice("0123456789") for _ in range(self.length))
        return "".join(rng.sample("0123456789", self.length))


@dataclass(frozen=True)
class Attempt:
    """One guess at a digit code and its feedback xAyB (practice and duel keep these)."""

    code: str
    a: int
    b: int


def looks_like_code(text: str) -> bool:
    """Cheap test for routing a player's plain message as a guess: a short run of ASCII
    digits (a wrong length is then refused with the reason rather than ignored)."""
    t = text.strip()
    return t.isascii() and t.isdigit() and 2 <= len(t) <= 8
