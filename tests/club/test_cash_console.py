"""The cash box end to end through the real `python -m bot` console process (`--admin dave`: the
console's chat admin): an evening with throws, its automatic fines, an /undo that takes one back, a
refused and a booked payment, the balances and the cash book's CSV file."""

from __future__ import annotations

import csv
from pathlib import Path

import openpyxl

from tests.console.test_console_process import play


def test_console_cash_evening(tmp_path: Path) -> None:
    script = "\n".join([
        "bob: /kasse on", "dave: /kasse on", "alice: hi", "dave: /verein scorer alice",  # alice: the club's scorer
        "alice: /kegeln high 2 Anna Ben", "alice: /wurf 0 t", "alice: /kasse", "alice: /undo", "alice: /kasse",
        "alice: /wurf 0 t", "alice: /wurf 5 t", "alice: /wurf 3", "alice: /wurf 5",
        "alice: /kasse pay Anna 0,60", "bob: /kasse pay Anna 0,60", "dave: /kasse pay Anna 0,50",
        "bob: /kassa", "bob: /kasse book"]) + "\n"
    out = play(tmp_path / "db.sqlite3", script, "--admin", "dave")
    assert "bob: Only a chat admin can change the cash box's settings" in out
    assert "✅ The cash box is on (EUR)" in out and "Treasurer: dave." in out
    assert "Anna: owes €0.10" in out  # the Pumpe, booked with the throw ...
    assert "Nobody owes anything." in out  # ... and taken back by /undo
    assert "alice: Only the treasurer dave books money" in out and "bob: Only the treasurer dave books money" in out
    assert "✅ Anna paid €0.50 (booked by dave). Balance: €0.10." in out
    assert "Anna: owes €0.10" in out.split("Anna paid")[1]
    marker = "📄 The cash book of season"
    assert marker in out
    path = Path(out.split(marker)[1].splitlines()[1].strip())
    rows = list(csv.reader(path.read_text(encoding="utf-8-sig").splitlines()))
    auto = "from the throws"
    assert [r[2:6] for r in rows[1:]] == [["Anna", auto, "Pumpe", "0.10"], ["Anna", auto, "Pumpe", "-0.10"],
                                          ["Anna", auto, "Pumpe", "0.10"], ["Anna", auto, "last place", "0.50"],
                                          ["Anna", "paid", "", "-0.50"]]


def test_console_treasurer_fee_dues_expense_till_box_off_and_reasons(tmp_path: Path) -> None:
    """A fee for a member without a game, the dues set, an expense and the till, a payment with the box off,
    and the reasons in the statement, the CSV and the XLSX — through the real console process."""
    script = "\n".join([
        "dave: /kasse on", "dave: /kasse fee Dora Berg 20 joined in March", "dave: /kasse dues 5 monthly",
        "dave: /kasse fine Dora Berg 0,30 phone at the table", "dave: /kasse expense 45 lane rent",
        "dave: /kasse off", "dave: /kasse pay Dora Berg 20 cash at the bar", "bob: /kasse", "bob: /kasse Dora Berg",
        "bob: /kasse book"]) + "\n"
    out = play(tmp_path / "db.sqlite3", script, "--admin", "dave")
    assert "✅ Entry fee for Dora Berg: €20.00 — joined in March (booked by dave). Balance: €20.00." in out, out
    assert "✅ The dues are €5.00 a month (on the 1st)" in out
    assert "✅ Paid out €45.00 — lane rent (booked by dave). In the till: −€45.00." in out
    assert "✅ Dora Berg paid €20.00 — cash at the bar (booked by dave). Balance: €0.30." in out  # the box is off
    assert "Paid in: €20.00 · paid out: €45.00 · in the till: −€25.00" in out
    assert "entry fee €20.00 — joined in March" in out and "fine €0.30 — phone at the table" in out
    marker = "📄 The cash book of season"
    path = Path(out.split(marker)[1].splitlines()[1].strip())
    rows = list(csv.DictReader(path.read_text(encoding="utf-8-sig").splitlines()))
    assert [(r["kind"], r["note"]) for r in rows] == [("entry fee", "joined in March"),
                                                      ("fine", "phone at the table"), ("paid out", "lane rent"),
                                                      ("paid", "cash at the bar")]
    xlsx = path.with_suffix(".xlsx")
    book = openpyxl.load_workbook(xlsx)
    assert [row[9] for row in book.worksheets[0].iter_rows(min_row=2, values_only=True)] == [
        "joined in March", "phone at the table", "lane rent", "cash at the bar"]
