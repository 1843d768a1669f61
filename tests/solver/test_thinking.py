"""Solver work off the event loop (bot/solver/thinking.py) through the real App on a real SQLite file:
in worker processes, one computation per position in flight, a bound with a polite refusal, and
the same answers as thinking in place."""

from __future__ import annotations

import asyncio
import os
import threading
from collections.abc import Callable
from concurrent.futures import Future, ThreadPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from typing import Any

import pytest

from bot.app.app import App
from bot.solver import book as solver_book
from bot.solver.thinking import Thinker
from core import serial
from core.games.practice import rules as practice
from core.games.practice import solver as solver_games
from core.solver import Solver, digits
from tests.app.harness import Table, found, texts


def where(solver: Solver, tag: str) -> tuple[int, int, str, int]:
    """Run as solver work: which process and thread it ran in, and proof it had the solver."""
    return os.getpid(), threading.get_ident(), tag, solver.count([])


class Recording(ThreadPoolExecutor):
    """The App's executor, watched: what was submitted, from which thread; held until `gate` opens."""

    def __init__(self) -> None:
        super().__init__(2)
        self.gate = threading.Event()
        self.gate.set()
        self.submitted: list[tuple[Any, ...]] = []
        self.ran_in: list[int] = []

    def submit(self, fn: Callable[..., Any], /, *args: Any, **kwargs: Any) -> Future[Any]:
        self.submitted.append((fn, *args))

        def held() -> Any:
            self.gate.wait(30)
            self.ran_in.append(threading.get_ident())
            return fn(*args, **kwargs)

        return super().submit(held)


async def until(check: Callable[[], bool]) -> None:
    for _ in range(3000):
        if check():
            return
        await asyncio.sleep(0.01)
    raise AssertionError("timed out waiting")


async def finished_practice(table: Table, who: str, codes: list[str], secret: str) -> None:
    await table.say(who, "/practice 4 repeats")
    row = found(await table.app.store.last_game("test", "group-1", who))
    from tests.solver.test_app import _set_secret  # the scripted secret, as in the /analyse test
    await table.app.store.run(_set_secret(row.id, secret))
    for code in codes:
        await table.say(who, code)
    await table.say(who, "/giveup")


async def test_solver_work_runs_in_another_process(table: Table) -> None:
    """The App's default: the shared pool of worker processes, never the event loop's process."""
    app = table.app
    pid, _thread, tag, count = await app.think(("probe",), digits(3, False), where, "probe")
    assert (tag, count) == ("probe", 720)
    assert pid != os.getpid()
    # and a real /hint goes through it: one computation, answered as the solver in place answers
    await table.say("ann", "/practice 3")
    r = await table.say("ann", "/hint")
    assert app.thinker.computed == 2
    assert "720 codes are still possible. A strong next guess: " + "".join(Solver(digits(3, False)).strong([])) \
        in texts(r)


async def test_hint_and_analyse_are_submitted_to_the_executor_not_run_on_the_loop(table: Table) -> None:
    rec = Recording()
    table.app.thinker = Thinker(executor=rec)
    loop_thread = threading.get_ident()
    await table.say("ann", "/practice 4")
    row = found(await table.app.store.last_game("test", "group-1", "ann"))
    await table.say("ann", "0123")
    await table.say("ann", "4567")
    r = await table.say("ann", "/hint")
    state = serial.load(practice.State, found(await table.app.store.get_game(row.id)).state)
    expected = solver_games.hint(Solver(digits(4, False)), state)  # thought in place: the same answer
    assert f"{expected[0]} codes are still possible. A strong next guess: {expected[1]}" in texts(r)
    await finished_practice(table, "bob", ["1122", "3344"], "1234")
    out = texts(await table.say("bob", "/analyse"))
    assert "#1 1122 → " in out and "strong solver on the same code" in out
    assert [(s[0], s[3]) for s in rec.submitted] == [(solver_book.with_solver, solver_games.hint),
                                                     (solver_book.with_solver, solver_book.analyse)]
    assert rec.ran_in and loop_thread not in rec.ran_in
    rec.shutdown()


async def test_concurrent_identical_requests_share_one_computation(table: Table) -> None:
    rec = Recording()
    table.app.thinker = Thinker(executor=rec)
    await finished_practice(table, "ann", ["1122", "3344", "5566"], "1234")
    rec.gate.clear()
    first = asyncio.create_task(table.say("ann", "/analyse"))
    second = asyncio.create_task(table.say("ann", "/analyse"))
    await until(lambda: table.app.thinker.shared == 1)  # the second joined the first's computation
    rec.gate.set()
    a, b = texts(await first), texts(await second)
    assert "#1 1122 → " in a and a == b
    assert table.app.thinker.computed == 1 and len(rec.submitted) == 1
    # the same position asked later (nothing in flight) is computed again: sharing is only in flight
    assert texts(await table.say("ann", "/analyse")) == a and table.app.thinker.computed == 2
    rec.shutdown()


async def test_beyond_the_bound_a_request_is_refused_politely_in_its_language(table: Table) -> None:
    rec = Recording()
    table.app.thinker = Thinker(limit=1, executor=rec)
    await finished_practice(table, "ann", ["1122"], "1234")
    await table.say("bob", "/practice 5 repeats")
    await table.say("bob", "12345")
    rec.gate.clear()
    first = asyncio.create_task(table.say("ann", "/analyse"))
    await until(lambda: table.app.thinker.in_flight == 1)
    r = await table.say("bob", "/hint")
    assert "Bob: ⏳ The bot is busy thinking right now; please try again in a moment." in texts(r)
    table.locale = "de"
    r = await table.say("bob", "/hint")
    assert "Der Bot ist gerade mit Nachdenken beschäftigt" in texts(r)
    table.locale = "en"
    st = await table.state(found(await table.app.store.last_game("test", "group-1", "bob")).id)
    assert st["assisted"] is False  # a refused hint changes nothing
    rec.gate.set()
    assert "strong solver on the same code" in texts(await first)
    assert "strong next guess" in texts(await table.say("bob", "/hint"))  # room again
    assert table.app.thinker.refused == 2
    rec.shutdown()


async def test_a_busy_bot_moves_when_the_human_writes_again(table: Table) -> None:
    """The bot's own thinking refused as busy: the duel waits; the human's next guess makes the bot
    move first, then counts."""
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
    st = await table.state(gid)
    if st["turn"] == "ann":  # the lot let ann start: her guess hands the turn to the bot
        r = await table.say("ann", "456")
        st = await table.state(gid)
    assert st["turn"] == "bot" and "busy thinking" in texts(r)
    rec.gate.set()
    await blocker
    r = await table.say("ann", "789")
    st = await table.state(gid)
    assert st["attempts"]["bot"] and st["attempts"]["ann"][-1]["code"] == "789", texts(r)
    assert "Bot" in texts(r)
    rec.shutdown()


async def test_a_dead_worker_fails_its_request_and_the_next_one_gets_a_new_pool() -> None:
    thinker = Thinker()
    with pytest.raises(BrokenProcessPool):
        await thinker.run(("die",), os._exit, 1)  # the worker process dies mid-request
    assert thinker.in_flight == 0
    assert await thinker.run(("pid",), os.getpid) != os.getpid()
