"""The cash book as a spreadsheet-safe CSV file (the year's close): one row per line, amounts as plain
decimal numbers, every text cell guarded as /kegelexport's are (core/games/kegeln/report.py `cell`)."""

from __future__ import annotations

import csv
import io
from collections.abc import Sequence
from datetime import UTC, datetime
from decimal import Decimal
from typing import NamedTuple

from core.games.kegeln.report import cell

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


def amount_text(amount: int, decimals: int) -> str:
    """Minor units as a plain decimal number (`-0.10`, `15`): what every spreadsheet reads as a number."""
    return str(Decimal(amount).scaleb(-decimals)) if decimals else str(amount)


def file_name(chat_id: str, season: str) -> str:
    """`kasse-<chat>-<season>.csv`, reduced to letters, digits, `-` and `_`."""
    safe = "".join(ch if ch.isascii() and (ch.isalnum() or ch in "-_") else "_" for ch in chat_id).strip("_")
    return f"kasse-{safe or 'chat'}-" + "".join(ch if ch.isdigit() else "-" for ch in season) + ".csv"


def book_csv(lines: Sequence[CsvLine], currency: str, decimals: int) -> bytes:
    """UTF-8 with BOM (spreadsheets then show umlauts); `date` in UTC; names and notes never start a
    formula (`cell`); the game empty for a line of no game."""
    out = io.StringIO(newline="")
    writer = csv.writer(out)
    writer.writerow(CSV_HEADER)
    for ln in lines:
        when = datetime.fromtimestamp(ln.at, UTC).strftime("%Y-%m-%d %H:%M:%S")
        writer.writerow((when, ln.season, cell(ln.name), ln.kind, cell(ln.code), amount_text(ln.amount, decimals),
                         currency, "" if ln.game_id is None else ln.game_id, cell(ln.by_name), cell(ln.note)))
    return out.getvalue().encode("utf-8-sig")
