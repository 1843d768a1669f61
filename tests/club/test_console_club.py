"""The club as a club through the real `python -m bot` console process (`--admin dave`: the table's admin):
dave turns the cash box on and appoints alice the club's scorer; her evening books its fines and counts; beside
it mallory, a plain member, plays the issue's attack — `/kegeln high 2 Mallory Klaus` thrown 9/0/9/0 — a casual
game that books nothing for Klaus and changes no record or rating; three such games buy her no /termin."""

from __future__ import annotations

from pathlib import Path

from tests.console.test_console_process import play

ATTACK = ["mallory: /kegeln high 2 Mallory Klaus", "mallory: /wurf 9 10", "mallory: /wurf 0 10",
          "mallory: /wurf 9 1", "mallory: /wurf 0 1"]


def test_console_club_evening_and_a_casual_game(tmp_path: Path) -> None:
    script = "\n".join([
        "dave: /kasse on", "alice: hi", "mallory: /verein scorer mallory", "dave: /verein scorer alice",
        "alice: /kegeln high 2 Birgit Klaus", "alice: /wurf 0 10", "alice: /wurf 5 10", "alice: /wurf 3",
        "alice: /wurf 5", "bob: /kasse", "bob: /top kegeln",
        *ATTACK * 3,
        "bob: /kasse", "bob: /top kegeln", "bob: /kegelstats Mallory", "bob: /verein",
        "mallory: /termin 12.12.2099 19:30"]) + "\n"
    out = play(tmp_path / "db.sqlite3", script, "--admin", "dave")
    assert "mallory: Only a chat admin appoints the club's scorers" in out, out
    assert "alice is now one of the club's scorers" in out, out
    first, after = out.split("🎲 A casual game: mallory is not one of the club's scorers", 1)
    assert "Casual" not in first and "Winner: Klaus" in first
    assert after.count("🎲 Casual game — counts nothing for the club\n  🏁 Result") == 3, after
    views = [part.split("\n[#table]")[0].split("(b")[0] for part in out.split("💶 Cash box (EUR)")[1:]]
    assert len(views) == 2 and views[0] == views[1], views  # Klaus owes nothing more: the same view
    assert "Birgit: owes €0.60" in views[1], views[1]
    assert "No finished Kegeln game here with Mallory yet" in out, out
    roster = out.split("The club: ")[1].split("\n[#table]")[0]
    assert "• Birgit" in roster and "• Klaus" in roster and "Mallory" not in roster, roster
    assert "mallory: Only a chat admin, one of the club's scorers (alice)" in out, out
