"""The cash box as a treasurer meets it (issue 34): fine names in the chat's language (seeded when the box
is switched on, any language's words accepted, the automatic fines renameable), a reason on every manual
line (shown in the statement and the export), the member named by the longest known name."""

from __future__ import annotations

import csv
import io
import re
from decimal import Decimal

import openpyxl
import pytest

from bot.app.app import App
from bot.club.cash import members as cash_members
from bot.club.cash import storage as cash_storage
from bot.club.cash import treasury as cash_club
from bot.schedule.scheduler import pending
from core import names
from core.club.cash import ledger as cash
from core.messages import Actor, Chat, Inbound, Response
from tests.app.conftest import Clock
from tests.app.harness import GROUP, PLATFORM, Table, texts
from tests.club.test_season import at, game, merge_as_admin
from tests.club.test_termin_app import Club

OTHER_CHAT = Chat(PLATFORM, "group-2", private=False)

ENGLISH_CODES = re.compile(r"\b(lost|late|absent|pumpe)\b")  # the internal codes: never shown outside English


async def admin(t: Table, text: str, lang: str = "en", name: str = "dave", chat: Chat = GROUP) -> Response:
    cmd, *args = text[1:].split()
    return await t.send(Inbound(Actor(PLATFORM, name, name.capitalize(), lang, is_admin=True), chat, command=cmd,
                                args=tuple(args), event_id=t._event()))


async def notes(t: Table, chat: str = "group-1") -> list[tuple[str, str, int, str, str]]:
    return [(b.member, b.kind, b.amount, b.code, b.note) for b in await cash_storage.book(t.app.store, PLATFORM,
                                                                                          chat)]


def plain(r: Response) -> str:
    """The answer without the marks around user-written text."""
    return re.sub("[\ue000-\ue00f]", "", texts(r)).replace("\xa0", " ")


WORDS = {"de": ("zuspät", "Letzter Platz"), "ru": ("опоздание", "последнее место"),
         "bg": ("закъснение", "последно място"), "sv": ("försening", "sista plats")}


@pytest.mark.parametrize("lang", sorted(WORDS))
async def test_the_fines_are_named_in_the_chats_language(table: Table, lang: str) -> None:
    table.locale = lang
    await game(table, "high", {"Birgit": (0, 9), "Klaus": (5, 5)})
    await admin(table, "/kasse on", lang)
    r = await admin(table, "/kasse fines", lang)
    assert WORDS[lang][1] in plain(r) and not ENGLISH_CODES.search(plain(r)), plain(r)
    r = await admin(table, f"/kasse fine Klaus {WORDS[lang][0]}", lang)  # the chat's word for "late"
    assert "✅" in plain(r) and not ENGLISH_CODES.search(plain(r)), plain(r)
    r = await admin(table, "/kasse fine Klaus опоздание", lang)  # any language's word is taken
    assert "✅" in plain(r), plain(r)
    await game(table, "high", {"Birgit": (0, 9), "Klaus": (5, 5)})  # a Pumpe and the last place, booked
    r = await admin(table, "/kasse Birgit", lang)
    assert WORDS[lang][1] in plain(r) and not ENGLISH_CODES.search(plain(r)), plain(r)
    r = await admin(table, "/kasse book", lang)
    (data,) = [m.file[1] for m in r.messages if m.file and m.file[0].endswith(".csv")]
    assert not ENGLISH_CODES.search(data.decode("utf-8-sig")), data.decode()  # nor "auto", "payment", "note"
    assert not re.search(r"\b(auto|payment|note|member)\b", data.decode("utf-8-sig"))
    assert [ln[3] for ln in await notes(table)] == ["late", "late", "pumpe", "lost"]  # the codes stay stable


async def test_an_automatic_fine_is_renamed_and_booked_under_its_new_name(table: Table) -> None:
    table.locale = "de"
    await game(table, "high", {"Birgit": (9, 9), "Klaus": (5, 5)})
    await admin(table, "/kasse an", "de")
    r = await admin(table, "/kasse strafen Pumpe umbenennen Gossenkugel", "de")
    assert "Gossenkugel: 0,10 €" in plain(r), plain(r)
    r = await admin(table, "/kasse strafen letzter platz umbenennen Rote Laterne", "de")
    assert "Rote Laterne: 0,50 €" in plain(r), plain(r)
    await game(table, "high", {"Birgit": (0, 9), "Klaus": (5, 5)})
    r = await admin(table, "/kasse Birgit", "de")
    assert "Gossenkugel (aus den Würfen) 0,10 €" in plain(r) and "Rote Laterne (aus den Würfen)" in plain(r), plain(r)
    r = await admin(table, "/kasse strafe Klaus gossenkugel", "de")  # the new name books it by hand too
    assert "Strafe für Klaus: Gossenkugel 0,10 €" in plain(r), plain(r)
    r = await admin(table, "/kasse strafen Pumpe umbenennen Rote Laterne", "de")  # two fines, one name: refused
    assert "doppelt" in plain(r), plain(r)


async def test_a_reason_on_every_manual_line_in_the_statement_and_the_export(table: Table) -> None:
    table.locale = "de"
    await game(table, "high", {"Birgit": (9, 9), "Klaus": (5, 5), "Anna": (7, 7)})
    await admin(table, "/kasse an", "de")
    r = await admin(table, "/kasse strafe Birgit 0,30 Handy am Tisch", "de")
    assert "Strafe für Birgit: 0,30 € — Handy am Tisch (gebucht von Dave). Saldo: 0,30 €." in plain(r), plain(r)
    assert "–" not in plain(r)  # no "– 0,30 €" for a fine of an amount
    r = await admin(table, "/kasse strafe Klaus zu spät mit dem Bus", "de")  # a fine's word of two words
    assert "Strafe für Klaus: Verspätung 1,00 € — mit dem Bus" in plain(r), plain(r)
    r = await admin(table, "/kasse zahlung Anna 2,50 € bar am Tresen", "de")
    assert "Anna hat 2,50 € gezahlt — bar am Tresen" in plain(r), plain(r)
    r = await admin(table, "/kasse korrektur Birgit -0,10 Tippfehler", "de")
    assert "Korrektur für Birgit: −0,10 € — Tippfehler" in plain(r), plain(r)
    r = await admin(table, "/kasse strafe Birgitt 0,30 Handy am Tisch", "de")
    assert "Ich kenne kein Mitglied „Birgitt“" in plain(r), plain(r)
    assert await notes(table) == [("birgit", "fine", 30, "", "Handy am Tisch"),
                                  ("klaus", "fine", 100, "late", "mit dem Bus"),
                                  ("anna", "payment", -250, "", "bar am Tresen"),
                                  ("birgit", "correction", -10, "", "Tippfehler")]
    r = await admin(table, "/kasse Birgit", "de")
    assert "Strafe 0,30 € — Handy am Tisch" in plain(r) and "Korrektur −0,10 € — Tippfehler" in plain(r), plain(r)
    r = await admin(table, "/kasse buch", "de")
    (data,) = [m.file[1] for m in r.messages if m.file and m.file[0].endswith(".csv")]
    text = data.decode("utf-8-sig")
    rows = list(csv.DictReader(io.StringIO(text), delimiter=";" if ";" in text.split("\n")[0] else ","))
    assert [row["Grund"] for row in rows] == ["Handy am Tisch", "mit dem Bus", "bar am Tresen", "Tippfehler"]
    assert [row["Art"] for row in rows] == ["Strafe", "Strafe", "gezahlt", "Korrektur"]


async def test_the_absent_with_a_reason(table: Table, clock: Clock) -> None:
    clock.now = at(2026, 3, 5)
    await game(table, "high", {"Hanne": (1, 1), "Max": (4, 4)})
    await admin(table, "/kasse on")
    await admin(table, "/kasse average on")
    clock.now = at(2026, 3, 12)
    await game(table, "high", {"Birgit": (0, 9), "Klaus": (5, 5)})
    r = await admin(table, "/kasse absent Hanne, Max no word sent")
    assert "charged to Hanne, Max — no word sent" in plain(r), plain(r)
    r = await admin(table, "/kasse absent Hane, Max")  # a typo between commas charges nobody
    assert "I know no member “Hane”" in plain(r), plain(r)
    assert [(m, n) for m, k, _a, _c, n in await notes(table) if k == "absent"] == [("hanne", "no word sent"),
                                                                                   ("max", "no word sent")]


# ---------------------------------------------------------------- figures a reader can trust
async def test_the_box_off_stops_new_games_never_collecting(table: Table) -> None:
    await admin(table, "/kasse on")
    await game(table, "high", {"Birgit": (0, 9), "Klaus": (5, 5)})  # Birgit owes 0.60
    await admin(table, "/kasse off")
    await game(table, "high", {"Birgit": (0, 9), "Klaus": (5, 5)})  # not booked
    r = await admin(table, "/kasse pay Birgit 0,60 cash")
    assert "Birgit paid €0.60 — cash (booked by Dave). Balance: €0.00." in plain(r), plain(r)
    r = await admin(table, "/kasse correct Birgit +0,10 forgotten")
    assert "Correction for Birgit: +€0.10 — forgotten" in plain(r), plain(r)
    r = await admin(table, "/kasse fine Birgit late")  # new fines wait for the box to be on
    assert "The cash box is off" in plain(r), plain(r)
    assert [(k, a) for _m, k, a, _c, _n in await notes(table)] == [
        ("auto", 10), ("auto", 50), ("payment", -60), ("correction", 10)]
    r = await table.say("alice", "/kasse")
    assert "the treasurer still books payments" in plain(r) and "Birgit: owes €0.10" in plain(r), plain(r)


async def test_open_is_one_figure_and_no_figure_is_negative(table: Table, clock: Clock) -> None:
    clock.now = at(2026, 3, 5)
    table.locale = "de"
    await admin(table, "/kasse an", "de")
    await game(table, "high", {"Birgit": (0, 9), "Klaus": (5, 5)})  # Birgit owes 0.60
    await admin(table, "/kasse zahlung Klaus 5 Vorschuss", "de")  # Klaus: 5.00 in credit
    r = await admin(table, "/kasse", "de")
    assert "Offen: 0,60 € · Guthaben: 5,00 €\nEingezahlt: 5,00 €" in plain(r), plain(r)
    assert plain(r).lower().count("eingezahlt") == 1  # each figure once
    assert not re.search(r"[-−–]\s?\d", plain(r).split("\n", 1)[1]), plain(r)  # no negative figure (nor "−4,40 €")
    r = await admin(table, "/jahresrueckblick", "de")
    assert "offen am Saisonende 0,60 €" in plain(r), plain(r)  # the same figure as /kasse's "Offen"


@pytest.mark.parametrize("lang", ["de", "sv", "ru"])
async def test_one_minus_sign_in_a_statement(table: Table, lang: str) -> None:
    table.locale = lang
    await game(table, "high", {"Birgit": (0, 9), "Klaus": (5, 5)})
    await admin(table, "/kasse on", lang)
    await admin(table, "/kasse fine Birgit 0,30", lang)
    r1 = await admin(table, "/kasse correct Birgit -0,10", lang)
    await admin(table, "/kasse pay Birgit 1", lang)
    r2 = await admin(table, "/kasse Birgit", lang)
    signs = set(re.findall(r"([-−–])\s?\S?\d", plain(r1) + plain(r2)))
    assert len(signs) == 1 and "–" not in signs, (signs, plain(r1), plain(r2))


@pytest.mark.parametrize("typed", ["5 USD", "$5", "5 ₽", "5₽", "£2"])
async def test_an_amount_in_another_currency_is_refused(table: Table, typed: str) -> None:
    table.locale = "de"
    await game(table, "high", {"Birgit": (0, 9), "Klaus": (5, 5)})
    await admin(table, "/kasse an", "de")
    before = await notes(table)
    r = await admin(table, f"/kasse zahlung Klaus {typed}", "de")
    assert "ist nicht in der Währung des Vereins: die Kasse rechnet in EUR" in plain(r), plain(r)
    r = await admin(table, f"/kasse strafe Klaus {typed} Bier", "de")
    assert "nicht in der Währung des Vereins" in plain(r), plain(r)
    assert await notes(table) == before


# ---------------------------------------------------------------- the export opens right
def files(r: Response) -> dict[str, bytes]:
    return {m.file[0].rsplit(".", 1)[1]: m.file[1] for m in r.messages if m.file}


async def test_the_export_is_a_real_xlsx_and_a_csv_in_the_readers_conventions(table: Table) -> None:
    table.locale = "de"
    await admin(table, "/kasse an", "de")
    await game(table, "high", {"=HYPERLINK(1)": (0, 9), "Klaus": (5, 5), "Birgit": (0, 0)})
    await admin(table, "/kasse zahlung Klaus 1,25 Vorschuss", "de")
    await admin(table, "/kasse strafe Birgit 0,30 Handy am Tisch", "de")
    got = files(await admin(table, "/kasse buch", "de"))
    assert set(got) == {"csv", "xlsx"}
    text = got["csv"].decode("utf-8-sig")
    rows = list(csv.reader(io.StringIO(text), delimiter=";"))  # German Excel splits a CSV at ";"
    assert rows[0][:4] == ["Datum", "Saison", "Mitglied", "Art"] and all(len(row) == 10 for row in rows)
    assert [row[5] for row in rows[1:]] == ["0,10", "0,10", "0,50", "0,10", "-1,25", "0,30"]  # a decimal comma
    book = openpyxl.load_workbook(io.BytesIO(got["xlsx"]))
    lines, sums = book.worksheets
    assert (lines.title, sums.title) == ("Kassenbuch", "Salden")
    cells = list(lines.iter_rows(min_row=2, values_only=True))
    assert all(isinstance(row[5], (int, float)) for row in cells)  # numbers a spreadsheet sums
    assert cells[0][2] == "'=HYPERLINK(1)" and lines.cell(2, 3).data_type == "s"  # a name is never a formula
    assert cells[-1][9] == "Handy am Tisch"
    balances = cash.balances(b.line() for b in await cash_storage.book(table.app.store, PLATFORM, "group-1"))
    by_name = {names.key(str(row[0]).lstrip("'")): round(Decimal(str(row[1])) * 100)
               for row in sums.iter_rows(min_row=2, values_only=True)}
    assert by_name == balances  # read back with openpyxl, the export sums to the balances
    summed: dict[str, int] = {}
    for row in cells:
        k = names.key(str(row[2]).lstrip("'"))
        summed[k] = summed.get(k, 0) + round(Decimal(str(row[5])) * 100)
    assert summed == balances
    table.locale = "en"
    got = files(await admin(table, "/kasse book"))
    assert got["csv"].decode("utf-8-sig").splitlines()[1].split(",")[5] == "0.10"  # English: "," and "0.10"


# ---------------------------------------------------------------- members without games, fees, dues, expenses, the till
async def test_members_fees_dues_expenses_and_the_till(table: Table, clock: Clock) -> None:
    clock.now = at(2026, 3, 15)
    await game(table, "high", {"Klaus": (5, 5), "Birgit": (9, 9)})  # guests of a game: never charged dues
    await admin(table, "/kasse on")
    r = await admin(table, "/kasse fee Anna Lena 20 joined in March")  # a new member, no game needed
    assert "Entry fee for Anna Lena: €20.00 — joined in March" in plain(r) and "Balance: €20.00" in plain(r), plain(r)
    r = await admin(table, "/kasse member Ute")
    assert "Ute is a member of the cash box now" in plain(r), plain(r)
    r = await table.say("bob", "/kasse member Mallory")  # the treasurer's alone
    assert "Only the treasurer Dave books money" in plain(r)
    r = await admin(table, "/kasse fine Ute 0,30 phone at the table")  # booked without a game
    assert "Fine for Ute: €0.30 — phone at the table" in plain(r), plain(r)
    r = await admin(table, "/kasse dues 5 monthly")
    assert "The dues are €5.00 a month (on the 1st)" in plain(r) and "Apr 1, 2026" in plain(r), plain(r)
    clock.now = at(2026, 3, 31, 23)
    assert await table.app.scheduler.tick() == []
    clock.now = at(2026, 4, 1, 0) + 5
    (post,) = await table.app.scheduler.tick()
    assert post.text == "💶 The dues for 2026-04 (€5.00 each) are booked for 2 members.", post.text
    assert await table.app.scheduler.tick() == []  # once
    clock.now = at(2026, 5, 1, 7)
    (post,) = await table.app.scheduler.tick()
    assert "2026-05" in post.text
    dues = [(m, a, c) for m, k, a, c, _n in await notes(table) if k == "dues"]
    assert dues == [("anna lena", 500, "2026-04"), ("ute", 500, "2026-04"),
                    ("anna lena", 500, "2026-05"), ("ute", 500, "2026-05")]
    await admin(table, "/kasse pay Anna Lena 30 cash")  # the longest name, with a space
    await admin(table, "/kasse off")
    r = await admin(table, "/kasse expense 45 lane rent")  # the till, with the box off too
    assert "Paid out €45.00 — lane rent (booked by Dave). In the till: −€15.00." in plain(r), plain(r)
    await admin(table, "/kasse pay Ute 10,30")
    r = await table.say("alice", "/kasse")
    assert "Paid in: €40.30 · paid out: €45.00 · in the till: −€4.70" in plain(r), plain(r)
    assert "Anna Lena: owes €0.00" not in plain(r) and "Ute" not in plain(r), plain(r)  # both square
    r = await table.say("alice", "/kasse Anna Lena")
    assert "entry fee €20.00 — joined in March" in plain(r) and "2026-04 (dues) €5.00" in plain(r), plain(r)
    r = await admin(table, "/kasse dues off")
    assert "no dues any more" in plain(r)
    clock.now = at(2026, 6, 1, 7)
    assert await table.app.scheduler.tick() == []
    lines = [b.line() for b in await cash_storage.book(table.app.store, PLATFORM, "group-1")]
    assert cash.total(lines) == sum(cash.balances(lines).values()) and cash.till(lines) == 4030 - 4500


# ---------------------------------------------------------------- a member's own statement, privately
async def test_a_linked_member_reads_their_statement_privately_and_is_reminded(table: Table) -> None:
    await table.say("bob", "/kasse")  # bob has written here: a name the treasurer can link
    await table.say("mallory", "/kasse")
    await admin(table, "/kasse on")
    r = await admin(table, "/kasse member Bob Builder @bob")
    assert "Bob Builder is a member of the cash box now, linked to Bob" in plain(r), plain(r)
    await admin(table, "/kasse fine Bob Builder 0,30 phone at the table")
    r = await table.say("bob", "/kasse me")
    (msg,) = r.messages
    assert isinstance(msg.to, Actor) and msg.to.user_id == "bob", msg.to  # to bob alone, never the group
    assert "Bob Builder: balance €0.30" in plain(r) and "— phone at the table" in plain(r), plain(r)
    assert msg.fallback is not None and "cannot write to you privately" in msg.fallback.text  # as /mydata
    r = await table.say("mallory", "/kasse me")  # not linked: nobody's statement
    assert "not linked to a member" in plain(r) and "0.30" not in plain(r), plain(r)
    posts = await cash_club.reminders(table.app, PLATFORM, "group-1", ["bob", "mallory", "dave"])
    assert [(p.to, p.about) for p in posts] == [(Actor(PLATFORM, "bob", "Bob Builder"), GROUP)]
    assert posts[0].text.key == "cash.reminder"


# ---------------------------------------------------------------- attendance meets money
async def test_the_evenings_absent_are_offered_to_the_treasurer_with_one_button(app: App, clock: Clock) -> None:
    club = Club(app)
    clock.now = at(2026, 12, 2, 12)
    await club.say("alice", "/termin 12.12. 19:30 Gasthof Krone")
    await club.press("bob", "kegeln:group-1:t1y")
    await club.press("cleo", "kegeln:group-1:t1n")
    await club.press("mallory", "kegeln:group-1:t1n")  # nobody's member: named, not charged
    await admin(club, "/kasse on")
    await admin(club, "/kasse average on")
    await admin(club, "/kasse member Cleo")
    clock.now = at(2026, 12, 12, 20)
    await game(club, "high", {"Birgit": (0, 9), "Klaus": (5, 5)})  # Birgit 0.60, Klaus 0: the average is 0.30
    clock.now = at(2026, 12, 12, 23)
    r = await admin(club, "/kasse absent")
    assert "The evening of Dec 12, 2026: answered ❌ — Cleo." in plain(r), plain(r)
    assert "not charged: Mallory" in plain(r), plain(r)
    action = club.button(r, ":cash_absent_1")
    r = await club.press("bob", action)  # only the treasurer
    assert "Only the treasurer Dave books money" in plain(r), plain(r)
    clock.now = at(2026, 12, 13, 9)  # the next morning: still that evening's average
    r = await club.send(Inbound(Actor(PLATFORM, "dave", "Dave", "en", is_admin=True), GROUP, action=action,
                                event_id=club._event()))
    assert "Tonight's average of €0.30 charged to Cleo" in plain(r), plain(r)
    r = await club.send(Inbound(Actor(PLATFORM, "dave", "Dave", "en", is_admin=True), GROUP, action=action,
                                event_id=club._event()))
    assert "Cleo has been charged" in plain(r), plain(r)  # one confirmation books once
    assert [(m, k, a) for m, k, a, _c, _n in await notes(club) if k == "absent"] == [("cleo", "absent", 30)]
    r = await club.send(Inbound(Actor(PLATFORM, "dave", "Dave", "en", is_admin=True), OTHER_CHAT,
                                action="kegeln:group-2:cash_absent_1", event_id=club._event()))
    assert "absent" not in [k for _m, k, *_ in await notes(club, "group-2")]  # another chat's evening: nothing


async def test_a_linked_member_opts_in_to_a_monthly_private_reminder(table: Table, clock: Clock) -> None:
    clock.now = at(2026, 3, 15)
    await table.say("bob", "/kasse")
    await admin(table, "/kasse on")
    await admin(table, "/kasse member Bob Builder @bob")
    await admin(table, "/kasse fine Bob Builder 0,30 phone at the table")
    r = await table.say("mallory", "/kasse remind on")  # not linked: no reminder of anybody's money
    assert "not linked to a member" in plain(r), plain(r)
    r = await table.say("bob", "/kasse remind on")
    assert "you get a private reminder on the 1st of each month" in plain(r) and r.messages[0].only_for_actor
    clock.now = at(2026, 4, 1, 9) + 5
    (post,) = await table.app.scheduler.tick()
    assert isinstance(post.to, Actor) and post.to.user_id == "bob", post.to  # privately, never in the group
    assert "you owe €0.30" in post.text and "phone at the table" in post.text, post.text
    await admin(table, "/kasse pay Bob Builder 0,30")
    clock.now = at(2026, 5, 1, 9) + 5
    assert await table.app.scheduler.tick() == []  # nothing owed: no reminder
    await admin(table, "/kasse fine Bob Builder 1")
    await table.say("bob", "/kasse remind off")
    clock.now = at(2026, 6, 1, 9) + 5
    assert await table.app.scheduler.tick() == []  # opted out


@pytest.mark.parametrize("action", ["kegeln:group-1:cash_absent_" + "9" * 60, "kegeln:group-1:cash_absent_x",
                                    "kegeln:group-1:cash_absent_", "kegeln:group-1:cash_absent_-1"])
async def test_a_forged_absent_button_books_nothing(table: Table, action: str) -> None:
    await admin(table, "/kasse on")
    r = await table.send(Inbound(Actor(PLATFORM, "dave", "Dave", "en", is_admin=True), GROUP, action=action,
                                 event_id=table._event()))
    assert "no longer waits for it" in plain(r), plain(r)
    assert await notes(table) == []


async def test_a_member_is_a_name_not_an_amount(table: Table) -> None:
    await admin(table, "/kasse on")
    r = await admin(table, "/kasse member 0,30")
    assert "Write who joins the cash box" in plain(r), plain(r)
    assert await cash_storage.added(table.app.store, PLATFORM, "group-1") == {}


async def test_after_an_evening_the_offer_comes_by_itself_once(app: App, clock: Clock) -> None:
    club = Club(app)
    clock.now = at(2026, 12, 2, 12)
    await club.say("alice", "/termin 12.12. 19:30 Gasthof Krone")
    await club.press("cleo", "kegeln:group-1:t1n")
    await admin(club, "/kasse on")
    await admin(club, "/kasse average on")
    await admin(club, "/kasse member Cleo")
    clock.now = at(2026, 12, 12, 20)
    await game(club, "high", {"Birgit": (0, 9), "Klaus": (5, 5)})  # the evening's first game: the offer is set
    clock.now = at(2026, 12, 12, 21)
    await game(club, "high", {"Birgit": (5, 9), "Klaus": (5, 5)})  # a second game sets no second offer
    clock.now = at(2026, 12, 12, 23)
    assert await app.scheduler.tick() == []  # four hours after the evening began: not yet
    clock.now = at(2026, 12, 12, 23) + 31 * 60
    (post,) = await app.scheduler.tick()
    assert post.to == GROUP and post.mention == ("dave",), post  # for the treasurer, notified
    assert "The evening of Dec 12, 2026: answered ❌ — Cleo." in post.text, post.text
    action = next(b.action for row in post.buttons for b in row)
    r = await club.send(Inbound(Actor(PLATFORM, "dave", "Dave", "en", is_admin=True), GROUP, action=action,
                                event_id=club._event()))
    assert "charged to Cleo" in plain(r), plain(r)
    clock.now = at(2026, 12, 13, 9)
    assert await app.scheduler.tick() == []  # offered once


async def test_a_merged_member_keeps_their_place_in_the_box_and_one_who_left_pays_no_dues(
        table: Table, clock: Clock) -> None:
    clock.now = at(2026, 2, 10)
    await table.say("bob", "/kasse")
    await admin(table, "/kasse on")
    await admin(table, "/kasse member Klausi @bob")
    await admin(table, "/kasse member Ute")
    await game(table, "high", {"Klausi": (0, 1), "Birgit": (5, 5)})
    await game(table, "high", {"Klaus": (9, 9), "Birgit": (5, 5)})
    r = await merge_as_admin(table)
    assert "Klaus" in plain(r), plain(r)
    added = await cash_storage.added(table.app.store, PLATFORM, "group-1")
    assert added == {"klaus": "Klaus", "ute": "Ute"}, added  # Klausi's place (and link) is Klaus's now
    assert await cash_club_linked(table, "bob") == ("klaus", "Klaus")
    r = await admin(table, "/kasse member Ute off")
    assert "Ute is no member of the cash box any more" in plain(r), plain(r)
    r = await admin(table, "/kasse member Nobody off")
    assert "I know no member “Nobody”" in plain(r), plain(r)
    await admin(table, "/kasse dues 5 monthly")
    clock.now = at(2026, 3, 1, 7)
    await table.app.scheduler.tick()
    assert [(m, c) for m, k, _a, c, _n in await notes(table) if k == "dues"] == [("klaus", "2026-03")]


async def cash_club_linked(t: Table, user_id: str) -> tuple[str, str] | None:
    return await cash_members.linked(t.app.store, PLATFORM, "group-1", user_id)


async def test_moving_an_evening_keeps_its_place_and_the_same_time_changes_nothing(app: App, clock: Clock) -> None:
    club = Club(app)
    clock.now = at(2026, 12, 2, 12)
    await club.say("alice", "/termin 12.12. 19:30 Gasthof Krone")
    await club.press("bob", "kegeln:group-1:t1y")
    r = await club.say("alice", "/termin 12.12. 19:30")  # the same again: nothing changed, the place stays
    assert "The club evening stays as it was set; the answers stand." in plain(r), plain(r)
    assert "Gasthof Krone" in plain(r) and "Coming (1): Bob" in plain(r), plain(r)
    r = await club.say("alice", "/termin 13.12. 20:00")  # moved without a note: the place stays
    assert "moved the club evening: please answer again" in plain(r) and "Gasthof Krone" in plain(r), plain(r)
    r = await club.say("alice", "/termin 13.12. 20:00 Zum Anker")  # a new place is a change of the note
    assert "changed the club evening's note" in plain(r) and "Zum Anker" in plain(r), plain(r)


async def test_the_dues_come_on_the_clubs_own_day_and_dues_off_leaves_the_reminders(table: Table, clock: Clock) -> None:
    clock.now = at(2026, 3, 15)
    await table.say("bob", "/kasse")
    r = await admin(table, "/timezone America/New_York")
    assert "New_York" in plain(r) or "New York" in plain(r), plain(r)
    await admin(table, "/kasse on")
    await admin(table, "/kasse member Bob @bob")
    await table.say("bob", "/kasse remind on")
    await admin(table, "/kasse dues 5 monthly")
    clock.now = at(2026, 4, 1, 3)  # 23:00 on 31 March in New York: not yet the club's 1st
    assert await table.app.scheduler.tick() == []
    clock.now = at(2026, 4, 1, 4) + 5  # midnight in New York
    (post,) = await table.app.scheduler.tick()
    assert "2026-04" in post.text, post.text
    await admin(table, "/kasse dues off")
    keys = [j.key for j in await pending(table.app.store, cash_storage.JOBS, PLATFORM, "group-1")]
    assert keys == ["remind:2026-04"], keys  # the reminder stays; no dues job is left


# ---------------------------------------------------------------- the roster behind the box (bot/club/)
async def test_the_rosters_members_and_links_are_the_cash_boxs(table: Table) -> None:
    """A member on the club's roster (/verein add) is bookable and pays the dues without a game or a
    /kasse member line; an account the roster links (confirmed) reads that member's statement privately."""
    from tests.club.harness import as_chair
    await table.say("bob", "hi")
    await admin(table, "/kasse on")
    assert "Ilse" not in await cash_members.members(table.app.store, PLATFORM, "group-1", paying=True)
    await as_chair(table, "add", "Ilse")
    await as_chair(table, "link", "Ilse", "<@bob>")
    assert "Ilse" in (await cash_members.members(table.app.store, PLATFORM, "group-1", paying=True)).values()
    r = await admin(table, "/kasse fee Ilse 20 joined in December")
    assert "Entry fee for Ilse: €20.00 — joined in December" in plain(r), plain(r)
    assert await cash_members.linked(table.app.store, PLATFORM, "group-1", "bob") == (names.key("Ilse"), "Ilse")
    r = await table.say("bob", "/kasse me")
    (msg,) = r.messages
    assert isinstance(msg.to, Actor) and msg.to.user_id == "bob", msg.to
    assert "Ilse: balance €20.00" in plain(r) and "joined in December" in plain(r), plain(r)
