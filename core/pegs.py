"""The eight colours and five pegs of a Logik row (docs/rules.md §2), shared by the games that play
rows of colours (Logik, the daily puzzle): the colours' order, names and symbols, and reading a typed
row. Colour initials are localised: the App reads them from the catalogs and passes them in."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

from core.errors import GameError
from core.messages import Text

PEGS = 5
SEPARATORS = " ,;-/|·"


@dataclass(frozen=True)
class Colour:
    """One of the eight colours: its number (what the state stores), catalog keys, text symbol, RGB."""

    number: int
    name_key: str
    initial_key: str
    symbol: str
    rgb: tuple[int, int, int]


COLOURS: tuple[Colour, ...] = (
    Colour(1, "logik.colour.red", "logik.initial.red", "🟥", (220, 38, 38)),
    Colour(2, "logik.colour.green", "logik.initial.green", "🟩", (34, 160, 70)),
    Colour(3, "logik.colour.blue", "logik.initial.blue", "🟦", (37, 99, 235)),
    Colour(4, "logik.colour.yellow", "logik.initial.yellow", "🟨", (250, 204, 21)),
    Colour(5, "logik.colour.orange", "logik.initial.orange", "🟧", (249, 115, 22)),
    Colour(6, "logik.colour.purple", "logik.initial.purple", "🟪", (147, 51, 234)),
    Colour(7, "logik.colour.white", "logik.initial.white", "⬜", (245, 245, 245)),
    Colour(8, "logik.colour.black", "logik.initial.black", "⬛", (23, 23, 23)),
)
BY_NUMBER = {c.number: c for c in COLOURS}


def legend() -> Text:
    """Every colour with its symbol, number, localised initial and name (Logik and its daily puzzle)."""
    return Text("logik.legend", {f"c{c.number}": Text("logik.legend_item", {
        "symbol": c.symbol, "number": c.number, "initial": Text(c.initial_key), "name": Text(c.name_key)})
        for c in COLOURS})


def parse_row(text: str, letters: Mapping[str, str]) -> str:
    """The code (5 digits 1–8) a player wrote as digits and/or colour initials, else a GameError."""
    raw = "".join(ch for ch in text.strip() if ch not in SEPARATORS)
    if len(raw) != PEGS:
        raise GameError("logik.row_length", n=len(raw), pegs=PEGS)
    code, bad = [], []
    for ch in raw:
        low = ch.lower()
        if low in "12345678":
            code.append(low)
        elif low in letters:
            code.append(letters[low])
        else:
            bad.append(ch)
    if bad:
        raise GameError("logik.bad_symbol", given="".join(bad)[:10])
    return "".join(code)
