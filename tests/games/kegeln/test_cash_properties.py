"""Money adds up in the stored cash book: any sequence of throws, undos, cancels, new games, merges, fines,
payments and corrections, typed through the real App on a real SQLite file, leaves the book's sum equal to
the balances' sum, every game's automatic lines equal to what its stored state calls for, and every line a
whole number of minor units (the core's property, tests/games/kegeln/test_cash.py, here end to end)."""

from __future__ import annotations

import asyncio
import tempfile
from pathlib import Path

from hypothesis import HealthCheck, event, given, settings
from hypothesis import strategies as st

from bot.app import App
from bot.games.kegeln import cash_storage
from core import serial
from core.games.kegeln import cash
from core.games.kegeln.state import State
from core.messages import Actor, Inbound, Response
from tests.app.conftest import Clock
from tests.app.harness import GROUP, PLATFORM, Table, texts

# two line-ups: Annie never plays with Anna, so `/kegelmerge Annie Anna` goes through once both have a game
LINEUPS = (("Anna", "Ben", "Cleo"), ("Annie", "Ben", "Cleo"))
NAMES = ("Anna", "Ben", "Cleo", "Annie")

steps = st.lists(st.one_of(
    st.tuples(st.just("throw"), st.integers(0, 9)),
    st.tuples(st.just("undo"), st.just(0)),
    st.tuples(st.just("cancel"), st.just(0)),
    st.tuples(st.just("new"), st.integers(0, 1)),
    st.tuples(st.just("game"), st.integers(0, 19)),  # a whole game of a line-up (n % 2), its pins from n
    st.tuples(st.just("merge"), st.integers(0, 2)),
    st.tuples(st.just("pay"), st.integers(1, 500)),
    st.tuples(st.just("fine"), st.integers(1, 500)),
    st.tuples(st.just("correct"), st.integers(-500, 500)),
    st.tuples(st.just("off"), st.booleans()),
), min_size=1, max_size=30)


def euros(cents: int) -> str:
    return f"{abs(cents) // 100},{abs(cents) % 100:02d}"


async def play(ops: list[tuple[str, int]], db: Path) -> None:
    clock = Clock()
    app = await App.open(str(db), seed=1, clock=clock, idle_timeout=3600)
    table = Table(app)

    async def admin(*words: str) -> Response:
        return await table.send(Inbound(Actor(PLATFORM, "dave", "Dave", "en", is_admin=True), GROUP, command=words[0],
                                 args=words[1:], event_id=table._event()))
    try:
        await admin("kasse", "on")
        merged = 0
        for op, n in [("game", 0), ("game", 1), *ops]:  # a finished game of each line-up first, then anything
            clock.now += 30
            who = NAMES[abs(n) % len(NAMES)]
            if op == "throw":
                await table.say("alice", f"/wurf {n} {10 if n % 2 else 1}")
            elif op in ("undo", "cancel"):
                await table.say("alice", f"/{op}")
            elif op == "new":
                await table.say("alice", "/kegeln " + ("high" if n else "low") + " 2 " + " ".join(LINEUPS[n]))
            elif op == "game":
                await table.say("alice", "/kegeln high 2 " + " ".join(LINEUPS[n % 2]))
                for i in range(6):
                    await table.say("alice", f"/wurf {(n + 3 * i) % 10}" + (" 10" if i < 3 else ""))
            elif op == "merge":  # where the rules let it through (both have games, neither plays now)
                asked = await admin("kegelmerge", "Annie", "Anna")
                if any(m.buttons for m in asked.messages):
                    merged += "Merged" in texts(await table.press("dave", table.button(asked, "-yes")))
            elif op == "pay":
                await admin("kasse", "pay", who, euros(n))
            elif op == "fine":
                await admin("kasse", "fine", who, euros(n))
            elif op == "correct" and n:
                await admin("kasse", "correct", who, ("+" if n > 0 else "-") + euros(n))
            elif op == "off":
                await admin("kasse", "on" if n else "off")
        event(f"merges: {merged}")
        book = [b.line() for b in await cash_storage.book(app.store, PLATFORM, GROUP.chat_id)]
        _s, catalogue = await cash_storage.catalogue(app.store, PLATFORM, GROUP.chat_id)
        assert cash.total(book) == sum(cash.balances(book).values())
        assert all(isinstance(ln.amount, int) and abs(ln.amount) <= cash.MAX_AMOUNT * 3 for ln in book)
        for game_id in {ln.game for ln in book if ln.game is not None}:
            row = await app.store.get_game(game_id)
            assert row is not None
            assert cash.booked(book, game_id) == cash.wanted(serial.load(State, row.state), catalogue), game_id
    finally:
        await app.close()


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(ops=steps)
def test_the_stored_book_adds_up_whatever_happens(ops: list[tuple[str, int]]) -> None:
    with tempfile.TemporaryDirectory() as tmp:
        asyncio.run(play(ops, Path(tmp) / "bot.sqlite3"))
