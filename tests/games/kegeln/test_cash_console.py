"""The cash box end to end through the real `python -m bot` console process (`--admin dave`: the
console's chat admin): an evening with throws, its automatic fines, an /undo that takes one back, a
refused and a booked payment, the balances and the cash book's CSV file."""

from __future__ import annotations

import csv
from pathlib import Path

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
    assert [r[2:6] for r in rows[1:]] == [["Anna", "auto", "pumpe", "0.10"], ["Anna", "auto", "pumpe", "-0.10"],
                                          ["Anna", "auto", "pumpe", "0.10"], ["Anna", "auto", "lost", "0.50"],
                                          ["Anna", "payment", "", "-0.50"]]
