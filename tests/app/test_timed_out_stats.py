"""Games that time out (MoveRunner.sweep with an injected clock) where nobody — or everybody — owed the move
show in /stats as timed out (⏱), never as lost, and in /stats logik; through the App on real SQLite.
(One player owing the move loses: tests/app/test_timeout_loses.py.)"""

from __future__ import annotations

from bot.app.app import App
from tests.app.conftest import Clock
from tests.app.harness import Table, texts


async def logik_running(table: Table) -> None:
    r = await table.say("alice", "/logik <@bob>")
    await table.press("bob", table.button(r, ":accept"))
    await table.dm("alice", "12345")
    await table.dm("bob", "54321")  # the first round waits for both rows: nobody alone owes it


async def test_a_timed_out_practice_is_abandoned_not_lost(table: Table, app: App, clock: Clock) -> None:
    await table.say("alice", "/practice")
    await table.say("alice", "0123")
    clock.now += 7200
    out = await app.runner.sweep()
    assert out, "the practice game timed out"
    await table.say("alice", "/practice")
    await table.say("alice", "/giveup")  # one really given up
    r = await table.say("alice", "/stats")
    lines = texts(r).splitlines()
    assert "1A2B practice: 2 · ✓0 · ✗1 · ⏱1" in lines  # here
    assert lines.count("1A2B practice: 2 · ✓0 · ✗1 · ⏱1") == 2  # and everywhere


async def test_a_practice_without_timeouts_shows_no_clock(table: Table) -> None:
    await table.say("alice", "/practice")
    await table.say("alice", "/giveup")
    r = await table.say("alice", "/stats")
    assert "1A2B practice: 1 · ✓0 · ✗1" in texts(r).splitlines()


async def test_timed_out_logik_games_show_in_stats_logik(table: Table, app: App, clock: Clock) -> None:
    await logik_running(table)
    clock.now += 7200
    out = await app.runner.sweep()
    assert any("timed out" in o.text for o in out)
    r = await table.say("alice", "/stats logik")
    out_text = texts(r)
    assert "no finished games yet" not in out_text
    assert "Here: 1 game, timed out" in out_text and "Everywhere: 1 game, timed out" in out_text
    assert "Alice: as white 0/0/0, as black 0/0/0 (wins/draws/losses); timed out 1" in out_text
    r = await table.say("alice", "/stats")
    assert "Logik: 1 · 0/0/0 · ⏱1" in texts(r)
    # a decided game besides: the timed-out one is counted separately, percentages of decided games
    r = await table.say("alice", "/logik <@bob>")
    await table.press("bob", table.button(r, ":accept"))
    await table.dm("alice", "12345")
    await table.dm("bob", "54321")
    await table.say("alice", "54321")
    await table.say("bob", "88888")
    r = await table.say("bob", "/stats logik")
    out_text = texts(r)
    assert "Here: 1 game: white 1 (100.0 %), black 0 (0.0 %), draws 0 (0.0 %); timed out 1" in out_text
    assert "Bob: as white 0/0/0, as black 0/0/1 (wins/draws/losses); timed out 1" in out_text


async def test_stats_logik_in_german_with_timeouts(table: Table, app: App, clock: Clock) -> None:
    await logik_running(table)
    clock.now += 7200
    await app.runner.sweep()
    german = Table(app, locale="de", group=table.group)
    r = await german.say("alice", "/stats logik")
    assert "1 Partie, abgelaufen" in texts(r)
    assert "(Siege/Unentschieden/Niederlagen); abgelaufen 1" in texts(r)
