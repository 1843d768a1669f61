"""The cash book as a spreadsheet-safe CSV file (the year's close): one row per line, amounts as plain
decimal numbers in the reader's conventions (German: `;` between cells and a decimal comma, as German
Excel reads a CSV), every text cell guarded as /kegelexport's are (core/club/summary.py `cell`).
The XLSX beside it is bot/club/cash/xlsx.py."""

from __future__ import annotations

import csv
import io
from collections.abc import Mapping, Sequence
from datetime import UTC, datetime
from decimal import Decimal
from typing import NamedTuple

from core.club.summary import cell

CSV_HEADER = ("date", "season", "member", "kind", "fine", "amount", "currency", "game", "booked_by", "note")


class CsvLine(NamedTuple):
    at: float
    season: str
    name: str
    kind: str
    code: str
    amount: int
    game_id: int | None
    by_name: str
    note: str


def amount_value(amount: int, decimals: int) -> Decimal:
    """Minor units as the decimal number they are (`-0.10`, `15`), never a float."""
    return Decimal(amount).scaleb(-decimals) if decimals else Decimal(amount)


def amount_text(amount: int, decimals: int, mark: str = ".") -> str:
    """Minor units as a plain decimal number (`-0.10`, `15`; `-0,10` with `mark` ","): what a spreadsheet
    of that locale reads as a number."""
    return str(amount_value(amount, decimals)).replace(".", mark)


def file_name(chat_id: str, season: str, ext: str = "csv") -> str:
    """`kasse-<chat>-<season>.<ext>`, reduced to letters, digits, `-` and `_`."""
    safe = "".join(ch if ch.isascii() and (ch.isalnum() or ch in "-_") else "_" for ch in chat_id).strip("_")
    return f"kasse-{safe or 'chat'}-" + "".join(ch if ch.isdigit() else "-" for ch in season) + f".{ext}"


def separator(mark: str) -> str:
    """The cell separator a spreadsheet of a locale expects: `;` where the decimal mark is a comma (German,
    Swedish, Russian, Bulgarian Excel split a CSV at `;`), else `,`."""
    return ";" if mark == "," else ","


def book_csv(lines: Sequence[CsvLine], currency: str, decimals: int, mark: str = ".",
             header: Sequence[str] = CSV_HEADER, kinds: Mapping[str, str] | None = None) -> bytes:
    """UTF-8 with BOM (spreadsheets then show umlauts); `date` in UTC; names and notes never start a
    formula (`cell`); the game empty for a line of no game; amounts with the reader's decimal `mark` and
    cells separated as its spreadsheet expects (`separator`); `header`: the column names in the reader's
    language (CSV_HEADER's order); `kinds`: a line's kind as the reader reads it (else its code)."""
    out = io.StringIO(newline="")
    writer = csv.writer(out, delimiter=separator(mark))
    writer.writerow(header)
    for ln in lines:
        when = datetime.fromtimestamp(ln.at, UTC).strftime("%Y-%m-%d %H:%M:%S")
        kind = (kinds or {}).get(ln.kind, ln.kind)
        writer.writerow((when, ln.season, cell(ln.name), kind, cell(ln.code), amount_text(ln.amount, decimals, mark),
                         currency, "" if ln.game_id is None else ln.game_id, cell(ln.by_name), cell(ln.note)))
    return out.getvalue().encode("utf-8-sig")
