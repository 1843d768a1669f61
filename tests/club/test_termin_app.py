"""/termin through the App on a real SQLite file with an injected clock: setting, showing, moving and
cancelling the club evening, the ✅/❌ answers kept in one list message, who may, and the cheater's paths
(another chat's evening, forged buttons, flooding); the reminders run by the scheduler, once, across
restarts, in the chat and forum topic the evening was set in."""

from __future__ import annotations

import io
import re
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from adapters.console.adapter import ConsoleAdapter
from bot.__main__ import deliver
from bot.app.app import App
from bot.club.evenings import storage as tstore
from bot.schedule.scheduler import pending
from bot.storage.sql import Query
from core.messages import Actor, Chat, Inbound, Response
from tests.app.conftest import Clock
from tests.app.harness import GROUP, PLATFORM, Table, texts
from tests.games.kegeln.test_app import start

ADMINS = {"alice"}
START = datetime(2026, 12, 12, 19, 30, tzinfo=UTC).timestamp()  # the evening below, /termin 12.12. 19:30


def at(year: int, month: int, day: int, hour: int = 0, minute: int = 0) -> float:
    return datetime(year, month, day, hour, minute, tzinfo=UTC).timestamp()


class Club(Table):
    """The harness's table with chat admins."""

    def actor(self, name: str) -> Actor:
        return Actor(PLATFORM, name, name.capitalize(), self.locale, is_admin=name in ADMINS)


def buttons(r: Response) -> list[str]:
    return [b.action for m in r.messages for row in m.buttons for b in row]


async def rows(app: App, sql: str) -> list[tuple[Any, ...]]:
    """Rows read through the App's own store (SQLite here, PostgreSQL in tests/postgres)."""
    return [tuple(r) for r in await app.store.fetch(Query(sql))]


async def plan(club: Club, clock: Clock, text: str = "/termin 12.12. 19:30 Gasthof Krone") -> Response:
    clock.now = at(2026, 12, 2, 12)
    r = await club.say("alice", text)
    assert "Next club evening: Sat, Dec 12, 2026, 19:30 — Gasthof Krone" in texts(r), texts(r)
    return r


async def test_an_admin_sets_the_evening_and_the_list_is_one_message(app: App, clock: Clock) -> None:
    club = Club(app)
    clock.now = at(2026, 12, 2, 12)
    r = await club.say("bob", "/termin")
    assert "No club evening is planned here" in texts(r)
    r = await plan(club, clock)
    (listed,) = r.messages
    assert listed.edit_key == "termin:1:0" and buttons(r) == ["kegeln:group-1:t1y", "kegeln:group-1:t1n"]
    assert "✅ Coming (0): –\n❌ Not coming (0): –" in listed.text
    # bob and cleo answer: each changed answer edits the same list message, nothing else is posted
    r = await club.press("bob", "kegeln:group-1:t1y")
    assert [m.edit_key for m in r.messages] == ["termin:1:0"] and r.notice == "✅ You are on the list."
    assert "✅ Coming (1): Bob\n❌ Not coming (0): –" in r.messages[0].text
    clock.now += 60
    r = await club.press("cleo", "kegeln:group-1:t1n")
    assert "✅ Coming (1): Bob\n❌ Not coming (1): Cleo" in r.messages[0].text
    clock.now += 60
    r = await club.press("bob", "kegeln:group-1:t1n")  # bob changes his mind: one answer per user
    assert "✅ Coming (0): –\n❌ Not coming (2): Cleo, Bob" in r.messages[0].text
    assert await rows(app, "SELECT user_id, name, yes FROM kegel_evening_answers ORDER BY at") == [
        ("cleo", "Cleo", 0), ("bob", "Bob", 0)]
    # /termin alone posts the list again; from now on the answers edit that new message
    r = await club.say("dora", "/evening")
    assert r.messages[0].edit_key == "termin:1:1" and "❌ Not coming (2): Cleo, Bob" in r.messages[0].text
    r = await club.press("dora", "kegeln:group-1:t1y")
    assert [m.edit_key for m in r.messages] == ["termin:1:1"]


async def test_flooding_a_button_posts_nothing_new(app: App, clock: Clock) -> None:
    club = Club(app)
    await plan(club, clock)
    first = await club.press("bob", "kegeln:group-1:t1y")
    assert len(first.messages) == 1
    for _ in range(20):  # the same answer again: a notice to the presser, no message, no edit
        r = await club.press("bob", "kegeln:group-1:t1y")
        assert r.messages == () and r.notice == "✅ You are on the list."


async def test_only_an_admin_or_the_clubs_scorer_sets_or_cancels(app: App, clock: Clock) -> None:
    club = Club(app)
    clock.now = at(2026, 12, 2, 12)
    for text in ("/termin 12.12. 19:30", "/termin cancel", "/termin 31.02. 19:30"):  # who may is said first
        r = await club.say("bob", text)
        assert "Only a chat admin, one of the club's scorers" in texts(r), texts(r)
    assert await rows(app, "SELECT COUNT(*) FROM kegel_evening_dates") == [(0,)]
    await plan(club, clock)
    r = await club.say("bob", "/termin absagen")  # a cancel word of any language: still refused
    assert "Only a chat admin, one of the club's scorers" in texts(r)
    r = await club.say("bob", "/termin 13.12. 19:30")  # nor may he move it
    assert "Only a chat admin, one of the club's scorers" in texts(r)
    assert await rows(app, "SELECT starts, cancelled FROM kegel_evening_dates") == [(START, None)]
    # a cheap game makes bob a game's scorer, not the club's: still refused
    await start(club, "/kegeln high 2 Anna Ben", who="bob")
    r = await club.say("bob", "/termin cancel")
    assert "Only a chat admin, one of the club's scorers" in texts(r)
    await club.say("bob", "/cancel")
    await club.say("alice", "/verein scorer bob")  # appointed by the chat's admin: a role
    r = await club.say("bob", "/termin 13.12. 19:30")
    assert "Bob moved the club evening: please answer again." in texts(r)


async def test_moving_asks_again_and_cancelling_takes_the_buttons_away(app: App, clock: Clock) -> None:
    club = Club(app)
    await plan(club, clock)
    await club.press("bob", "kegeln:group-1:t1y")
    r = await club.say("alice", "/termin 12.12. 19:30 Kegelbahn am Markt")  # the same time, a new note
    assert "changed the club evening's note; the answers stand" in texts(r) and "✅ Coming (1): Bob" in texts(r)
    r = await club.say("alice", "/termin 12.12. 20:00 Kegelbahn am Markt")
    assert "moved the club evening: please answer again" in texts(r) and "✅ Coming (0): –" in texts(r)
    assert r.messages[-1].edit_key == "termin:1:2"  # the same evening, shown anew
    r = await club.say("alice", "/termin cancel")
    edited, told = r.messages
    assert edited.edit_key == "termin:1:2" and edited.buttons == ()  # the list message says so, its buttons gone
    assert "The club evening of Sat, Dec 12, 2026, 20:00 is cancelled." in edited.text
    assert "Alice cancelled the club evening" in told.text
    r = await club.press("bob", "kegeln:group-1:t1y")  # an old button of the cancelled evening does nothing
    assert "nothing changed" in texts(r) and r.messages == ()
    assert "No club evening is planned here" in texts(await club.say("bob", "/termin"))
    r = await club.say("alice", "/termin cancel")
    assert "No club evening is planned here" in texts(r)


async def test_another_chats_evening_cannot_be_seen_or_answered(app: App, clock: Clock) -> None:
    club = Club(app)
    await plan(club, clock)
    other = Club(app, group=Chat(PLATFORM, "group-2", private=False))
    assert "No club evening is planned here" in texts(await other.say("alice", "/termin"))
    r = await other.press("mallory", "kegeln:group-1:t1y")  # group-1's button pressed in group-2
    assert r.messages == () and r.notice
    r = await other.press("mallory", "kegeln:group-2:t1y")  # forged: group-2 named, group-1's evening id
    assert r.messages == () and "nothing changed" in texts(r)
    r = await club.dm("mallory", "/termin")  # privately: a group's command
    assert "works in a group chat" in texts(r)
    r = await app.handle(Inbound(Actor(PLATFORM, "mallory", "Mallory"), Chat(PLATFORM, "dm-mallory", True),
                                 action="kegeln:group-1:t1y", event_id="forged-dm"))
    assert r.messages == ()
    for forged in ("kegeln:group-1:t999y", "kegeln:group-1:t1x", "kegeln:group-1:t-1y", "kegeln:group-1:t" + "9" * 30):
        r = await club.press("mallory", forged)
        assert r.messages == (), forged
    assert await rows(app, "SELECT COUNT(*) FROM kegel_evening_answers") == [(0,)]


async def test_a_begun_evening_takes_no_answers(app: App, clock: Clock) -> None:
    club = Club(app)
    await plan(club, clock)
    clock.now = START
    r = await club.press("bob", "kegeln:group-1:t1y")
    assert "nothing changed" in texts(r) and r.messages == ()
    assert "No club evening is planned here" in texts(await club.say("bob", "/termin"))


async def test_the_time_is_read_in_the_chats_time_zone(app: App, clock: Clock) -> None:
    club = Club(app)
    await app.store.set_chat_tz(PLATFORM, GROUP.group, "Europe/Berlin")
    clock.now = at(2026, 12, 2, 12)
    r = await club.say("alice", "/termin 12.12. 19:30")
    assert "Sat, Dec 12, 2026, 19:30" in texts(r)
    (_day, job_hour) = await pending(app.store, tstore.OWNER, PLATFORM, GROUP.chat_id)
    assert job_hour.due == at(2026, 12, 12, 17, 30)  # 19:30 in Berlin is 18:30 UTC; an hour before
    german = Club(app, locale="de")
    r = await german.say("alice", "/termin Samstag 19:30 Uhr Gasthof Krone")
    assert "Nächster Kegelabend: Sa., 5. Dez. 2026, 19:30 — Gasthof Krone" in texts(r), texts(r)
    r = await german.say("alice", "/termin 12.12. 7:00")
    assert "Alice hat den Kegelabend verschoben: bitte neu antworten." in texts(r)
    r = await german.say("alice", "/termin gestern 19:30")
    assert "Nenne Tag und Uhrzeit" in texts(r)


async def test_reminders_move_with_the_evening_and_go_when_it_is_cancelled(app: App, clock: Clock) -> None:
    club = Club(app)
    await plan(club, clock)
    jobs = await pending(app.store, tstore.OWNER, PLATFORM, GROUP.chat_id)
    assert [(j.key, j.due) for j in jobs] == [("termin:1:day", START - 86_400), ("termin:1:hour", START - 3_600)]
    await club.say("alice", "/termin 13.12. 19:30")
    moved = START + 86_400
    jobs = await pending(app.store, tstore.OWNER, PLATFORM, GROUP.chat_id)
    assert [(j.key, j.due) for j in jobs] == [("termin:1:day", moved - 86_400), ("termin:1:hour", moved - 3_600)]
    clock.now = moved - 7_200
    await club.say("alice", "/termin 13.12. 20:00")  # two hours before: only the hour's reminder is left
    assert [j.key for j in await pending(app.store, tstore.OWNER, PLATFORM, GROUP.chat_id)] == ["termin:1:hour"]
    await club.say("alice", "/termin cancel")
    assert await pending(app.store, tstore.OWNER, PLATFORM, GROUP.chat_id) == []
    clock.now = moved + 86_400
    assert await app.scheduler.tick() == []


async def test_each_reminder_fires_once_across_restarts(tmp_path: Path) -> None:
    """A new App on the same database file in the middle: each reminder is posted once, in the chat's
    language, with the answers so far and the buttons; a late one for an evening already begun posts nothing."""
    db, clock = str(tmp_path / "bot.db"), Clock()
    app = await App.open(db, seed=1, clock=clock)
    try:
        club = Club(app)
        await plan(club, clock)
        await club.press("bob", "kegeln:group-1:t1y")
        clock.now = START - 86_400 - 60
        assert await app.scheduler.tick() == []
    finally:
        await app.close()  # a restart before the first reminder
    clock.now = START - 86_400 + 5
    app = await App.open(db, seed=1, clock=clock)
    try:
        (day,) = await app.scheduler.tick()
        assert day.to == GROUP and day.text.startswith("⏰ Tomorrow is club evening: Sat, Dec 12, 2026, 19:30")
        assert "✅ Coming (1): Bob" in day.text and [b.action for row in day.buttons for b in row] == [
            "kegeln:group-1:t1y", "kegeln:group-1:t1n"]
        assert await app.scheduler.tick() == []
    finally:
        await app.close()  # a restart between the two
    clock.now = START - 3_600 + 5
    app = await App.open(db, seed=1, clock=clock)
    try:
        (hour,) = await app.scheduler.tick()
        assert hour.text.startswith("⏰ Club evening in an hour")
        assert await app.scheduler.tick() == []
    finally:
        await app.close()
    app = await App.open(db, seed=1, clock=clock)  # and once more: nothing is posted twice
    try:
        assert await app.scheduler.tick() == []
    finally:
        await app.close()


async def test_a_late_reminder_for_a_begun_evening_posts_nothing(tmp_path: Path) -> None:
    db, clock = str(tmp_path / "bot.db"), Clock()
    app = await App.open(db, seed=1, clock=clock)
    try:
        await plan(Club(app), clock)
    finally:
        await app.close()
    clock.now = START + 60  # the bot was down over both reminders and the start
    app = await App.open(db, seed=1, clock=clock)
    try:
        assert await app.scheduler.tick() == []
        assert await pending(app.store, tstore.OWNER, PLATFORM, GROUP.chat_id) == []  # done with, not retried
    finally:
        await app.close()


async def test_down_over_the_day_reminder_posts_only_the_hours(tmp_path: Path) -> None:
    db, clock = str(tmp_path / "bot.db"), Clock()
    app = await App.open(db, seed=1, clock=clock)
    try:
        await plan(Club(app), clock)
    finally:
        await app.close()
    clock.now = START - 1_800  # back half an hour before the start
    app = await App.open(db, seed=1, clock=clock)
    try:
        (only,) = await app.scheduler.tick()
        assert only.text.startswith("⏰ Club evening in an hour")
    finally:
        await app.close()


async def test_the_reminder_goes_to_the_topic_and_language_it_was_set_in(app: App, clock: Clock) -> None:
    topic = Chat(PLATFORM, "group-1/77", private=False)
    club = Club(app, group=topic)
    clock.now = at(2026, 12, 2, 12)
    await app.handle(Inbound(Actor(PLATFORM, "alice", "Alice", is_admin=True), topic, command="lang", args=("sv",),
                             event_id="lang-sv"))
    r = await club.say("alice", "/traff fredag 19:30")
    assert buttons(r) == ["kegeln:group-1/77:t1y", "kegeln:group-1/77:t1n"]
    # the group's General has none (the language is the whole group's)
    assert "Ingen klubbkväll är planerad här" in texts(await Club(app).say("alice", "/termin"))
    clock.now = at(2026, 12, 3, 19, 30)
    (day,) = await app.scheduler.tick()
    assert day.to.chat_id == "group-1/77" and day.text.startswith("⏰ I morgon är det klubbkväll"), day.text


async def test_through_the_console_set_answered_and_reminded_after_a_restart(tmp_path: Path) -> None:
    """The console adapter in front of the App (its own chat `#table`): an appointed scorer sets the evening,
    members click ✅/❌ (the console prints the edited list again), and after a restart the reminder the
    bot posts by itself is printed for the table, once."""
    db, clock, out = str(tmp_path / "bot.db"), Clock(), io.StringIO()
    clock.now = at(2026, 12, 2, 12)
    app = await App.open(db, seed=1, clock=clock)
    try:
        console = ConsoleAdapter(app.handle, out=out, image_dir=tmp_path / "boards", admins=("carol",))
        await console.feed("alice: hi")
        await console.feed("carol: /verein scorer alice")  # the table's admin appoints alice: a role, no games
        await console.feed("bob: /termin 12.12. 19:30")
        assert "[#table] bob: Only a chat admin, one of the club's scorers" in out.getvalue()
        await console.feed("alice: /termin 12.12. 19:30 Gasthof Krone")
        yes = re.findall(r"\((b\d+)\) ✅ I'm coming", out.getvalue())[-1]
        await console.feed(f"bob clicks {yes}")
        assert "✅ Coming (1): bob" in out.getvalue() and "[@bob] ✅ You are on the list." in out.getvalue()
    finally:
        await app.close()
    clock.now = START - 3_600 + 1
    app = await App.open(db, seed=1, clock=clock)
    try:
        console = ConsoleAdapter(app.handle, out=out, image_dir=tmp_path / "boards")
        mark = len(out.getvalue())
        await deliver([console], await app.scheduler.tick())
        await deliver([console], await app.scheduler.tick())
        printed = out.getvalue()[mark:]
        assert printed.count("[#table] ⏰ Club evening in an hour: Sat, Dec 12, 2026, 19:30 — Gasthof Krone") == 1
        assert "✅ Coming (1): bob" in printed and "Tomorrow" not in printed  # down over the day-before one
    finally:
        await app.close()


async def test_the_evening_moves_with_a_group_that_becomes_a_supergroup(app: App, clock: Clock) -> None:
    """A Telegram group upgraded to a supergroup (`Store.migrate_chat`): its evening, answers and reminders
    go along, and the reminder is posted in the new chat with buttons for it."""
    club = Club(app)
    await plan(club, clock)
    await club.press("bob", "kegeln:group-1:t1y")
    new = Chat(PLATFORM, "supergroup-1", private=False)
    await app.store.migrate_chat(PLATFORM, GROUP.chat_id, new.chat_id)
    assert await rows(app, "SELECT COUNT(*) FROM kegel_evening_dates WHERE chat_id = 'group-1'") == [(0,)]
    r = await Club(app, group=new).say("bob", "/termin")
    assert "✅ Coming (1): Bob" in texts(r) and buttons(r) == ["kegeln:supergroup-1:t1y", "kegeln:supergroup-1:t1n"]
    clock.now = START - 3_600
    (hour,) = await app.scheduler.tick()
    assert hour.to.chat_id == "supergroup-1" and hour.text.startswith("⏰ Club evening in an hour")
