"""The bot's own move refused as busy (bot/solver/thinking.py's bound) is tried again by the App on its
own (`MoveRunner.retry_bot_moves`, which `python -m bot` runs every second) with backoff: the human waiting
for the bot sees its move arrive without writing again, the chat is told once that the move follows,
and a game that ended meanwhile is not moved. Real App, real SQLite file, an injected clock."""

from __future__ import annotations

import asyncio
from typing import Any

from bot.app.app import App
from bot.app.runner import RETRY_DELAYS
from bot.solver.thinking import Thinker
from core.messages import Chat, Outbound
from tests.app.conftest import Clock
from tests.app.harness import Table, found, texts
from tests.solver.test_thinking import Recording, finished_practice, until

FOLLOWS = "its move follows by itself shortly"


def said(out: list[Outbound]) -> str:
    return "\n".join(o.text for o in out)


async def busy_duel(table: Table) -> tuple[int, Recording, asyncio.Task[Any]]:
    """A duel against the bot whose turn it is while the thinker is full (limit 1, held by cid's
    /analyse): returns the game, the held executor and the blocking request."""
    app: App = table.app
    rec = Recording()
    app.thinker = Thinker(limit=1, executor=rec)
    await finished_practice(table, "cid", ["1122"], "1234")
    rec.gate.clear()
    blocker = asyncio.create_task(table.say("cid", "/analyse"))
    await until(lambda: app.thinker.in_flight == 1)
    await table.say("ann", "/duel bot strong 3")
    gid = found(await app.store.last_game("test", "group-1", "ann")).id
    r = await table.dm("ann", "123")
    told = texts(r)
    st = await table.state(gid)
    if st["turn"] == "ann":  # the lot let ann start: her guess hands the turn to the bot
        r = await table.say("ann", "456")
        told += texts(r)
        st = await table.state(gid)
    assert st["turn"] == "bot" and not st["attempts"]["bot"]
    assert told.count(FOLLOWS) == 1 and "try again" not in told, told
    return gid, rec, blocker


async def test_a_busy_bot_moves_on_its_own_once_there_is_room(table: Table, clock: Clock) -> None:
    app: App = table.app
    gid, rec, blocker = await busy_duel(table)
    assert await app.runner.retry_bot_moves() == []  # not due yet
    clock.now += RETRY_DELAYS[0]
    assert await app.runner.retry_bot_moves() == []  # due, still busy: tried, nothing said a second time
    assert app.thinker.refused == 2 and not (await table.state(gid))["attempts"]["bot"]
    clock.now += RETRY_DELAYS[0]
    assert await app.runner.retry_bot_moves() == []  # the next try waits longer (backoff)
    assert app.thinker.refused == 2
    rec.gate.set()
    await blocker
    clock.now += RETRY_DELAYS[1]
    out = await app.runner.retry_bot_moves()  # no human message: the bot's guess arrives
    st = await table.state(gid)
    assert len(st["attempts"]["bot"]) == 1 and st["turn"] == "ann", said(out)
    assert "Bot" in said(out) and all(isinstance(o.to, Chat) and o.to.chat_id == "group-1" for o in out)
    assert FOLLOWS not in said(out)
    clock.now += RETRY_DELAYS[-1]
    assert await app.runner.retry_bot_moves() == []  # done: nothing owed any more
    rec.shutdown()


async def test_a_game_ended_meanwhile_is_not_moved(table: Table, clock: Clock) -> None:
    app: App = table.app
    gid, rec, blocker = await busy_duel(table)
    r = await table.say("ann", "/resign")
    assert FOLLOWS not in texts(r)  # told once only, even when refused again
    assert found(await app.store.get_game(gid)).over
    rec.gate.set()
    await blocker
    clock.now += RETRY_DELAYS[-1]
    assert await app.runner.retry_bot_moves() == []
    st = await table.state(gid)
    assert not st["attempts"]["bot"] and st["phase"] == "finished"
    rec.shutdown()


async def test_the_bot_gives_up_after_its_last_try(table: Table, clock: Clock) -> None:
    """Bounded: after the last delay the move waits for the human's next message or a restart."""
    app: App = table.app
    gid, rec, blocker = await busy_duel(table)
    for delay in RETRY_DELAYS:
        clock.now += delay
        assert await app.runner.retry_bot_moves() == []
    assert app.thinker.refused == 1 + len(RETRY_DELAYS) and not app.runner.owed
    rec.gate.set()
    await blocker
    clock.now += RETRY_DELAYS[-1]
    assert await app.runner.retry_bot_moves() == []
    assert not (await table.state(gid))["attempts"]["bot"]
    rec.shutdown()
