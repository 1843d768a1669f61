"""Code spaces (alphabet, length, repeats) and the games' spaces: plain data, no numpy, so that the
bot's own process can name a space without loading the solver (which runs in worker processes)."""

from __future__ import annotations

import math
from dataclasses import dataclass


@dataclass(frozen=True)
class Spec:
    """A code space: alphabet (ordered symbols), length, repeats allowed."""

    alphabet: tuple[str, ...]
    length: int
    repeats: bool

    @property
    def name(self) -> str:
        return f"{''.join(self.alphabet)}-{self.length}{'r' if self.repeats else ''}"

    @property
    def size(self) -> int:
        k, n = len(self.alphabet), self.length
        return k**n if self.repeats else math.perm(k, n)

    def pack(self, a: int, b: int) -> int:
        return a * (self.length + 1) + b

    def unpack(self, fb: int) -> tuple[int, int]:
        return divmod(int(fb), self.length + 1)

    @property
    def win(self) -> int:
        return self.pack(self.length, 0)


DIGITS = tuple("0123456789")


def digits(length: int, repeats: bool) -> Spec:
    """Zahlenraten 1A2B: digits 0–9."""
    return Spec(DIGITS, length, repeats)


LOGIK = Spec(tuple("12345678"), 5, True)  # 8 colours × 5 pegs, repeats
MASTERMIND = Spec(tuple("123456"), 4, True)  # the classic 6 colours × 4 pegs (sanity check)
