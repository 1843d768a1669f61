"""Logik answers every row-like message with a move or its reason, ignores chat, and takes its
options, /giveup and /resign as documented (issues 14, 18) — the App on a real SQLite file."""

from __future__ import annotations

from pathlib import Path

from tests.app.harness import Table, texts
from tests.games.logik.test_app_flow import start
from tests.games.logik.test_console import play


async def test_near_rows_get_a_reason_and_chat_is_ignored(table: Table) -> None:
    gid = await start(table)
    assert "“z” is not a colour" in texts(await table.say("alice", "rgbyz"))
    assert "“X” is not a colour" in texts(await table.say("alice", "RGBYX"))
    assert "A row has 5 pegs, not 4" in texts(await table.say("alice", "rgby"))
    assert "A row has 5 pegs, not 6" in texts(await table.say("alice", "r g b y k o"))
    assert "“9” is not a colour" in texts(await table.say("alice", "1 2 3 4 9"))
    assert "“x” is not a colour" in texts(await table.say("alice", "r2g4x"))
    for chatter in ("hallo", "good luck to you", "ok", "well done", "nice one!", "haha"):
        r = await table.say("alice", chatter)
        assert r.messages == (), chatter
    assert (await table.state(gid))["pending"] == {}
    r = await table.say("alice", "1 2 3 4 5")  # spaces between the pegs are ignored, as documented
    assert texts(r) == "row 1: Alice ✓ — waiting for Bob"
    assert (await table.state(gid))["pending"] == {"alice": "12345"}


async def test_a_row_before_the_opponent_set_a_secret_names_them(table: Table) -> None:
    r = await table.say("alice", "/logik <@bob>")
    await table.press("bob", table.button(r, ":accept"))
    await table.dm("alice", "12345")
    out = texts(await table.say("alice", "54321"))
    assert "Bob has not set a secret row yet" in out, out


async def test_a_private_secret_that_is_no_row_gets_the_reason(table: Table) -> None:
    r = await table.say("alice", "/logik <@bob>")
    await table.press("bob", table.button(r, ":accept"))
    out = texts(await table.dm("alice", "rgbyz"))
    assert "“z” is not a colour" in out, out
    out = texts(await table.dm("alice", "hello world"))
    assert "A row has 5 pegs" in out, out


async def test_giveup_and_resign_both_end_logik(table: Table) -> None:
    await start(table)
    out = texts(await table.say("bob", "/giveup"))
    assert "Alice" in out and "wins" in out and "/giveup does not fit" not in out, out


async def test_options_in_any_order_and_rows_needs_a_number(table: Table) -> None:
    r = await table.say("alice", "/logik rows 8 bot")
    out = texts(r)
    games = await table.app.store.seated_games("test", "alice")
    assert len(games) == 1 and games[0].state["rows_max"] == 8, out
    assert games[0].state["phase"] != "challenge", out  # the computer accepts at once: no challenge waits
    out = texts(await table.say("carl", "/logik bob rows"))
    assert "not ?" not in out and "8–12" in out, out
    out = texts(await table.say("carl", "/logik easy rows 9 bot"))
    assert "challenges" not in out, out


async def test_a_near_row_before_the_rounds_is_chat_not_a_deleted_secret(table: Table) -> None:
    r = await table.say("alice", "/logik <@bob>")
    await table.press("bob", table.button(r, ":accept"))
    r = await table.say("alice", "hello")  # alice's secret is due: a word is not taken for it
    assert r.messages == () and not r.delete_inbound
    r = await table.say("alice", "rgbyk")  # a real row is: deleted, with the warning
    assert r.delete_inbound and "rgbyk" not in texts(r).lower()


def test_console_session_answers_bad_input(tmp_path: Path) -> None:
    """The real `python -m bot` console: `/` alone, `/help foo`, `/logik bob rows`, a near-row,
    pegs with spaces, /giveup — each answered with its reason or taken."""
    out = play(tmp_path, "\n".join([
        "alice: /", "alice: /help foo", "alice: /logik bob rows", "alice: /logik bob", "bob: /accept",
        "alice> rgbyz", "alice> RGBYW", "bob> 54321", "alice: rgbyz", "alice: hallo", "alice: 1 2 3 4 5",
        "bob: /giveup",
    ]) + "\n", "--seed", "3")
    group = [ln for ln in out.splitlines() if ln.startswith("[#table]")]
    assert "[#table] alice: A command is / with its name right after it, no space: e.g. /help or /practice." in group
    assert "[#table] I do not know /foo. Here is what I can do:" in group
    assert "[#table] alice: “rows” needs the number of rows after it: 8–12, e.g. /logik rows 10." in group
    assert "[@alice] “z” is not a colour here: use the digits 1–8 or the colour initials." in out
    assert "[#table] alice: “z” is not a colour here: use the digits 1–8 or the colour initials." in group
    assert not any("hallo" in ln for ln in group)
    assert "[#table] row 1: alice ✓ — waiting for bob" in group
    assert "[#table] 🏳️ bob resigns. alice wins." in group, out
