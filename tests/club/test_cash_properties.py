"""Money adds up in the stored cash book: any sequence of throws, undos, cancels, new games, merges, fines,
payments, corrections, entry fees, members added, dues (booked by the scheduler as months pass), expenses
and the treasurer role handed on and back, typed through the real App on a real SQLite file, leaves the
book's sum equal to the balances' sum, the till equal to paid in − paid out, every game's automatic lines
equal to what its stored state calls for, each period's dues booked once per member, only the treasurer's
bookings in the book, and every line a whole number of minor units (the core's property,
tests/club/test_cash.py, here end to end)."""

from __future__ import annotations

import asyncio
import tempfile
from pathlib import Path

from hypothesis import HealthCheck, event, given, settings
from hypothesis import strategies as st

from bot.app.app import App
from bot.club.cash import storage as cash_storage
from core import serial
from core.club.cash import ledger as cash
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
    st.tuples(st.just("fee"), st.integers(1, 500)),
    st.tuples(st.just("member"), st.integers(0, 1)),
    st.tuples(st.just("dues"), st.integers(0, 300)),  # 0: dues off; else that many cents a month
    st.tuples(st.just("month"), st.integers(1, 2)),  # that many months pass: the scheduler books the dues
    st.tuples(st.just("expense"), st.integers(1, 5000)),
    st.tuples(st.just("role"), st.booleans()),  # the treasurer role to bob (True) or back to dave
), min_size=1, max_size=30)
NEWCOMERS = ("Dora", "Emil Franz")  # members of the box without a game (one with a space in the name)


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
        treasurer = "dave"
        refused_by: list[int] = []  # book sizes around bookings a non-treasurer tried

        async def books(actor: str, *words: str) -> None:
            before = len(await cash_storage.book(app.store, PLATFORM, GROUP.chat_id))
            if actor == "dave":
                await admin(*words)
            else:
                await table.say(actor, "/" + " ".join(words))
            if actor != treasurer:
                refused_by.append(len(await cash_storage.book(app.store, PLATFORM, GROUP.chat_id)) - before)
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
                await books(("dave", "bob")[n % 2], "kasse", "pay", who, euros(n))
            elif op == "fine":
                await admin("kasse", "fine", who, euros(n))
            elif op == "correct" and n:
                await admin("kasse", "correct", who, ("+" if n > 0 else "-") + euros(n))
            elif op == "off":
                await admin("kasse", "on" if n else "off")
            elif op == "fee":
                await books(("dave", "bob")[n % 2], "kasse", "fee", NEWCOMERS[n % 2], euros(n), "joined")
            elif op == "member":
                await books(treasurer, "kasse", "member", NEWCOMERS[n])
            elif op == "dues":
                await books(treasurer, "kasse", "dues", *(("off",) if not n else (euros(n), "monthly")))
            elif op == "month":
                for _ in range(n):
                    clock.now += 31 * 86_400
                    await app.scheduler.tick()
            elif op == "expense":
                await books(("dave", "bob")[n % 2], "kasse", "expense", euros(n), "lane", "rent")
            elif op == "role":
                await table.say("bob", "/kasse")  # bob has written here: a name the role can go to
                await admin("kasse", "treasurer", "bob" if n else "dave")
                treasurer = (await cash_storage.settings(app.store, PLATFORM, GROUP.chat_id)).treasurer_id
        event(f"merges: {merged}")
        book = [b.line() for b in await cash_storage.book(app.store, PLATFORM, GROUP.chat_id)]
        _s, catalogue = await cash_storage.catalogue(app.store, PLATFORM, GROUP.chat_id)
        assert cash.total(book) == sum(cash.balances(book).values())
        assert cash.till(book) == cash.paid(book) - cash.spent(book)
        assert cash.CLUB not in cash.balances(book)  # expenses are in no member's balance
        dues = [(ln.member, ln.code) for ln in book if ln.kind is cash.Kind.DUES]
        assert len(dues) == len(set(dues))  # each period's dues once per member
        added = await cash_storage.added(app.store, PLATFORM, GROUP.chat_id)
        assert {m for m, _p in dues} <= set(added)  # dues only to the members the treasurer added
        assert refused_by == [0] * len(refused_by)  # a non-treasurer booked nothing
        event(f"dues lines: {min(len(dues), 3)}")
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
