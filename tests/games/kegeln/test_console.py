"""A scripted Kegeln evening through the real `python -m bot` console process, with a restart."""

from __future__ import annotations

from pathlib import Path

from tests.console.test_console_process import buttons, play


def test_console_kegeln_evening(tmp_path: Path) -> None:
    db = tmp_path / "db.sqlite3"
    out = play(db, "alice: /kegeln hoch 2 Anna Ben\nalice: /wurf 7\n", "--admin", "alice")  # a club game
    assert "Hausnummern #1: high numbers, 2 places. Throwing order: Anna, Ben. Scorer: alice." in out
    assert "▶ Anna: choose the place for 7 pins." in out
    # a restart: the pins still wait for their place; /board shows the buttons again (b1: tens)
    out = play(db, "alice: /board\n", "--admin", "alice")
    assert buttons(out)["tens"] == "b1"
    script = "\n".join(["alice: /board", "alice clicks b1", "bob: /wurf 3 O", "alice: /wurf 3 o", "alice: /undo",
                        "alice: /wurf 3 t", "alice: /wurf 0", "alice: /wurf 5", "bob: /kegelstats ANNA",
                        "bob: /kegelstats", "bob: /kegelexport"]) + "\n"
    out = play(db, script, "--admin", "alice")
    assert "Anna: 7 pins → tens." in out
    assert "bob: Only the scorer alice (or a chat admin) can do that." in out
    assert "Undone: 3 pins by Ben on the ones." in out
    assert "1. Anna 70\n  2. Ben 35\n  🏆 Winner: Anna" in out
    assert "Anna: 1 game · wins high 1 · wins low 0 · 9s: 0 · Pumpen: 1 · Kegel-Schnitt 3.5 (2 throws)" in out
    assert "1. Anna — 1 · 1/0 · 9×0 · P×1 · ⌀ 3.5" in out
    assert out.count(".png") == 2
    # /kegelexport: the console writes the CSV under its picture folder and prints the path
    path = Path(out.split("The club's throw log: 1 game, 4 throws (CSV).")[1].splitlines()[-1].strip())
    assert path.name == "kegeln-table.csv" and path.is_file()
    assert path.read_bytes().decode("utf-8-sig").splitlines()[0] == "date,game,member,pins,position,digit,season"


def test_console_scorer_only_to_a_player_who_has_written(tmp_path: Path) -> None:
    """Issue 18: `/scorer Zoe` (nobody who has written here) is refused and says how to hand the role
    on; alice keeps score until bob has written something, then the role goes to him."""
    out = play(tmp_path / "db.sqlite3", "\n".join([
        "alice: /kegeln high 2 Anna Ben", "alice: /scorer Zoe", "alice: /scorer Anna", "alice: /wurf 7 T",
        "bob: hi", "alice: /scorer Bob", "bob: /wurf 5 T", "alice: /wurf 3"]) + "\n")
    assert ("alice: I do not know Zoe in this chat yet — they should write something here first, "
            "or mention them.") in out
    assert "alice: I do not know Anna in this chat yet" in out
    assert "Zoe is now the scorer" not in out and "Anna is now the scorer" not in out
    assert "Anna: 7 pins → tens." in out
    assert "📋 bob is now the scorer (was alice)." in out and "Ben: 5 pins → tens." in out
    assert "alice: Only the scorer bob (or a chat admin) can do that." in out


def test_console_season_review_by_its_localised_names(tmp_path: Path) -> None:
    """The season and the year in review in the console process; the review's name in every language
    (Cyrillic ones too: the console reads any word after the slash) runs the one command."""
    script = "\n".join(["alice: /kegeln high 2 Anna Ben", "alice: /wurf 7 t", "alice: /wurf 3 t",
                        "alice: /wurf 2", "alice: /wurf 5", "alice: /saison", "bob: /итоги_года",
                        "bob: /arsrevy", "bob: /godishen_pregled", "bob: /yearreview",
                        "bob: /kegelmerge Ben Anna"]) + "\n"
    out = play(tmp_path / "db.sqlite3", script, "--admin", "alice")  # a chat admin's game: a club game
    assert "1. Anna — 1 · 1/0 · № 72.0 (72–72, 2 places) · 9×0 · P×0 · ⌀ 4.5" in out, out
    assert out.count("🏆 Club champion: Anna — 1 win") == 4
    assert "bob: Ben and Anna played in the same game (#1): they are two people, so I do not merge them." in out
    assert out.count(".png") >= 5


def test_console_scorer_merges_the_typo_after_confirming(tmp_path: Path) -> None:
    """The console's chat admin carol appoints alice the club's scorer: alice merges Anni into Anna; bob, who
    holds no role, may not ask, and may not press her ✅ either."""
    db = tmp_path / "db.sqlite3"
    club = ["alice: hi", "carol: /verein scorer alice"]  # a role, not games played, lets her
    two_games = [*club, "alice: /kegeln high 2 Anna Ben", "alice: /wurf 7 t", "alice: /wurf 3 t", "alice: /wurf 2",
                 "alice: /wurf 5", "alice: /kegeln high 2 Anni Carl", "alice: /wurf 4 t", "alice: /wurf 6 t",
                 "alice: /wurf 1", "alice: /wurf 8"]
    asks = [*two_games, "bob: /kegelmerge Anni Anna", "alice: /kegelmerge Anni Anna"]
    out = play(tmp_path / "first.sqlite3", "\n".join(asks) + "\n", "--admin", "carol")  # the same button numbers
    assert "bob: Only a chat admin or one of the club's scorers (alice) merges members." in out, out
    assert "Merge Anni into Anna?" in out and "Merged" not in out, out
    yes = buttons(out)["✅ Merge"]
    out = play(db, "\n".join([*asks, f"bob clicks {yes}", f"alice clicks {yes}", f"alice clicks {yes}"]) + "\n",
               "--admin", "carol")
    assert "Only alice can answer this question." in out, out
    assert out.count("🔗 Merged: Anni is now Anna — 1 game moved, Anna has 2 games.") == 1, out
    assert "This confirmation is out of date" in out, out
