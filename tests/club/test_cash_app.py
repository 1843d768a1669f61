"""The cash box through the App on a real SQLite file: off until an admin turns it on, fines booked from
the throws and booked back by /undo, /cancel and /kegelmerge, the treasurer's bookings and who is refused,
the catalogue, the evening's average, the CSV, the year's carry, and what a cheater cannot do."""

from __future__ import annotations

import asyncio
import csv
import io
from typing import Any

import pytest

from bot.app.app import App
from bot.club.cash import storage as cash_storage
from core import serial
from core.club.cash import ledger as cash
from core.games.kegeln.records import played
from core.games.kegeln.state import State, current
from core.messages import Actor, Chat, Inbound, Response
from tests.app.conftest import Clock
from tests.app.harness import GROUP, PLATFORM, Table, texts
from tests.app.test_chat_migration import NEW, rows_of
from tests.club.test_season import at, game, merge_as_admin

OTHER = Chat(PLATFORM, "group-2", private=False)


async def book(t: Table, chat: str = "group-1") -> list[tuple[Any, ...]]:
    """The chat's stored cash book, read through the store (SQLite here, PostgreSQL in tests/postgres)."""
    return [(b.member, b.kind, b.amount, b.code, b.game_id, b.by_id)
            for b in await cash_storage.book(t.app.store, PLATFORM, chat)]


async def admin(t: Table, text: str, name: str = "dave", chat: Chat = GROUP) -> Response:
    cmd, *args = text[1:].split()
    return await t.send(Inbound(Actor(PLATFORM, name, name.capitalize(), "en", is_admin=True), chat, command=cmd,
                                args=tuple(args), event_id=t._event()))


async def turned_on(t: Table) -> None:
    r = await admin(t, "/kasse on")
    assert "The cash box is on (EUR)" in texts(r) and "Treasurer: Dave" in texts(r), texts(r)


async def test_nothing_is_booked_before_the_club_turns_it_on(table: Table) -> None:
    r = await table.say("alice", "/kasse")
    assert "The cash box is off" in texts(r)
    await game(table, "high", {"Birgit": (0, 9), "Klaus": (5, 5)})
    assert (await book(table)) == []
    r = await table.say("bob", "/kasse on")
    assert "Only a chat admin can change the cash box's settings" in texts(r)
    await turned_on(table)
    assert (await book(table)) == []  # the games before are not booked afterwards


async def test_fines_follow_the_throws_and_undo_books_them_back(table: Table) -> None:
    await turned_on(table)
    r = await table.say("alice", "/kegeln high 2 Birgit Klaus")
    gid = int(texts(r).split("#")[1].split(":")[0])
    await table.say("alice", "/wurf 0 10")  # Birgit: a Pumpe
    assert (await book(table)) == [("birgit", "auto", 10, "pumpe", gid, "")]
    await table.say("alice", "/undo")
    assert (await book(table))[1:] == [("birgit", "auto", -10, "pumpe", gid, "")]  # a new line: nothing rewritten
    await table.say("alice", "/wurf 0 10")
    for text in ("/wurf 5 10", "/wurf 3", "/wurf 5"):
        r = await table.say("alice", text)
    assert "Klaus" in texts(r) and "🏆" in texts(r), texts(r)
    assert (await book(table))[2:] == [("birgit", "auto", 10, "pumpe", gid, ""),
                                       ("birgit", "auto", 50, "lost", gid, "")]
    r = await table.say("alice", "/kasse")
    assert "Birgit: owes €0.60" in texts(r) and "Open: €0.60" in texts(r), texts(r)


async def test_a_teams_fine_is_spread_over_its_members(table: Table) -> None:
    await turned_on(table)
    r = await table.say("alice", "/kegeln high 2 teams Anna Ben Emil / Cleo Dora")
    gid = int(texts(r).split("#")[1].split(":")[0])
    for throw in range(10):  # the first team throws 1s, the second 9s: the first team is last
        state = serial.load(State, await table.state(gid))
        who = current(state)
        assert who is not None
        pins = 1 if state.members[who].team == 0 else 9
        await table.say("alice", f"/wurf {pins}" + (" 10" if throw < 5 else ""))
    lost = sorted((m, a) for m, k, a, c, *_ in await book(table) if c == "lost")
    assert lost == [("anna", 17), ("ben", 17), ("emil", 16)]  # 0.50 over three, to the cent


async def test_a_cancelled_game_takes_its_fines_back(table: Table) -> None:
    await turned_on(table)
    await table.say("alice", "/kegeln high 2 Birgit Klaus")
    await table.say("alice", "/wurf 0 10")
    await table.say("alice", "/cancel")
    assert [ln[2] for ln in (await book(table))] == [10, -10]


async def test_only_the_treasurer_books_money_and_each_refusal_says_why(table: Table) -> None:
    await game(table, "high", {"Birgit": (9, 9), "Klaus": (5, 5)})
    r = await table.say("alice", "/kasse pay Klaus 1")
    assert "The cash box is off" in texts(r)
    await turned_on(table)
    await game(table, "high", {"Birgit": (0, 9), "Klaus": (5, 5)})
    before = (await book(table))
    for who, text in (("alice", "/kasse pay Birgit 0,60"), ("bob", "/kasse fine Klaus late"),
                      ("alice", "/kasse correct Birgit -0,60"), ("bob", "/kasse fines late 0,01"),
                      ("bob", "/kasse carry")):
        r = await table.say(who, text)  # alice is the scorer; neither is the treasurer
        assert "Only the treasurer Dave books money" in texts(r), (text, texts(r))
    r = await admin(table, "/kasse pay Birgit 0,60", name="erin")  # an admin is no treasurer either
    assert "Only the treasurer Dave books money" in texts(r)
    r = await table.say("bob", "/kasse treasurer alice")
    assert "Only a chat admin or the treasurer (Dave) can hand the treasurer role on" in texts(r)
    assert (await book(table)) == before
    r = await admin(table, "/kasse pay Birgit 0,50")
    assert "Birgit paid €0.50 (booked by Dave). Balance: €0.10." in texts(r), texts(r)
    r = await admin(table, "/kasse fine Klaus late")
    assert "Fine for Klaus: late €1.00" in texts(r), texts(r)
    r = await admin(table, "/kasse fine Klaus 0,25")
    assert "Fine for Klaus: €0.25 (booked by Dave). Balance: €1.25." in texts(r), texts(r)  # no "–" for a code
    r = await admin(table, "/kasse correct Klaus -0,25")
    assert "Correction for Klaus: −€0.25" in texts(r) and "Balance: €1.00" in texts(r), texts(r)
    r = await admin(table, "/kasse correct Klaus 0,25")
    assert "+0,25 (owes more)" in texts(r), texts(r)
    r = await admin(table, "/kasse pay Nobody 1")
    assert "I know no member “Nobody” in this club" in texts(r)
    r = await admin(table, "/kasse fine Klaus sleepy")
    assert "There is no fine “sleepy”" in texts(r)
    assert [ln[1] for ln in (await book(table))[len(before):]] == ["payment", "fine", "fine", "correction"]
    assert {ln[5] for ln in (await book(table))[len(before):]} == {"dave"}


@pytest.mark.parametrize("amount", ["1,505", "-1", "0", "99999999", "10000,01", "1e3", "½", "1.000,50"])
async def test_amounts_never_go_fractional_or_overflow(table: Table, db: str, amount: str) -> None:
    await turned_on(table)
    await game(table, "high", {"Birgit": (9, 9), "Klaus": (5, 5)})
    before = (await book(table))
    r = await admin(table, f"/kasse pay Klaus {amount}")
    assert "is not an amount I can book" in texts(r), texts(r)
    assert (await book(table)) == before


async def test_the_treasurer_role_is_handed_on(table: Table) -> None:
    await table.say("bob", "hi")  # bob has written here: he can be named
    await turned_on(table)
    r = await admin(table, "/kasse treasurer bob")
    assert "Bob is the treasurer now" in texts(r)
    r = await table.say("bob", "/kasse treasurer dave")  # the treasurer hands it on too
    assert "Dave is the treasurer now" in texts(r), texts(r)
    r = await table.say("bob", "/kasse treasurer bob")
    assert "Only a chat admin or the treasurer (Dave)" in texts(r)


async def test_the_catalogue_is_the_clubs(table: Table) -> None:
    await turned_on(table)
    r = await table.say("alice", "/kasse fines")
    assert "🕳 Pumpe: €0.10 — each Pumpe, booked automatically" in texts(r), texts(r)
    r = await admin(table, "/kasse fines pumpe 0,20")
    assert "Pumpe: €0.20" in texts(r)
    r = await admin(table, "/kasse fines beer 2 🍺")
    assert "🍺 beer: €2.00 — booked by the treasurer" in texts(r), texts(r)
    r = await admin(table, "/kasse fines late off")
    assert "late:" not in texts(r)
    r = await admin(table, "/kasse fines lost 0")
    assert "last place: €0.00" in texts(r)
    await game(table, "high", {"Birgit": (0, 9), "Klaus": (5, 5)})
    assert [(m, a, c) for m, _k, a, c, _g, _b in (await book(table))] == [("birgit", 20, "pumpe")]  # no 'lost' any more
    r = await admin(table, "/kasse fine Birgit beer")
    assert "beer €2.00" in texts(r)


async def test_the_absent_pay_the_evenings_average(table: Table, clock: Clock) -> None:
    clock.now = at(2026, 3, 5)
    await turned_on(table)
    await game(table, "high", {"Hanne": (1, 1), "Max": (4, 4)})  # last week: Hanne lost (0.50)
    clock.now = at(2026, 3, 12)
    await game(table, "high", {"Birgit": (0, 0), "Klaus": (5, 5), "Sven": (9, 9)})  # Birgit: 2 Pumpen + lost
    await game(table, "high", {"Ute": (1, 1), "Klaus": (4, 4), "Sven": (9, 9)})  # Ute: lost
    r = await admin(table, "/kasse absent Hanne")
    assert "does not charge the absent" in texts(r)
    r = await table.say("bob", "/kasse average on")
    assert "Only a chat admin" in texts(r)
    await admin(table, "/kasse average on")
    r = await admin(table, "/kasse absent Sven")
    assert "Sven was there tonight" in texts(r), texts(r)
    # Birgit 0.70, Ute 0.50, Klaus 0, Sven 0: the average of the four who were there is 0.30
    r = await admin(table, "/kasse absent Hanne, Max")
    assert "Tonight's average of €0.30 charged to Hanne, Max" in texts(r), texts(r)
    r = await admin(table, "/kasse absent Max")
    assert "Max has been charged tonight's average already" in texts(r)
    assert [(m, a) for m, k, a, *_ in (await book(table)) if k == "absent"] == [("hanne", 30), ("max", 30)]
    r = await table.say("alice", "/kasse")
    assert "Hanne: owes €0.80" in texts(r), texts(r)


async def test_the_merge_moves_the_fines(table: Table, clock: Clock) -> None:
    clock.now = at(2026, 2, 10)
    await turned_on(table)
    await game(table, "high", {"Klausi": (0, 1), "Birgit": (5, 5)})  # Klausi: Pumpe + lost
    await admin(table, "/kasse fine Klausi late")
    await game(table, "high", {"Klaus": (9, 9), "Birgit": (5, 5)})  # Birgit: lost
    r = await merge_as_admin(table)
    assert "merged" in texts(r).lower() or "Klaus" in texts(r), texts(r)
    r = await table.say("alice", "/kasse")
    assert "Klaus: owes €1.60" in texts(r) and "Klausi" not in texts(r), texts(r)
    assert sum(ln[2] for ln in await book(table) if ln[0] == "klausi") == 0


async def test_the_cash_book_as_csv_and_the_carry(table: Table, clock: Clock) -> None:
    clock.now = at(2025, 11, 7)
    await turned_on(table)
    await game(table, "high", {"=HYPERLINK(1)": (0, 9), "Klaus": (5, 5)})
    r = await admin(table, "/kasse pay =HYPERLINK(1) 0,20")
    r = await table.say("alice", "/kasse book")
    (msg,) = [m for m in r.messages if m.file and m.file[0].endswith(".csv")]
    assert msg.file is not None
    name, data = msg.file
    assert name == "kasse-group-1-2025.csv" and "3 lines, summing to €0.40" in msg.text, msg.text
    rows = list(csv.reader(io.StringIO(data.decode("utf-8-sig"))))
    assert rows[0] == ["date", "season", "member", "kind", "fine", "amount", "currency", "game", "booked_by", "note"]
    assert [r[2:6] for r in rows[1:]] == [["'=HYPERLINK(1)", "from the throws", "Pumpe", "0.10"],
                                          ["'=HYPERLINK(1)", "from the throws", "last place", "0.50"],
                                          ["'=HYPERLINK(1)", "paid", "", "-0.20"]]
    assert rows[3][8] == "Dave"
    clock.now = at(2026, 1, 9)
    r = await admin(table, "/kasse carry")
    assert "Season 2026 opens with the balances carried over: =HYPERLINK(1)" in texts(r), texts(r)
    r = await admin(table, "/kasse carry")
    assert "Nothing to carry into season 2026" in texts(r)
    r = await table.say("alice", "/kasse book 2025")
    (msg,) = [m for m in r.messages if m.file and m.file[0].endswith(".csv")]
    assert "summing to €0.00" in msg.text  # the old season closes at zero ...
    r = await table.say("alice", "/kasse book")
    (msg,) = [m for m in r.messages if m.file and m.file[0].endswith(".csv")]
    assert "1 line, summing to €0.40" in msg.text  # ... and the new one opens with the balance
    r = await table.say("alice", "/kasse")
    assert "owes €0.40" in texts(r)


async def test_another_chat_sees_and_books_nothing_of_this_one(table: Table) -> None:
    await turned_on(table)
    await game(table, "high", {"Birgit": (0, 9), "Klaus": (5, 5)})
    r = await table.say("alice", "/kasse")
    csv_button = table.button(r, ":cash_csv")
    assert csv_button == "kegeln:group-1:cash_csv"
    # the other chat: its own cash box (off), no member of this club, no book of this one
    r = await table.say("mallory", "/kasse", chat=OTHER)
    assert "The cash box is off" in texts(r) and "Birgit" not in texts(r)
    await admin(table, "/kasse on", name="mallory", chat=OTHER)
    r = await table.say("mallory", "/kasse pay Birgit 5", chat=OTHER)
    assert "I know no member “Birgit”" in texts(r)
    r = await table.say("mallory", "/kasse book", chat=OTHER)
    assert not any(m.file for m in r.messages) and "no lines yet" in texts(r)
    # a forged button naming this chat, pressed in the other one, does nothing
    r = await table.send(Inbound(table.actor("mallory"), OTHER, action=csv_button, event_id=table._event()))
    assert not any(m.file for m in r.messages) and "Birgit" not in texts(r), texts(r)
    # ... and privately neither
    r = await table.send(Inbound(table.actor("alice"), Chat(PLATFORM, "dm-alice", private=True), action=csv_button,
                                 event_id=table._event()))
    assert not any(m.file for m in r.messages)
    r = await table.dm("alice", "/kasse")
    assert "works in a group chat" in texts(r)
    assert await book(table, "group-2") == []
    # the button in its own chat sends the file
    r = await table.press("bob", csv_button)
    assert any(m.file for m in r.messages)


async def test_the_year_review_shows_the_seasons_cash(app: App, table: Table, clock: Clock) -> None:
    clock.now = at(2026, 3, 6)
    await turned_on(table)
    await game(table, "high", {"Birgit": (0, 9), "Klaus": (5, 5)})
    await admin(table, "/kasse pay Birgit 0,20")
    r = await table.say("alice", "/jahresrueckblick")
    assert "💶 Cash box: fines €0.60 · paid in €0.20 · open at the season's end €0.40" in texts(r), texts(r)


async def test_two_processes_book_each_fine_once(table: Table, db: str, clock: Clock) -> None:
    """Two bot processes over one database (on PostgreSQL: tests/postgres/test_cash_pg.py) take the same
    game's throws and undos and the treasurer's payments at once: every game's automatic lines are exactly
    what its final state calls for, and the book adds up."""
    other = await App.open(db, seed=7, clock=clock, idle_timeout=3600)
    twin = Table(other)
    try:
        await turned_on(table)
        r = await table.say("alice", "/kegeln high 2 Birgit Klaus Sven")
        gid = int(texts(r).split("#")[1].split(":")[0])
        paid = 0
        for first, second in (("/wurf 0 10", "/wurf 0 10"), ("/undo", "/undo"), ("/wurf 0 10", "/wurf 3 10"),
                              ("/wurf 0 10", "/wurf 0 1"), ("/wurf 5", "/wurf 0")):
            out = await asyncio.gather(table.say("alice", first), twin.say("alice", second),
                                       admin(table, "/kasse pay Birgit 0,05"), admin(twin, "/kasse fine Klaus 0,01"))
            paid += "paid €0.05" in texts(out[2])  # (refused while no line of Birgit was committed yet)
        row = await table.app.store.get_game(gid)
        assert row is not None
        state = serial.load(State, row.state)
        lines = [b.line() for b in await cash_storage.book(table.app.store, PLATFORM, "group-1")]
        _s, catalogue = await cash_storage.catalogue(table.app.store, PLATFORM, "group-1")
        assert cash.booked(lines, gid) == cash.wanted(played(state), catalogue)
        assert cash.total(lines) == sum(cash.balances(lines).values())
        assert sum(1 for ln in lines if ln.kind is cash.Kind.PAYMENT) == paid >= 4
    finally:
        await other.close()


async def test_the_cash_box_moves_with_a_group_that_becomes_a_supergroup(app: App, table: Table, db: str) -> None:
    """bot/storage/store.py `migrate_chat`: the settings, the club's catalogue and the book go to the new
    chat id (tests/app/test_chat_migration.py finds any table left behind by reading the schema)."""
    await turned_on(table)
    await admin(table, "/kasse fines beer 2 🍺")
    await game(table, "high", {"Birgit": (0, 9), "Klaus": (5, 5)})
    before = rows_of(db, GROUP.chat_id)
    assert {"kegel_cash_settings", "kegel_cash_fines", "kegel_cash_book"} <= set(before), before
    await app.store.migrate_chat(PLATFORM, GROUP.chat_id, NEW)
    assert rows_of(db, GROUP.chat_id) == {} and rows_of(db, NEW) == before
    r = await table.say("alice", "/kasse", chat=Chat(PLATFORM, NEW, private=False))
    assert "Birgit: owes €0.60" in texts(r) and "treasurer: Dave" in texts(r), texts(r)


async def test_amounts_with_a_currency_sign_and_the_words_of_every_language(table: Table) -> None:
    await turned_on(table)
    await game(table, "high", {"Birgit": (9, 9), "Klaus": (5, 5)})
    r = await admin(table, "/kasse pay Klaus 2,50 €")
    assert "Klaus paid €2.50" in texts(r), texts(r)
    r = await admin(table, "/kasse zahlung Klaus €1")
    assert "Klaus paid €1.00" in texts(r), texts(r)
    r = await admin(table, "/kasse штраф Birgit late")
    assert "Fine for Birgit: late €1.00" in texts(r), texts(r)


def test_no_word_names_two_actions(app: App) -> None:
    """Every action's words in every language reach that action (a word two actions shared would be
    dropped from the vocabulary: tests/test_option_words.py keeps the option words so, this the cash box's)."""
    from bot.club.cash.command import ACTIONS, vocabulary

    vocab = vocabulary(app)
    for action, key in ACTIONS.items():
        for word in app.catalogs.words(key) | {action}:
            assert vocab.get(word.casefold()) == action, (word, action)


async def test_two_processes_carry_and_charge_once(table: Table, db: str, clock: Clock) -> None:
    """Two processes take the same year's close and the same absent charge at the same moment: each is
    booked once (the bookings run under the chat's lock; on PostgreSQL: tests/postgres/test_cash_pg.py)."""
    other = await App.open(db, seed=7, clock=clock, idle_timeout=3600)
    twin = Table(other)
    try:
        clock.now = at(2025, 11, 7)
        await turned_on(table)
        await game(table, "high", {"Birgit": (0, 9), "Klaus": (5, 5)})
        await admin(table, "/kasse average on")
        clock.now = at(2026, 1, 9)
        await game(table, "high", {"Ute": (0, 1), "Sven": (5, 5)})
        for _ in range(3):
            await asyncio.gather(admin(table, "/kasse carry"), admin(twin, "/kasse carry"),
                                 admin(table, "/kasse absent Birgit"), admin(twin, "/kasse absent Birgit"))
        lines = await book(table)
        assert sorted((m, a) for m, k, a, *_ in lines if k == "carry") == [("birgit", -60), ("birgit", 60)]
        assert [(m, a) for m, k, a, *_ in lines if k == "absent"] == [("birgit", 30)]  # Ute 60, Sven 0
    finally:
        await other.close()


async def test_a_members_lines(table: Table) -> None:
    await turned_on(table)
    await game(table, "high", {"Birgit": (0, 9), "Klaus": (5, 5)})
    await admin(table, "/kasse pay Birgit 0,20")
    r = await table.say("bob", "/kasse birgit")
    out = texts(r)
    assert out.startswith("💶 Birgit: balance €0.40"), out
    assert "· Pumpe (from the throws) €0.10 (#1)" in out and "last place (from the throws) €0.50 (#1)" in out, out
    assert out.rstrip().endswith("· paid −€0.20"), out
    # a credit is said as one, with the one minus sign of every money line (review 4, X14)
    r = await admin(table, "/kasse pay Birgit 1,00")
    assert "Balance: €0.60 in credit." in texts(r) and "−€" not in texts(r), texts(r)
    out = texts(await table.say("bob", "/kasse birgit"))
    assert out.startswith("💶 Birgit: balance €0.60 in credit"), out
    r = await table.say("bob", "/kasse Hanne")
    assert "“Hanne” is neither something /cashbox does nor a member of this club" in texts(r)
