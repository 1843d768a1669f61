"""The cash book (the ledger) as a real XLSX workbook (openpyxl), beside the CSV of core/club/cash/export.py:
amounts are numbers (any spreadsheet sums them, whatever its locale), dates are dates, and every text
cell is a string — a name like `=HYPERLINK(…)` is never a formula."""

from __future__ import annotations

import io
from collections.abc import Mapping, Sequence
from datetime import UTC, datetime
from typing import TYPE_CHECKING

from core.club.cash.export import CSV_HEADER, CsvLine, amount_value
from core.club.summary import cell

if TYPE_CHECKING:  # openpyxl (and the numpy it loads) is imported when a workbook is made, not at start-up
    from openpyxl.cell.cell import Cell, MergedCell


def _text(c: Cell | MergedCell, value: str) -> None:
    """A string cell, never a formula: guarded as the CSV's (`cell`) and typed as a string."""
    from openpyxl.cell.cell import Cell

    assert isinstance(c, Cell)  # the sheets merge no cells
    c.value = cell(value)
    c.data_type = "s"


def book_xlsx(lines: Sequence[CsvLine], currency: str, decimals: int, sheets: tuple[str, str],
              header: Sequence[str] = CSV_HEADER, kinds: Mapping[str, str] | None = None) -> bytes:
    """Two sheets (`sheets`: their titles in the reader's language): the cash book's lines with the CSV's
    columns (`header`: their names in the reader's language; `kinds`: a line's kind as the reader reads
    it), and each member's sum over them (what the lines add up to: the balances of the season)."""
    from openpyxl import Workbook
    from openpyxl.utils import get_column_letter

    workbook = Workbook()
    lines_sheet = workbook.active
    assert lines_sheet is not None
    lines_sheet.title = sheets[0][:31]
    lines_sheet.append(list(header))
    money = "#,##0" + ("." + "0" * decimals if decimals else "")
    sums: dict[str, int] = {}
    for n, ln in enumerate(lines, start=2):
        lines_sheet.append([datetime.fromtimestamp(ln.at, UTC).replace(tzinfo=None), ln.season, "",
                            (kinds or {}).get(ln.kind, ln.kind), "",
                            amount_value(ln.amount, decimals), currency, ln.game_id, "", ""])
        for col, value in ((3, ln.name), (5, ln.code), (9, ln.by_name), (10, ln.note)):
            _text(lines_sheet.cell(n, col), value)
        lines_sheet.cell(n, 1).number_format = "yyyy-mm-dd hh:mm:ss"
        lines_sheet.cell(n, 6).number_format = money
        if ln.kind != "expense":  # the club's own lines are in no member's balance
            sums[ln.name] = sums.get(ln.name, 0) + ln.amount
    balances = workbook.create_sheet(sheets[1][:31])
    balances.append([header[2], header[5], header[6]])  # member, amount, currency
    for n, (name, amount) in enumerate(sorted(sums.items(), key=lambda nv: (-nv[1], nv[0])), start=2):
        balances.append(["", amount_value(amount, decimals), currency])
        _text(balances.cell(n, 1), name)
        balances.cell(n, 2).number_format = money
    for sheet, widths in ((lines_sheet, (20, 8, 20, 12, 16, 12, 9, 8, 16, 40)), (balances, (20, 12, 9))):
        for i, width in enumerate(widths, start=1):
            sheet.column_dimensions[get_column_letter(i)].width = width
    out = io.BytesIO()
    workbook.save(out)
    return out.getvalue()
