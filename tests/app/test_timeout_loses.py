"""Issue 23.2, going silent on a lost game, through the App on a real SQLite file: the player whose
move timed out loses, and that is rated — whether the minutely sweep finds the game expired or a
move arriving first (just after a restart, before any sweep ran); a game where nobody owed the move
is abandoned, unrated."""

from __future__ import annotations

from bot.app.app import App
from core import ratings
from tests.app.conftest import Clock
from tests.app.harness import PLATFORM, Table, texts
from tests.app.test_duel_flow import start_duel, target
from tests.app.test_ratings import Expected, assert_agree, stored
from tests.games.words.test_app_flow import open_game, set_word

TIMEOUT = 3600  # tests/app/conftest.py's app


async def bob_on_his_last_chance(t: Table) -> tuple[int, str, str]:
    """Both made MIN_MOVES misses; the starter cracks; the second player owes the last guess."""
    gid, first, second = await start_duel(t)
    for miss in ("9012", "9013", "9014", "9015")[: ratings.MIN_MOVES]:
        await t.say(first, miss)
        await t.say(second, miss)
    assert "last guess" in texts(await t.say(first, target(first)[first]))
    return gid, first, second


def lost(first: str, second: str) -> Expected:
    want = Expected()
    want.play("duel", [[first], [second]], [1.0, 2.0])
    return want


async def test_the_sweep_gives_the_win_to_who_did_not_go_silent(table: Table, app: App, clock: Clock,
                                                                db: str) -> None:
    gid, first, second = await bob_on_his_last_chance(table)
    clock.now += TIMEOUT + 1
    out = "\n".join(o.text for o in await app.runner.sweep())
    assert f"{second.capitalize()} let the time run out — {first.capitalize()} wins" in out, out
    st = await table.state(gid)
    assert st["outcome"] == "timeout" and st["winner"] == first
    assert_agree(db, lost(first, second))
    stats = texts(await table.say(first, "/stats"))
    assert "1/0/0" in stats, stats


async def test_a_move_after_a_restart_finds_the_game_expired_too(db: str, clock: Clock) -> None:
    app = await App.open(db, seed=42, clock=clock, idle_timeout=TIMEOUT)
    table = Table(app)
    gid, first, second = await bob_on_his_last_chance(table)
    await app.close()
    clock.now += 3 * TIMEOUT  # the bot was down; it starts again, and the late guess comes before any sweep
    app = await App.open(db, seed=42, clock=clock, idle_timeout=TIMEOUT)
    try:
        table = Table(app)
        r = await table.say(second, target(first)[second])  # would have drawn the game
        out = texts(r)
        assert "let the time run out" in out and "over" in out, out
        st = await table.state(gid)
        assert st["outcome"] == "timeout" and st["winner"] == first
        assert len(st["attempts"][second]) == ratings.MIN_MOVES  # the late guess was not played
        assert_agree(db, lost(first, second))
        assert not await app.runner.sweep()  # nothing left to time out
    finally:
        await app.close()


async def test_nobody_owed_the_move_so_it_is_abandoned(table: Table, app: App, clock: Clock, db: str) -> None:
    await table.say("alice", "/words")  # a lobby
    await table.say("bob", "/join")
    gid, _first, _second = await start_duel(Table(app, group=table.group.__class__(PLATFORM, "group-2", False)))
    clock.now += TIMEOUT + 1
    out = "\n".join(o.text for o in await app.runner.sweep())
    assert "word game was abandoned" in out, out
    assert (await table.state(gid))["winner"] is not None  # the duel's starter was to move: the other won
    assert not stored(db)  # neither is rated: the lobby never began, the duel had too few moves


async def test_the_word_game_player_who_went_silent_loses(table: Table, app: App, clock: Clock, db: str) -> None:
    gid = await open_game(table, "points 1", players=("ann", "bob"))
    guesser = await set_word(table, gid, "crane")
    setter = (await table.state(gid))["setter"]
    assert "slate" in texts(await table.say(guesser, "slate"))
    await table.say(guesser, "/board")
    clock.now += TIMEOUT + 1
    out = "\n".join(o.text for o in await app.runner.sweep())
    assert f"{guesser.capitalize()} let the time run out" in out and "crane" in out, out
    st = await table.state(gid)
    assert st["outcome"] == "finished" and st["winners"] == [setter] and st["left"] == [guesser]
    want = Expected()
    want.play("words", [[setter], [guesser]] if st["players"][0]["user_id"] == setter else [[guesser], [setter]],
              [1.0, 2.0] if st["players"][0]["user_id"] == setter else [2.0, 1.0])
    assert_agree(db, want)
