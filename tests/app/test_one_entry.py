"""Every way a game moves or ends goes through the move runner's one entry (bot/app/runner.py `MoveRunner.run`,
issue 38), through the real App on a real SQLite file: a player's move, the computer opponent's, a hint, the
idle timeout, a closed chat and a forgotten player each arrive there as a `Move` of their kind, and each does
what it did before (the game moved or ended, stored once). An end the App decided on a row read before
another move got in is dropped, never applied twice."""

from __future__ import annotations

from concurrent.futures import ThreadPoolExecutor

import pytest

from bot.app.app import App
from bot.app.move_types import KINDS, Kind, Moved
from bot.app.runner import acting
from bot.solver.thinking import Thinker
from bot.storage.sql import Query
from core.games.actions import Timeout
from core.messages import Actor, Chat, Inbound
from tests.app.conftest import Clock
from tests.app.harness import PLATFORM, Table, found, texts

TOPIC = Chat(PLATFORM, "club/7", private=False, title="Club › 1A2B")
SYSTEM = Actor(PLATFORM, "0", "Platform")
RESULTS = Query("SELECT user_id, outcome FROM results WHERE game_id = :id ORDER BY user_id")


async def game_of(app: App, who: str, chat: str = "group-1") -> int:
    return found(await app.store.last_game(PLATFORM, chat, who)).id


async def test_the_runner_sees_every_kind_of_move_and_end(app: App, table: Table, clock: Clock) -> None:
    seen = app.runner.entered
    assert not seen

    await table.say("ann", "/practice 3")  # a player's move, then a hint
    ann = await game_of(app, "ann")
    assert "codes are still possible" in texts(await table.say("ann", "/hint"))
    assert seen["hint"] == 1 and (await table.state(ann))["assisted"] is True
    await table.say("ann", "012")
    assert seen["player"] == 1 and len((await table.state(ann))["attempts"]) == 1

    app.thinker = Thinker(executor=ThreadPoolExecutor(1))  # the computer opponent thinks in this process
    await table.say("bob", "/duel bot easy")
    bob = await game_of(app, "bob")
    assert not seen["bot"]
    await table.dm("bob", "4071")
    await table.say("bob", "1234")  # the computer opponent answers the first guess
    assert seen["bot"] >= 1 and (await table.state(bob))["attempts"]["bot"]

    await table.say("carol", "/practice", TOPIC)  # a chat nobody can play in any more
    carol = await game_of(app, "carol", TOPIC.chat_id)
    r = await app.handle(Inbound(SYSTEM, TOPIC, closed="deleted", event_id="x1"))
    assert seen["closed"] == 1 and [m.to for m in r.messages] == [Actor(PLATFORM, "carol", "Carol")]
    assert found(await app.store.get_game(carol)).over

    await table.say("dave", "/practice")  # a player who forgets themselves
    dave = await game_of(app, "dave")
    button = table.button(await table.say("dave", "/forgetme"), "")
    await table.press("dave", button)
    assert seen["forgotten"] == 1 and found(await app.store.get_game(dave)).over

    clock.now += app.idle_timeout + 1  # the idle timeout: every game still running
    await app.runner.sweep()
    assert seen["timeout"] == 2 and found(await app.store.get_game(ann)).over
    assert found(await app.store.get_game(bob)).over
    assert set(seen) == set(KINDS)


async def test_an_end_decided_on_an_old_row_is_dropped(app: App, table: Table, clock: Clock) -> None:
    """The sweep read the game; meanwhile a move found it expired and ended it: the sweep's timeout is
    not applied a second time (one result, one end), and a closed chat's end alike."""
    await table.say("eve", "/practice 3")
    gid = await game_of(app, "eve")
    clock.now += app.idle_timeout + 1
    stale = found(await app.store.get_game(gid))  # as the sweep read it
    await table.say("eve", "012")  # the move comes first: the game's time ran out
    assert found(await app.store.get_game(gid)).over
    ended = [tuple(r) for r in await app.store.fetch(RESULTS, id=gid)]
    timeout = Timeout()
    kinds: tuple[Kind, ...] = ("timeout", "closed")
    for kind in kinds:
        turn = app.runner.by_the_app(stale)
        with pytest.raises(Moved):
            await app.runner.run(turn, stale, acting(timeout, None, kind))
        assert turn.messages == []
    assert [tuple(r) for r in await app.store.fetch(RESULTS, id=gid)] == ended
    assert await app.runner.sweep() == []


async def test_a_timeout_waits_for_a_game_moved_since_the_sweep_read_it(app: App, table: Table,
                                                                          clock: Clock) -> None:
    """Read as idle, moved before its timeout ran: the game goes on."""
    await table.say("eve", "/practice 3")
    gid = await game_of(app, "eve")
    stale = found(await app.store.get_game(gid))
    clock.now += app.idle_timeout - 10
    await table.say("eve", "012")
    clock.now += 20  # idle by the old row, not since the game's last move
    with pytest.raises(Moved):
        await app.runner.run(app.runner.by_the_app(stale), stale,
                             acting(Timeout(), None, "timeout"))
    assert not found(await app.store.get_game(gid)).over
