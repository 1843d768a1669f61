"""`python -m bot ratings rebuild`: after games played through the App in two chats (one duel
started before and finished after another, with the same player: the order they ended matters
across chats), wiping and garbling the ratings and their history and rebuilding gives exactly the
stored ones, which agree with openskill computed directly, per chat and across chats."""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any

import pytest

from bot.__main__ import main
from bot.app import ratings_rebuild
from bot.app.app import App
from bot.storage.sql import Query, Tx
from core import ratings
from core.messages import Chat
from tests.app.conftest import Clock
from tests.app.harness import PLATFORM, Table, texts
from tests.app.test_duel_flow import bot_duel_played, played_out, start_duel
from tests.app.test_ratings import Expected
from tests.club.harness import appoint
from tests.games.kegeln.test_app import start as start_kegeln
from tests.games.kegeln.test_rules import SEED_THROWS
from tests.games.words.test_app_flow import open_game, set_word

GROUP_2 = Chat(PLATFORM, "group-2", private=False)
RATINGS = Query("SELECT platform, chat_id, kind, user_id, name, mu, sigma, games, updated FROM ratings"
                ' ORDER BY chat_id COLLATE "C", kind COLLATE "C", user_id COLLATE "C"')
HISTORY = Query("SELECT game_id, platform, chat_id, kind, user_id, mu, sigma, games, at FROM rating_history"
                " ORDER BY id")


async def rows(app: App, query: Query) -> list[tuple[Any, ...]]:
    return [tuple(r) for r in await app.store.fetch(query)]


async def garble(app: App) -> None:
    async def job(tx: Tx) -> None:
        await tx.execute(Query("UPDATE ratings SET mu = mu + 1.5, games = games + 7"))
        await tx.execute(Query("DELETE FROM rating_history WHERE game_id % 2 = 0"))
        await tx.execute(Query("UPDATE rating_history SET sigma = 0"))
        await tx.execute(Query("INSERT INTO ratings (platform, chat_id, kind, user_id, name, mu, sigma, games,"
                               " updated) VALUES ('test', 'group-9', 'duel', 'mallory', 'Mallory', 99, 1, 3, 0)"))
    await app.store.run(job)


async def finish_duel(t: Table, first: str, second: str, draw: bool = False) -> str:
    r = await played_out(t, first, second, draw)
    assert "wins" in texts(r) or "raw" in texts(r), texts(r)
    return "" if draw else first


async def play(app: App, clock: Clock, tmp_path: Path) -> dict[str, Expected]:
    """Games in two chats; the expected ratings per scope (group-1, group-2, across chats)."""
    app.solver_cache = str(tmp_path / "solver-cache")
    one, two = Table(app), Table(app, group=GROUP_2)
    want = {"group-1": Expected(), "group-2": Expected(), ratings.EVERYWHERE: Expected()}

    def duel(chat: str, winner: str) -> None:
        ranks = [1.0, 1.0] if not winner else [1.0 if p == winner else 2.0 for p in ("alice", "bob")]
        for scope in (chat, ratings.EVERYWHERE):
            want[scope].play("duel", [["alice"], ["bob"]], ranks)

    _gid, late_first, late_second = await start_duel(two)  # begun first, ends after the next one
    clock.now += 60
    _gid, first, second = await start_duel(one)
    duel("group-1", await finish_duel(one, first, second))
    clock.now += 60
    duel("group-2", await finish_duel(two, late_first, late_second))
    _gid, first, second = await start_duel(one)
    duel("group-1", await finish_duel(one, first, second, draw=True))
    # against the bot (fixed rating of its level)
    winner = await bot_duel_played(one)
    bot = ratings.BOT_RATINGS["easy"]
    for scope in ("group-1", ratings.EVERYWHERE):
        want[scope].play("duel", [["ann"], ["bot"]], [2.0 if winner == "bot" else 1.0, 2.0 if winner == "ann" else 1.0],
                         fixed={"bot": (bot.mu, bot.sigma)})
    # the word game, a ranking by points
    gid = await open_game(one, "points 1")
    r = await one.say(await set_word(one, gid, "crane"), "crane")
    st = await one.state(gid)
    assert st["phase"] == "finished", texts(r)
    moved = {u for u, n in st["counts"].items() if n} | {r["setter"] for r in st["rounds"]}
    players = [p["user_id"] for p in st["players"] if p["user_id"] in moved]  # who made no move is not rated
    points = {p: st["points"].get(p, 0) for p in players}
    for scope in ("group-1", ratings.EVERYWHERE):
        want[scope].play("words", [[p] for p in players],
                         [1.0 + sum(v > points[p] for v in points.values()) for p in players])
    # Hausnummern: members are names of this club, rated in the chat only
    await appoint(one, "alice")  # the club's scorer: rated club games
    await start_kegeln(one)
    for pins, pos in SEED_THROWS:
        r = await one.say("alice", f"/wurf {pins} {10 ** pos}")
    assert "Winner: Sven" in texts(r)
    want["group-1"].play("kegeln", [["sven"], ["birgit"], ["hanne"], ["klaus"]], [1, 2, 3, 4])
    return want


def assert_agree(got: list[tuple[Any, ...]], want: dict[str, Expected]) -> None:
    table = {(c, k, u): (mu, sg, g) for _p, c, k, u, _n, mu, sg, g, _at in got}
    expected = {(scope, k, u): v for scope, e in want.items() for (k, u), v in e.ratings.items()}
    assert set(table) == set(expected)
    for key, (mu, sigma, games) in expected.items():
        assert abs(table[key][0] - mu) < 1e-9 and abs(table[key][1] - sigma) < 1e-9, key
        assert table[key][2] == games, key


async def test_rebuild_gives_exactly_the_stored_ratings_and_history(app: App, clock: Clock, tmp_path: Path) -> None:
    want = await play(app, clock, tmp_path)
    stored, history = await rows(app, RATINGS), await rows(app, HISTORY)
    assert_agree(stored, want)
    assert len(history) == sum(g for *_, g, _at in stored) and {r[2] for r in history} == {
        "group-1", "group-2", ratings.EVERYWHERE}
    await garble(app)
    assert await rows(app, RATINGS) != stored
    done = await ratings_rebuild.rebuild(app)
    assert (done.rated, done.ratings, done.steps) == (6, len(stored), len(history))
    assert await rows(app, RATINGS) == stored  # the very same floats, names and times
    assert await rows(app, HISTORY) == history
    # wiped entirely: the same again
    async def wipe(tx: Tx) -> None:
        await tx.execute(Query("DELETE FROM rating_history"))
        await tx.execute(Query("DELETE FROM ratings"))
    await app.store.run(wipe)
    await ratings_rebuild.rebuild(app)
    assert await rows(app, RATINGS) == stored and await rows(app, HISTORY) == history


def test_the_operator_command_rebuilds(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    db = str(tmp_path / "bot.sqlite3")

    async def build() -> tuple[list[tuple[Any, ...]], list[tuple[Any, ...]]]:
        app = await App.open(db, seed=42, clock=Clock(), idle_timeout=3600)
        try:
            table = Table(app)
            _gid, first, second = await start_duel(table)
            await finish_duel(table, first, second)
            stored = await rows(app, RATINGS), await rows(app, HISTORY)
            await garble(app)
            return stored
        finally:
            await app.close()

    async def read() -> tuple[list[tuple[Any, ...]], list[tuple[Any, ...]]]:
        app = await App.open(db)
        try:
            return await rows(app, RATINGS), await rows(app, HISTORY)
        finally:
            await app.close()

    stored = asyncio.run(build())
    assert asyncio.run(read()) != stored
    assert main(["ratings", "rebuild", "--db", db]) == 0
    assert "ratings rebuilt from 1 finished games (1 rated): 4 ratings, 4 history rows" in capsys.readouterr().out
    assert asyncio.run(read()) == stored
    assert main(["ratings", "--db", db]) == 2
    assert main(["ratings", "rebuild", "--db", str(tmp_path / "none.sqlite3")]) == 1
