"""/hint, /analyse and /duel bot through the App on a real SQLite file."""

from __future__ import annotations

import json
import random
import re
from decimal import Decimal
from pathlib import Path

from bot.games.computer.storage import bot_level
from bot.games.practice.storage import practice_bests
from bot.storage.sql import Query, Tx, TxJob
from core.games.duel import rules as duel
from core.messages import Actor, Outbound
from core.scoring import bulls_cows
from core.solver import Solver, digits
from tests.app.conftest import Clock
from tests.app.harness import Table, found, texts


async def test_hint_counts_suggests_and_marks_assisted(table: Table) -> None:
    await table.say("ann", "/practice 3")
    gid = found(await table.app.store.last_game("test", "group-1", "ann")).id
    secret = (await table.state(gid))["secret"]
    r = await table.say("ann", "/hint")
    out = texts(r)
    assert "720 codes are still possible" in out and "assisted" in out
    suggestion = found(re.search(r"strong next guess: (\d{3})", out)).group(1)
    assert (await table.state(gid))["assisted"] is True
    await table.say("ann", suggestion)
    st = await table.state(gid)
    a, b = bulls_cows(secret, suggestion)
    left = sum(1 for c in (f"{i:03d}" for i in range(1000)) if len(set(c)) == 3 and bulls_cows(c, suggestion) == (a, b))
    r = await table.say("ann", "/hint")
    assert f"{left} code" in texts(r) and "assisted" not in texts(r)  # said once
    # play it out with the solver's hints: an assisted win gets no rating and no personal best
    solver = Solver(digits(3, False))
    while st["phase"] != "finished":
        history = [(x["code"], x["a"], x["b"]) for x in st["attempts"]]
        r = await table.say("ann", "".join(solver.strong(history)))
        st = await table.state(gid)
    rows = await table.app.store.fetch(Query("SELECT outcome, rating FROM results WHERE game_id = :id"), id=gid)
    assert [tuple(x) for x in rows] == [("win", None)]
    assert await practice_bests(table.app.store, "test", "ann") == []
    assert "best" not in texts(r).lower()


async def test_hint_needs_a_practice_game(table: Table) -> None:
    r = await table.say("ann", "/hint")
    assert "/hint works in your running practice game" in texts(r)


async def test_analyse_after_practice(table: Table) -> None:
    r = await table.say("ann", "/analyse")
    assert "Nothing to analyse" in texts(r)
    await table.say("ann", "/practice 3")
    gid = found(await table.app.store.last_game("test", "group-1", "ann")).id
    # fix the secret for exact numbers (the scripted game of tests/solver/test_solver.py)
    await table.app.store.run(_set_secret(gid, "123"))
    for code in ("456", "789", "012", "450"):
        await table.say("ann", code)
    r = await table.say("ann", "/analyse")
    assert "Nothing to analyse" in texts(r)  # still running
    await table.say("ann", "123")
    out = texts(await table.say("ann", "/analyse"))
    assert "#1 456 → 0A0B · 720 → 210" in out
    assert "#3 012 → 0A2B · 24 → 9" in out
    assert "#4 450 → 0A0B · 9 → 3 ⚠ #1 #3" in out
    assert "#5 123 → 3A0B · 3 → 1" in out
    assert re.search(r"strong solver on the same code \(guesses: \d\): .*123$", out, re.M)
    # 3 digits has a perfect tree: each guess against perfect play (456 is the tree's opening, renamed)
    assert re.search(r"#1 456 → 0A0B · 720 → 210 · ⌀ 4\.965 → 3\.965, \+0\.000 · ★ 456", out), out
    assert re.search(r"Your guesses cost \d\.\d{3} guesses in all; perfect play needs 4\.965 on average", out)
    # the figures add up as shown (issue 40): 1 + after − before = cost in every row, the total is their sum
    rows = re.findall(r"⌀ (\d+\.\d{3}) → (\d+\.\d{3}), \+(\d+\.\d{3})", out)
    assert len(rows) == 5, out
    assert all(1 + Decimal(a) - Decimal(b) == Decimal(c) for b, a, c in rows), rows
    total = re.search(r"Your guesses cost (\d+\.\d{3}) guesses in all", out)
    assert total is not None and Decimal(total.group(1)) == sum(Decimal(c) for _b, _a, c in rows), out


def _set_secret(gid: int, secret: str) -> TxJob:
    """A store write job (run in one transaction) that fixes a game's secret."""
    async def job(tx: Tx) -> None:
        state = json.loads(await tx.fetchval(Query("SELECT state FROM games WHERE id = :id"), id=gid))
        state["secret"] = secret
        await tx.execute(Query("UPDATE games SET state = :state WHERE id = :id"), state=json.dumps(state), id=gid)
    return job


async def play_bot_duel(table: Table, who: str, level: str, secret: str = "4071") -> tuple[int, list[Outbound]]:
    r = await table.say(who, f"/duel bot {level}")
    sent = list(r.messages)
    out = texts(r)
    assert "takes on Bot" in out and "secret code" in out
    gid = found(await table.app.store.last_game("test", "group-1", who)).id
    st = await table.state(gid)
    assert st["phase"] == "secrets" and set(st["secrets"]) == {"bot"}
    r = await table.dm(who, secret)
    sent += r.messages
    rnd = random.Random(5)
    solver = Solver(digits(4, False))
    for _ in range(40):
        st = await table.state(gid)
        if st["phase"] == "finished":
            break
        assert st["turn"] == who  # the bot has always moved already
        mine = [(x["code"], x["a"], x["b"]) for x in st["attempts"][who]]
        r = await table.say(who, "".join(solver.easy(mine, rnd)))
        sent += r.messages
    return gid, sent


async def test_duel_against_the_strong_bot(table: Table) -> None:
    gid, sent = await play_bot_duel(table, "ann", "strong")
    st = await table.state(gid)
    assert st["phase"] == "finished"
    assert all(not (isinstance(m.to, Actor) and m.to.user_id == "bot") for m in sent)  # nothing to the bot
    bot = st["attempts"]["bot"]
    assert bot and len(bot) <= 7
    for x in bot:  # its guesses are scored against ann's secret like anyone's
        assert bulls_cows("4071", x["code"]) == (x["a"], x["b"])
    assert any("Bot #1:" in m.text for m in sent)
    rows = await table.app.store.fetch(Query("SELECT user_id FROM results WHERE game_id = :id"), id=gid)
    assert {r[0] for r in rows} == {"ann", "bot"}
    assert await table.app.store.seated_games("test", "bot") == []  # the bot never takes a seat


async def test_easy_bot_guesses_consistently_and_two_humans_play_it_at_once(table: Table) -> None:
    r1 = await table.say("ann", "/duel bot easy 3")
    r2 = await table.say("bob", "/duel bot leicht 3")
    assert "(easy)" in texts(r1) and "(easy)" in texts(r2)
    gid, _sent = await play_bot_duel(table, "cid", "easy")
    bot = (await table.state(gid))["attempts"]["bot"]
    for i, x in enumerate(bot):
        for y in bot[:i]:
            assert bulls_cows(x["code"], y["code"]) == (y["a"], y["b"])


async def test_rematch_against_the_bot_keeps_level_and_bot_accepts(table: Table) -> None:
    gid, _ = await play_bot_duel(table, "ann", "easy")
    r = await table.say("ann", "/rematch")
    out = texts(r)
    new = found(await table.app.store.last_game("test", "group-1", "ann")).id
    assert new != gid, out
    st = await table.state(new)
    assert st["phase"] == "secrets" and "bot" in st["secrets"], out
    assert await bot_level(table.app.store, "test", "group-1", "duel", new, "ann") == "easy"
    r = await table.dm("ann", "9876")
    st = await table.state(new)
    assert st["phase"] == "playing" and st["turn"] == "ann"


async def test_duel_bot_refused_while_in_a_game_says_only_why(table: Table) -> None:
    await table.say("ann", "/practice")
    r = await table.say("ann", "/duel bot")
    assert "takes on" not in texts(r) and "already" in texts(r)
    r = await table.say("ann", "/duel bot 7")
    assert "The length must be 3/4/5, not 7" in texts(r)


async def test_logik_against_the_bot_and_analyse(table: Table) -> None:
    r = await table.say("ann", "/logik bot easy rows 8")
    assert "takes on Bot (easy)" in texts(r)
    gid = found(await table.app.store.last_game("test", "group-1", "ann")).id
    st = await table.state(gid)
    assert st["rows_max"] == 8 and set(st["secrets"]) == {"bot"}
    r = await table.dm("ann", "12345")
    st = await table.state(gid)
    assert st["phase"] == "playing" and "bot" in st["pending"]  # the bot sent its first row at once
    sent = list(r.messages)
    for row in ("11223", "44556", "77881", "12121", "34343", "56565", "78787", "/guess 23232"):
        r = await table.say("ann", row)
        sent += r.messages
        st = await table.state(gid)
        if st["phase"] == "finished":
            break
        assert "bot" in st["pending"]  # every new round: the bot's row is in before ann's
    assert st["phase"] == "finished"
    assert all(not (isinstance(m.to, Actor) and m.to.user_id == "bot") for m in sent)
    assert await table.app.store.seated_games("test", "bot") == []
    out = texts(await table.say("ann", "/analyse"))
    assert "#1 11223 → " in out and "⚫" in out and "32768 → " in out
    assert "/hint works" in texts(await table.say("ann", "/hint"))
    r = await table.say("ann", "/rematch")
    new = found(await table.app.store.last_game("test", "group-1", "ann")).id
    st = await table.state(new)
    assert new != gid and st["phase"] == "secrets" and "bot" in st["secrets"], texts(r)


async def test_bot_disguise_is_drawn_per_game_not_from_its_secret_and_survives_a_restart(
        db: str, clock: Clock, tmp_path: Path) -> None:
    """Through the App: each bot game (also a rematch, which the App's bot accepts) stores a random
    disguise; with the bot's secret replaced, it would have played exactly the same; a new process on
    the same file plays on as the stored game says."""
    from bot.app.app import App
    from core import serial
    from tests.solver import views as sg

    app = await App.open(db, seed=7, clock=clock, idle_timeout=3600)
    app.solver_cache = str(tmp_path / "solver-cache")
    table = Table(app)
    gid, _ = await play_bot_duel(table, "ann", "strong")
    await table.say("ann", "/rematch")
    new = found(await app.store.last_game("test", "group-1", "ann")).id
    first, second = await table.state(gid), await table.state(new)
    assert isinstance(first["disguise"], int) and isinstance(second["disguise"], int)
    assert first["disguise"] != second["disguise"]
    await table.dm("ann", "4071")
    await table.say("ann", "5678" if (await table.state(new))["turn"] == "ann" else "/board")
    await app.close()

    app = await App.open(db, seed=8, clock=clock, idle_timeout=3600)  # a restart, another seed
    app.solver_cache = str(tmp_path / "solver-cache")
    table = Table(app)
    await table.say("ann", "9012")
    st = serial.load(duel.State, await table.state(new))
    bot = st.attempts[sg.BOT]
    assert len(bot) >= 2
    solver = Solver(digits(4, False))
    for i, att in enumerate(bot):  # every guess, before and after the restart, follows from the stored game
        for secret in ("0123", "9876", st.secrets[sg.BOT]):
            probe = serial.clone(st)
            probe.attempts = {sg.BOT: bot[:i], "ann": []}
            probe.secrets[sg.BOT] = secret
            assert sg.bot_guess(solver, probe, "strong", random.Random(i)).code == att.code
    await app.close()
