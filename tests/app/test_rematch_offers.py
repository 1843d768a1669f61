"""Rematch offers never trap the pair (issue 18): a second offer for the same pair joins the first
one, and /accept, /decline and /cancel answer both players in every state of an offer. Duel and
Logik through the App on a real SQLite file."""

from __future__ import annotations

import asyncio
from typing import Any

import pytest

from bot.app.app import App
from core import serial
from core.games.base import Ctx
from core.games.duel import rules as duel
from core.games.logik import rules as logik
from core.messages import Actor
from tests.app.harness import Table, texts
from tests.app.test_duel_flow import start_duel

KINDS = ["duel", "logik"]
REPEATS = 6  # rounds of two presses at once (each round a race of its own)


async def finished(t: Table, kind: str) -> tuple[int, str]:
    """A finished game of alice and bob; returns (its id, its 🔁 button)."""
    if kind == "duel":
        gid, _first, second = await start_duel(t)
        r = await t.say(second, "/resign")
    else:
        r = await t.say("alice", "/logik <@bob>")
        gid = int(t.button(r, ":accept").split(":")[1])
        await t.say("bob", "/accept")
        r = await t.say("alice", "/resign")  # resigned while the secrets were due: a game with a result
    return gid, t.button(r, ":rematch")


async def running(app: App) -> list[tuple[int, str]]:
    """The running games of the chat: (id, phase)."""
    return [(r.id, r.state["phase"]) for r in await app.store.chat_games("test", "group-1")]


async def offer(t: Table, kind: str) -> int:
    """alice offers the rematch; returns the offer's game id."""
    await finished(t, kind)
    r = await t.say("alice", "/rematch")
    return int(t.button(r, ":accept").split(":")[1])


@pytest.mark.parametrize("kind", KINDS)
@pytest.mark.parametrize("how", ["button", "command"])
async def test_the_other_player_asking_for_a_rematch_too_accepts_the_offer(table: Table, kind: str, how: str) -> None:
    _gid, button = await finished(table, kind)
    r = await table.say("alice", "/rematch")
    offered = int(table.button(r, ":accept").split(":")[1])
    r = await (table.press("bob", button) if how == "button" else table.say("bob", "/rematch"))
    assert "Bob accepts Alice's" in texts(r), texts(r)
    assert await running(table.app) == [(offered, "secrets")]
    private = {m.to.user_id for m in r.messages if isinstance(m.to, Actor)}
    assert private == {"alice", "bob"}  # both are asked for their secrets


@pytest.mark.parametrize("kind", KINDS)
async def test_both_pressing_rematch_at_once_make_one_game(table: Table, kind: str) -> None:
    _gid, button = await finished(table, kind)
    ra, rb = await asyncio.gather(table.press("alice", button), table.press("bob", button))
    out = texts(ra) + texts(rb)
    assert "Alice accepts Bob's" in out or "Bob accepts Alice's" in out, out
    games = await running(table.app)
    assert len(games) == 1 and games[0][1] == "secrets", (games, out)


@pytest.mark.parametrize("kind", KINDS)
@pytest.mark.parametrize("how", ["button", "command", "accept"])
async def test_the_offerer_asking_again_is_told_the_offer_stands(table: Table, kind: str, how: str) -> None:
    _gid, button = await finished(table, kind)
    r = await table.say("alice", "/rematch")
    offered = int(table.button(r, ":accept").split(":")[1])
    r = await {"button": lambda: table.press("alice", button), "command": lambda: table.say("alice", "/rematch"),
               "accept": lambda: table.say("alice", "/accept")}[how]()
    assert f"Your rematch offer (game #{offered}) stands: Bob can accept it" in texts(r), texts(r)
    assert await running(table.app) == [(offered, "challenge")]


@pytest.mark.parametrize("kind", KINDS)
@pytest.mark.parametrize(("who", "command", "said"), [
    ("alice", "/cancel", "withdrew"), ("alice", "/decline", "withdrew"),
    ("bob", "/decline", "declined"), ("bob", "/cancel", "declined")])
async def test_a_pending_offer_ends_by_cancel_or_decline_from_either(table: Table, kind: str, who: str,
                                                                    command: str, said: str) -> None:
    offered = await offer(table, kind)
    r = await table.say(who, command)
    assert said in texts(r), texts(r)
    assert await running(table.app) == []
    for again in ("bob", "alice"):  # and the match goes on from there, as the unplayed offer set it up
        r = await table.say(again, "/rematch")
        assert f"{again.capitalize()} wants a" in texts(r), texts(r)
        first, second = await table.state(offered), await table.state(int(table.button(r, ":accept").split(":")[1]))
        side = "starter" if kind == "duel" else "white"
        assert second[side] == first[side] and second["match"] == first["match"], (first, second)
        await table.say(again, "/cancel")


@pytest.mark.parametrize("kind", KINDS)
async def test_after_the_offer_was_accepted_cancel_and_accept_say_what_to_do(table: Table, kind: str) -> None:
    offered = await offer(table, kind)
    await table.say("bob", "/accept")
    for who in ("alice", "bob"):
        assert "/resign" in texts(await table.say(who, "/cancel"))
        assert "no challenge" in texts(await table.say(who, "/accept"))
        assert "no challenge" in texts(await table.say(who, "/decline"))
    assert await running(table.app) == [(offered, "secrets")]


async def twin_offers(t: Table, kind: str) -> tuple[int, int]:
    """alice's offer and bob's offer for the same match, both pending: what two bot processes
    answering both presses at the same moment (or a database from before the offers were joined)
    leave behind. Returns (alice's offer, bob's offer)."""
    gid, _button = await finished(t, kind)
    r = await t.say("alice", "/rematch")
    alices = int(t.button(r, ":accept").split(":")[1])
    row = await t.app.store.get_game(gid)
    assert row is not None
    mod = duel if kind == "duel" else logik
    old = serial.load(mod.State, row.state)
    state, events = mod.rematch(old, "bob", Ctx(t.app.clock(), t.app.rng, lambda lang: None))
    bobs = await t.app.store.create_game("test", "group-1", False, kind, serial.dump(state), ["bob"], events,
                                         t.app.clock())
    assert sorted(await running(t.app)) == [(alices, "challenge"), (bobs, "challenge")]
    return alices, bobs


@pytest.mark.parametrize("kind", KINDS)
@pytest.mark.parametrize("who", ["alice", "bob"])
async def test_twin_offers_accept_joins_the_other_offer(table: Table, kind: str, who: str) -> None:
    alices, bobs = await twin_offers(table, kind)
    r = await table.say(who, "/accept")
    out = texts(r)
    assert "already in a game" not in out and "accepts" in out, out
    kept = bobs if who == "alice" else alices
    assert await running(table.app) == [(kept, "secrets")]


@pytest.mark.parametrize("kind", KINDS)
@pytest.mark.parametrize("who", ["alice", "bob"])
async def test_twin_offers_cancel_withdraws_ones_own(table: Table, kind: str, who: str) -> None:
    alices, bobs = await twin_offers(table, kind)
    r = await table.say(who, "/cancel")
    assert "already in a game" not in texts(r) and "withdrew" in texts(r), texts(r)
    left = bobs if who == "alice" else alices
    assert await running(table.app) == [(left, "challenge")]
    other = "bob" if who == "alice" else "alice"
    r = await table.say(who, "/accept")  # the other offer still stands, and the actor may take it
    assert "accepts" in texts(r), texts(r)
    assert await running(table.app) == [(left, "secrets")], other


@pytest.mark.parametrize("kind", KINDS)
async def test_twin_offers_rematch_from_either_joins_them(table: Table, kind: str) -> None:
    alices, _bobs = await twin_offers(table, kind)
    r = await table.say("bob", "/rematch")  # bob's own offer stands, but alice has offered too: accepted
    assert "Bob accepts Alice's" in texts(r), texts(r)
    assert await running(table.app) == [(alices, "secrets")]


@pytest.mark.parametrize("kind", KINDS)
@pytest.mark.parametrize(("first", "second"), [("alice", "bob"), ("alice", "alice")])
async def test_two_processes_pressing_rematch_at_once_make_one_offer(table: Table, db: str, clock: Any,
                                                                     kind: str, first: str, second: str) -> None:
    """Two bot processes (two Apps, each with its own connections and locks, over one database)
    answer two 🔁 presses of one finished game at the same moment, again and again: the database
    lets only one offer through (compare-and-set on the finished game's row, which links its
    rematch); the other press sees it and accepts it (the other player) or is told it stands (the
    offerer)."""
    other = await App.open(db, seed=7, clock=clock, idle_timeout=3600)
    twin = Table(other)
    try:
        _gid, button = await finished(table, kind)
        for _ in range(REPEATS):
            ra, rb = await asyncio.gather(table.press(first, button), twin.press(second, button))
            out = texts(ra) + texts(rb)
            games = await running(table.app)
            phase = "secrets" if first != second else "challenge"
            assert len(games) == 1 and games[0][1] == phase, (games, out)
            source = await table.app.store.get_game(int(button.split(":")[1]))
            assert source is not None and source.state["next_game"] == games[0][0]  # the offer is linked
            if first == second:
                assert "stands" in out, out
            r = await table.say("alice", "/resign" if first != second else "/cancel")
            button = table.button(r, ":rematch") if first != second else button
            assert await running(table.app) == [], texts(r)
    finally:
        await other.close()
