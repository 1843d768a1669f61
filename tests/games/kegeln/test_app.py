"""Hausnummern through the App on a real SQLite file: commands, buttons, the scorer role,
refusals, restarts, ties and the club statistics written with the final move."""

from __future__ import annotations

import asyncio
import io
import sqlite3
from typing import Any

from PIL import Image

from bot.app.app import App
from core.messages import Actor, Chat, Inbound
from tests.app.conftest import Clock
from tests.app.harness import GROUP, Table, texts
from tests.club.harness import appoint
from tests.games.kegeln.test_rules import SEED_THROWS


async def start(t: Table, text: str = "/kegeln high 3 Birgit Klaus Sven Hanne", who: str = "alice") -> int:
    """A game `who` starts: a club game when the club has appointed them (tests/club/harness.py), else casual."""
    r = await t.say(who, text)
    assert "Hausnummern #" in texts(r), texts(r)
    return int(texts(r).split("#")[1].split(":")[0])


def rows(db: str, sql: str) -> list[tuple[Any, ...]]:
    with sqlite3.connect(db) as conn:
        return conn.execute(sql).fetchall()


async def test_seed_game_through_commands_and_buttons(table: Table, db: str) -> None:
    gid = await start(table)
    # Birgit 7 → hundreds in two steps: /wurf 7, then the button
    r = await table.say("alice", "/wurf 7")
    standings = r.messages[0]
    assert standings.edit_key == f"kegeln:{gid}:standings"
    assert [b.label for row in standings.buttons for b in row] == ["hundreds", "tens", "ones", "↩️ Undo"]
    r = await table.press("alice", table.button(r, ":p2"))
    assert "Birgit: 7 pins → hundreds." in texts(r) and "Birgit 7__" in texts(r)
    assert "▶ Klaus's throw" in texts(r)
    # the other spellings of one-step entries
    await table.say("alice", "/throw pumpe tens")
    await table.say("alice", "/wurf 9 100")
    r = await table.say("alice", "/wurf 5h")
    assert "Hanne  5__" in texts(r) and "Klaus  _0_" in texts(r)
    for pins, pos in SEED_THROWS[4:]:
        r = await table.say("alice", f"/wurf {pins} {10 ** pos}")
    out = texts(r)
    assert "1. Sven 941\n2. Birgit 732\n3. Hanne 516\n4. Klaus 308" in out and "Winner: Sven" in out
    assert rows(db, "SELECT mode, digits, teams, winner, decided FROM kegeln_games") == [("high", 3, 0, "Sven", 0)]
    members = rows(db, "SELECT name, number, place, win, throws, pins, nines, pumpen FROM kegeln_members"
                       " ORDER BY place")
    assert members == [("Sven", 941, 1, 1, 3, 14, 1, 0), ("Birgit", 732, 2, 0, 3, 12, 0, 0),
                       ("Hanne", 516, 3, 0, 3, 12, 0, 0), ("Klaus", 308, 4, 0, 3, 11, 0, 1)]
    assert rows(db, "SELECT COUNT(*) FROM kegeln_throws") == [(12,)]
    assert rows(db, f"SELECT COUNT(*) FROM results WHERE game_id = {gid}") == [(0,)]  # names are not accounts
    # the seat is free again: the scorer can start the next game
    await start(table, "/kegeln low 2 Birgit Klaus")


async def test_only_the_scorer_enters_and_refusals_change_nothing(table: Table) -> None:
    gid = await start(table)
    await table.say("alice", "/wurf 7 H")
    before = await table.state(gid)
    for who, text, expected in [
        ("bob", "/wurf 5 H", "Only the scorer Alice"),
        ("bob", "/undo", "Only the scorer Alice"),
        ("alice", "/wurf 10 H", "“10” is not a throw: 0 to 9 pins"),
        ("alice", "/wurf x", "“x” is not a throw"),
        ("alice", "/wurf 5 thousands", "this game has 3 places"),
        ("alice", "/wurf 5 q", "I do not know the place “q”"),
        ("alice", "/wurf", "Write the pins after the command"),
    ]:
        r = await table.say(who, text)
        assert expected in texts(r), (text, texts(r))
        assert await table.state(gid) == before
    await table.say("alice", "/wurf 5")  # Klaus: pins wait for a place
    waiting = await table.state(gid)
    r = await table.press("bob", f"g:{gid}:p1")
    assert "Only the scorer Alice" in texts(r) and await table.state(gid) == waiting


async def test_position_taken_then_undo_across_players(table: Table) -> None:
    gid = await start(table, "/kegeln high 3 Birgit Klaus")
    await table.say("alice", "/wurf 7 H")
    await table.say("alice", "/wurf 3 O")
    await table.say("alice", "/wurf 4 T")
    r = await table.say("alice", "/wurf 5 T")
    assert "Klaus's ones place is already taken" not in texts(r)  # tens were free for Klaus
    r = await table.say("alice", "/wurf 2 H")
    assert "Birgit's hundreds place is already taken" in texts(r)
    for expected in ("Undone: 5 pins by Klaus on the tens", "Undone: 4 pins by Birgit on the tens",
                     "Undone: 3 pins by Klaus on the ones"):
        r = await table.say("alice", "/undo")
        assert expected in texts(r)
    st = await table.state(gid)
    assert len(st["throws"]) == 1 and "▶ Klaus's throw" in texts(r)


async def test_scorer_hands_over_and_admins_may_act(table: Table) -> None:
    gid = await start(table, "/kegeln high 2 Anna Ben")
    await table.say("bob", "hello")  # the bot now knows Bob in this chat
    r = await table.say("alice", "/scorer Bob")  # a club game goes only to one of the club's scorers
    assert "A club game's score stays with a chat admin or one of the club's scorers (Alice)" in texts(r), texts(r)
    await appoint(table, "bob")
    r = await table.say("alice", "/scorer Bob")
    assert "Bob is now the scorer (was Alice)" in texts(r)
    r = await table.say("alice", "/wurf 5 T")
    assert "Only the scorer Bob" in texts(r)
    await table.say("bob", "/wurf 5 T")
    # Alice's seat is free: she can run a game of her own on another lane
    second = await start(table, "/kegeln low 2 Cem Dora")
    # a chat admin acts like the scorer (in the newest game here), and may take the role
    admin = Actor("test", "carol", "Carol", "en", is_admin=True)
    r = await table.send(Inbound(admin, GROUP, command="wurf", args=("3", "E"), event_id="adm-1"))
    assert "Cem: 3 pins → ones." in texts(r)
    r = await table.say("carol", "/undo")  # the same person without admin rights
    assert "Only the scorer Alice" in texts(r)
    r = await table.send(Inbound(admin, GROUP, command="scorer", event_id="adm-2"))
    assert "Carol is now the scorer (was Alice)" in texts(r)
    assert (await table.state(second))["scorer"]["name"] == "Carol"
    assert (await table.state(gid))["scorer"]["name"] == "Bob"  # only that game changed hands


async def test_tie_decided_by_buttons_and_recorded(table: Table, db: str) -> None:
    gid = await start(table, "/kegeln hoch 2 Anna Ben Cem")
    for cmd in ("5 T", "5 T", "3 T", "1 O", "1 O"):
        await table.say("alice", f"/wurf {cmd}")
    r = await table.say("alice", "/wurf 9")
    assert "Tie for first place with 51" in texts(r)
    assert (await table.state(gid))["phase"] == "tie"
    r2 = await table.press("bob", table.button(r, ":w1"))
    assert "Only the scorer" in texts(r2)
    r = await table.press("alice", table.button(r, ":w1"))
    assert "named the winner: Ben" in texts(r) and "1. Ben 51\n2. Anna 51\n3. Cem 39" in texts(r)
    assert rows(db, "SELECT winner, decided FROM kegeln_games") == [("Ben", 1)]
    assert rows(db, "SELECT name FROM kegeln_members WHERE win = 1") == [("Ben",)]


async def test_team_duel_through_the_app(table: Table, db: str) -> None:
    await start(table, "/kegeln high 2 teams Birgit Klaus / Sven Hanne / Ute")
    for cmd in ("9 Z", "8 Z", "1 Z", "0 Z", "2 Z", "0 E", "0 E", "0 E", "0 E", "0 E"):
        r = await table.say("alice", f"/wurf {cmd}")
    out = texts(r)
    assert "1. [2] ⌀ 50.0 (Sven 80, Hanne 20)\n2. [1] ⌀ 45.0 (Birgit 90, Klaus 0)\n3. [3] ⌀ 10.0 (Ute 10)" in out
    assert "Winner: Team 2" in out
    assert rows(db, "SELECT winner FROM kegeln_games") == [("Sven, Hanne",)]
    assert sorted(rows(db, "SELECT name FROM kegeln_members WHERE win = 1")) == [("Hanne",), ("Sven",)]


async def test_restart_mid_game(db: str, clock: Clock) -> None:
    a = await App.open(db, seed=1, clock=clock)
    t = Table(a)
    gid = await start(t, "/kegeln low 2 Anna Ben")
    await t.say("alice", "/wurf 0")  # pins waiting for a place survive the restart
    await a.close()
    b = await App.open(db, seed=1, clock=clock)
    t = Table(b)
    r = await t.say("alice", "/board")
    assert "Anna: choose the place for a Pumpe" in texts(r)
    await t.press("alice", t.button(r, ":p0"))
    for cmd in ("2 O", "1 T", "3 T"):
        r = await t.say("alice", f"/wurf {cmd}")
    assert "1. Anna 19\n2. Ben 32" in texts(r)
    assert (await t.state(gid))["outcome"] == "done"
    await b.close()


async def test_german_position_words_and_buttons(table: Table) -> None:
    table.locale = "de"
    await start(table, "/kegeln tief 3 Anna Ben")
    r = await table.say("alice", "/wurf 0")
    out = texts(r)
    assert "Bei niedrigen Nummern zählt die Pumpe 9 — sie gehört auf die Einer." in out
    assert [b.label for row in r.messages[0].buttons for b in row] == ["Hunderter", "Zehner", "Einer", "↩️ Zurück"]
    await table.press("alice", table.button(r, ":p0"))
    r = await table.say("alice", "/wurf 4 Zehner")
    assert "Ben: 4 Kegel → Zehner." in texts(r)
    r = await table.say("alice", "/wurf 3 t")  # German chat: t = Tausender, not in a 3-place game
    assert "3 Stellen" in texts(r)


async def test_statistics_after_a_scripted_evening(table: Table, clock: Clock) -> None:
    await start(table, "/kegeln high 2 Anna Ben")
    for cmd in ("9 T", "0 T", "5 O", "3 O"):  # Anna 95 beats Ben 3
        await table.say("alice", f"/wurf {cmd}")
    clock.now += 3600
    await start(table, "/kegeln low 2 anna Ben")  # the same member, whatever the case
    for cmd in ("9 O", "1 T", "0 T", "2 O"):  # anna 99, Ben 12: Ben wins low
        await table.say("alice", f"/wurf {cmd}")
    r = await table.say("bob", "/kegelstats ANNA")
    out = texts(r)
    assert ("anna: 2 games · wins high 1 · wins low 0 · 9s: 2 · Pumpen: 1 · Kegel-Schnitt 5.8 (4 throws)"
            in out), out
    (msg,) = r.messages
    assert msg.image is not None and Image.open(io.BytesIO(msg.image)).format == "PNG"
    r = await table.say("bob", "/kegelstats")
    assert "1. anna — 2 · 1/0 · 9×2 · P×1 · ⌀ 5.8\n2. Ben — 2 · 0/1 · 9×0 · P×1 · ⌀ 1.5" in texts(r)
    assert r.messages[0].image is not None
    r = await table.say("bob", "/kegelstats Zoe")
    assert "No finished Kegeln game here with Zoe" in texts(r)


async def test_no_game_and_empty_stats(table: Table) -> None:
    r = await table.say("alice", "/wurf 7")
    assert "no Kegeln game running here" in texts(r)
    r = await table.say("alice", "/kegelstats")
    assert "No finished Kegeln games in this chat yet" in texts(r)
    r = await table.say("alice", "/kegeln mittel Anna Ben")
    assert "“mittel” is not a mode" in texts(r)


async def test_cancel_ends_without_statistics(table: Table, db: str) -> None:
    gid = await start(table, "/kegeln high 2 Anna Ben")
    await table.say("alice", "/wurf 5 T")
    r = await table.say("alice", "/cancel")
    assert "ended the Kegeln game without a result" in texts(r)
    assert (await table.state(gid))["outcome"] == "cancelled"
    assert rows(db, "SELECT COUNT(*) FROM kegeln_members") == [(0,)]


async def test_idle_game_times_out_without_statistics(table: Table, app: App, clock: Clock, db: str) -> None:
    gid = await start(table, "/kegeln high 2 Anna Ben")
    await table.say("alice", "/wurf 5 T")
    clock.now += 7200
    out = await app.runner.sweep()
    assert any("timed out" in m.text for m in out)
    assert (await table.state(gid))["outcome"] == "abandoned"
    assert rows(db, "SELECT COUNT(*) FROM kegeln_members") == [(0,)]
    await start(table, "/kegeln high 2 Anna Ben")  # the scorer's seat is free


async def test_concurrent_entries_are_serialised(table: Table) -> None:
    gid = await start(table, "/kegeln high 2 Anna Ben")
    await asyncio.gather(*(table.say("alice", "/wurf 4") for _ in range(3)))
    st = await table.state(gid)
    # the first /wurf waits for a place; the others are refused until it is placed
    assert st["pending"] == 4 and st["throws"] == []
    # a double tap on a place button: one press places the pins, the other finds nothing waiting
    answers = await asyncio.gather(*(table.press("alice", f"g:{gid}:p1") for _ in range(2)))
    st = await table.state(gid)
    assert len(st["throws"]) == 1 and st["pending"] is None
    assert sorted(bool(r.notice) for r in answers) == [False, True]


async def test_the_scorer_role_goes_only_to_someone_who_can_act_on_the_console(app: App) -> None:
    """Issue 18: on the console every typed name is a user, but only one who has written in the chat
    can act; `/scorer Zoe` for anyone else (a club member's name, a name never typed) left a game
    nobody could go on with."""
    table = Chat("console", "#table", private=False)

    async def say(who: str, command: str, *args: str) -> str:
        r = await app.handle(Inbound(Actor("console", who, who, "en"), table, command=command, args=args,
                                     event_id=f"{who}-{command}-{'-'.join(args)}"))
        return texts(r)

    await say("alice", "kegeln", "high", "2", "Anna", "Ben")
    for unknown in ("Zoe", "Anna", "<@Zoe>"):
        out = await say("alice", "scorer", unknown)
        assert "I do not know" in out and "write something here first" in out, out
        assert "is now the scorer" not in out
    assert "Anna: 7 pins" in await say("alice", "wurf", "7", "T")  # alice still keeps score
    await app.handle(Inbound(Actor("console", "bob", "bob", "en"), table, text="hello", event_id="bob-hi"))
    assert "bob is now the scorer (was alice)" in await say("alice", "scorer", "BOB")
    assert "Ben: 5 pins" in await say("bob", "wurf", "5", "T")


async def test_a_scorer_who_left_is_replaced_by_an_admin(table: Table) -> None:
    """The scorer is gone for good: a chat admin enters throws and takes the role with /scorer alone."""
    gid = await start(table, "/kegeln high 2 Anna Ben")
    r = await table.say("alice", "/scorer Zoe")  # never seen here: refused, alice keeps the role
    assert "I do not know Zoe in this chat yet" in texts(r)
    admin = Actor("test", "carol", "Carol", "en", is_admin=True)
    r = await table.send(Inbound(admin, GROUP, command="wurf", args=("7", "T"), event_id="adm-w"))
    assert "Anna: 7 pins → tens." in texts(r)
    r = await table.send(Inbound(admin, GROUP, command="scorer", event_id="adm-s"))
    assert "Carol is now the scorer (was Alice)" in texts(r)
    r = await table.say("carol", "/wurf 5 T")  # now as the scorer, admin rights or not
    assert "Ben: 5 pins → tens." in texts(r)
    assert (await table.state(gid))["scorer"]["user_id"] == "carol"
