"""An open tie never strands the scorer: /board shows the winner buttons again, and `/winner NAME`
(/sieger, /vinnare, /pobeditel) decides it by typing — also after a restart of the console, whose old
buttons are gone. Through the App on a real SQLite file and the real `python -m bot` console."""

from __future__ import annotations

from pathlib import Path

from core.messages import Actor, Inbound
from tests.app.harness import GROUP, Table, texts
from tests.console.test_console_process import buttons, play
from tests.games.kegeln.test_app import rows, start

TIE = ("5 10", "5 10", "1 1", "1 1")  # Anna 51, Ben 51


async def tied(table: Table, setup: str = "/kegeln high 2 Anna Ben", throws: tuple[str, ...] = TIE) -> int:
    gid = await start(table, setup)
    for throw in throws:
        r = await table.say("alice", f"/wurf {throw}")
    assert "Tie for first place" in texts(r), texts(r)
    return gid


async def test_board_during_a_tie_offers_the_decision_again(table: Table, db: str) -> None:
    gid = await tied(table)
    r = await table.say("alice", "/board")
    assert "Tie for first place — Alice, name the winner" in texts(r)
    labels = [b.label for m in r.messages for row in m.buttons for b in row]
    assert labels == ["🏆 Anna", "🏆 Ben", "↩️ Undo"]
    r = await table.press("bob", table.button(r, ":w0"))  # shown in the group: anyone else is refused
    assert "Only the scorer Alice" in texts(r)
    r = await table.press("alice", table.button(await table.say("alice", "/board"), ":w0"))
    assert "Alice has named the winner: Anna" in texts(r)
    assert rows(db, "SELECT winner, decided FROM kegeln_games") == [("Anna", 1)]
    assert (await table.state(gid))["outcome"] == "done"


async def test_the_winner_typed(table: Table, db: str) -> None:
    await tied(table)
    r = await table.say("bob", "/winner Anna")  # not the scorer: refused before any name is read
    assert "Only the scorer Alice (or a chat admin) can do that." in texts(r)
    r = await table.say("alice", "/winner")
    assert "Name one of the tied players: /winner NAME — tied: Anna, Ben." in texts(r)
    r = await table.say("alice", "/winner Zed")
    assert "tied: Anna, Ben" in texts(r)
    r = await table.say("alice", "/wurf 3")
    assert "name the winner of the tie first (/winner NAME) or /undo" in texts(r)
    r = await table.say("alice", "/winner  bEN ")
    assert "Alice has named the winner: Ben" in texts(r) and "1. Ben 51\n2. Anna 51" in texts(r)
    assert rows(db, "SELECT winner, decided FROM kegeln_games") == [("Ben", 1)]
    r = await table.say("alice", "/winner Ben")  # decided, and no game runs any more
    assert "decided" not in texts(r) and "named the winner" not in texts(r)


async def test_a_member_not_tied_is_refused_and_an_admin_may_decide(table: Table, db: str) -> None:
    await tied(table, "/kegeln high 2 Anna Ben Cem", ("5 T", "5 T", "3 T", "1 O", "1 O", "9"))  # Cem 39
    r = await table.say("alice", "/winner Cem")
    assert "That one is not tied for first place." in texts(r)
    admin = Actor("test", "root", "Root", "en", is_admin=True)
    r = await table.send(Inbound(admin, GROUP, command="winner", args=("Ben",), event_id="admin-1"))
    assert "Alice has named the winner: Ben" in texts(r)  # the game's scorer is still alice
    assert rows(db, "SELECT winner FROM kegeln_games") == [("Ben",)]


async def test_a_team_tie_by_number_or_member(table: Table, db: str) -> None:
    await tied(table, "/kegeln high 2 teams Anna Ben / Cleo Dan", ("5 Z", "5 Z", "5 Z", "5 Z",
                                                                     "1 E", "1 E", "1 E", "1 E"))
    r = await table.say("alice", "/winner 3")
    assert "That one is not tied for first place." in texts(r)
    r = await table.say("alice", "/winner")
    assert "tied: [1] Anna, Ben · [2] Cleo, Dan" in texts(r)
    r = await table.say("alice", "/winner dan")
    assert "named the winner: Team 2" in texts(r)
    assert rows(db, "SELECT winner FROM kegeln_games") == [("Cleo, Dan",)]


async def test_localised_command_names(table: Table) -> None:
    table.locale = "de"
    await start(table, "/kegeln hoch 2 Anna Ben")
    for throw in TIE:
        r = await table.say("alice", f"/wurf {throw}")
    assert "/sieger NAME" in texts(r)
    r = await table.say("alice", "/sieger Ben")
    assert "Ben" in texts(r) and (await table.state(1))["outcome"] == "done"


def test_console_tie_after_a_restart(tmp_path: Path) -> None:
    """The console's buttons live in its process: after a restart the old ones are unknown; /board
    shows the decision with new ones, and /winner decides by typing."""
    db = tmp_path / "db.sqlite3"
    out = play(db, "alice: /kegeln high 2 Anna Ben\n" + "".join(f"alice: /wurf {t}\n" for t in TIE))
    assert "Tie for first place" in out and "(b" in out
    old = buttons(out)["🏆 Anna"]
    out = play(db, f"alice clicks {old}\nalice: /board\n")
    assert f"[@alice] ? {old}" in out  # a new process: that number means nothing any more
    assert "name the winner: tap them, or /winner NAME" in out
    shown = buttons(out)
    out = play(db, f"alice: /board\nalice clicks {shown['🏆 Ben']}\n")  # the same numbers in a new process
    assert "alice has named the winner: Ben" in out
    db2 = tmp_path / "db2.sqlite3"
    play(db2, "alice: /kegeln high 2 Anna Ben\n" + "".join(f"alice: /wurf {t}\n" for t in TIE))
    out = play(db2, "alice: /winner Anna\n")
    assert "alice has named the winner: Anna" in out
