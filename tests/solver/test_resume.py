"""A duel against the bot survives a crash while the bot thinks: on a real SQLite file, the first
App dies in the bot's thinking step (its move is never made), a second App opens the same file,
and its start-up path (`MoveRunner.resume`, called by `python -m bot`) or the human's next guess makes
the bot's move."""

from __future__ import annotations

from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

import pytest

from bot.app.app import App
from bot.solver.thinking import Thinker
from core.messages import Chat
from core.solver import games as solver_games
from tests.app.conftest import Clock
from tests.app.harness import GROUP, Table, found, texts


def killed(*args: Any) -> Any:
    """The process is killed while the bot thinks: the thought never comes back."""
    raise RuntimeError("killed while thinking")


async def open_app(db: str, clock: Clock, tmp_path: Path) -> App:
    app = await App.open(db, seed=7, clock=clock, idle_timeout=3600)
    app.solver_cache = str(tmp_path / "solver-cache")
    return app


async def crash_at_the_bots_turn(db: str, clock: Clock, tmp_path: Path, kind: str) -> int:
    """A game against the bot, left where the bot is to act and has not; the App then closes."""
    app = await open_app(db, clock, tmp_path)
    app.thinker = Thinker(executor=ThreadPoolExecutor(1))  # thinks in this process, where the patch is
    table = Table(app)
    undo = pytest.MonkeyPatch()
    undo.setattr(solver_games, "bot_guess", killed)
    try:
        if kind == "duel":
            await table.say("ann", "/duel bot strong")
            gid = found(await app.store.last_game("test", "group-1", "ann")).id
            await table.dm("ann", "9753")  # never a line number in a logged traceback
            if (await table.state(gid))["turn"] == "ann":  # the lot let ann start
                await table.say("ann", "4680")
            st = await table.state(gid)
            assert st["phase"] == "playing" and st["turn"] == "bot" and not st["attempts"].get("bot")
        else:
            await table.say("ann", "/logik bot strong")
            gid = found(await app.store.last_game("test", "group-1", "ann")).id
            await table.dm("ann", "12345")
            st = await table.state(gid)
            assert st["phase"] == "playing" and "bot" not in st["pending"]
    finally:
        undo.undo()
        await app.close()
    return gid


async def test_after_a_crash_the_start_up_path_makes_the_bots_move(db: str, clock: Clock, tmp_path: Path) -> None:
    gid = await crash_at_the_bots_turn(db, clock, tmp_path, "duel")
    app = await open_app(db, clock, tmp_path)
    try:
        out = await app.runner.resume()
        table = Table(app)
        st = await table.state(gid)
        assert st["turn"] == "ann" and len(st["attempts"]["bot"]) == 1
        said = "\n".join(m.text for m in out)
        assert "Bot #1:" in said and all(isinstance(m.to, Chat) and m.to == GROUP for m in out), said
        r = await table.say("ann", "1234")
        assert "It is Bot's turn" not in texts(r)
        st = await table.state(gid)
        assert st["attempts"]["ann"][-1]["code"] == "1234"  # the human can guess again
        assert await app.runner.resume() == []  # nothing owed any more: a second start sends nothing
    finally:
        await app.close()


async def test_after_a_crash_the_humans_guess_makes_the_bot_move_first(db: str, clock: Clock, tmp_path: Path) -> None:
    gid = await crash_at_the_bots_turn(db, clock, tmp_path, "duel")
    app = await open_app(db, clock, tmp_path)
    try:
        table = Table(app)
        r = await table.say("ann", "1234")
        assert "It is Bot's turn" not in texts(r)
        st = await table.state(gid)
        assert st["attempts"]["bot"] and st["attempts"]["ann"][-1]["code"] == "1234", texts(r)
        assert texts(r).index("Bot #1:") < texts(r).index("Ann #")  # the bot's move first, then hers
    finally:
        await app.close()


async def test_logik_after_a_crash_the_bot_sends_its_row_at_start(db: str, clock: Clock, tmp_path: Path) -> None:
    gid = await crash_at_the_bots_turn(db, clock, tmp_path, "logik")
    app = await open_app(db, clock, tmp_path)
    try:
        out = await app.runner.resume()
        st = await Table(app).state(gid)
        assert "bot" in st["pending"] and out
        r = await Table(app).say("ann", "11223")
        st = await Table(app).state(gid)
        assert len(st["rows"]["ann"]) == 1 and len(st["rows"]["bot"]) == 1, texts(r)  # round 1 revealed
    finally:
        await app.close()
