"""Issue 23.5, the daily puzzle played fairly, through the real App over a real SQLite file: the
day's word is in the group's language, not the first asker's; an attempt closes some hours after
its day ended, also when no sweep ran; moving /timezone opens no day early and none twice."""

from __future__ import annotations

from datetime import UTC, datetime

from bot.app.app import App
from bot.games.daily import storage as daily_storage
from bot.solver.dictionary import lexicon
from bot.storage.sql import Query
from core.messages import Actor, Inbound
from tests.app.conftest import Clock
from tests.app.harness import GROUP, PLATFORM, Table, group_texts, texts
from tests.games.daily.test_daily import noon_app as noon_app
from tests.games.daily.test_daily import secret_of, wrong_codes


async def puzzle_lang(app: App) -> str:
    rows = await app.store.fetch(
        Query("SELECT lang FROM daily_puzzles WHERE puzzle = 'words'"))
    return str(rows[0][0])


async def test_the_first_askers_language_does_not_pick_the_groups_word(noon_app: App) -> None:
    german = Table(noon_app, locale="de")
    r = await german.say("bob", "/daily words")  # the group never set /lang: the bot's language, English
    assert await puzzle_lang(noon_app) == "en", texts(r)
    word = await secret_of(noon_app, puzzle="words")
    assert lexicon("en").knows(word)
    r = await german.say("carl", "/daily words")  # a second asker plays the same word, told in German
    assert "5 Buchstaben" in texts(r) and await puzzle_lang(noon_app) == "en"


async def test_an_attempt_opened_before_midnight_closes_hours_after_its_day(noon_app: App, clock: Clock) -> None:
    table = Table(noon_app)
    clock.now = datetime(2026, 11, 30, 23, 59, tzinfo=UTC).timestamp()
    await table.say("alice", "/daily")
    secret = await secret_of(noon_app)
    await table.dm("alice", wrong_codes(secret)[0])
    await table.say("bob", "/daily")
    clock.now = datetime(2026, 12, 1, 1, 0, tzinfo=UTC).timestamp()  # within CLOSE_AFTER: bob still solves
    assert "Bob solved" in group_texts(await table.dm("bob", secret))
    await table.dm("alice", wrong_codes(secret)[1])  # alice keeps it going (never idle for the idle timeout)
    clock.now = datetime(2026, 12, 1, 3, 30, tzinfo=UTC).timestamp()  # past CLOSE_AFTER (no sweep ran): closed
    r = await table.dm("alice", secret)
    assert "Alice solved" not in group_texts(r) and "timed out" in texts(r), texts(r)
    days = await daily_storage.daily_day(noon_app.store, PLATFORM, GROUP.chat_id, "2026-11-30", "1a2b")
    assert {line.user_id: line.outcome for line in days} == {"alice": "abandoned", "bob": "solved"}


async def set_zone(table: Table, tz: str) -> str:
    """/timezone TZ by a chat admin; the answer."""
    r = await table.send(Inbound(Actor(PLATFORM, "root", "Root", "en", is_admin=True), GROUP, command="timezone",
                                 args=(tz,)))
    return texts(r)


async def test_moving_the_time_zone_opens_no_day_early_and_none_twice(noon_app: App, clock: Clock) -> None:
    table = Table(noon_app)
    await table.say("alice", "/daily")  # Nov 30, drawn in UTC: it ends at midnight UTC
    today = await secret_of(noon_app)
    assert "Dec 1" in await set_zone(table, "Pacific/Kiritimati")  # UTC+14: it is Dec 1 there already
    r = await table.say("bob", "/daily")
    assert "is not open yet" in texts(r), texts(r)  # tomorrow's code is not drawn a day early
    assert [today] == [await secret_of(noon_app)]  # still one puzzle drawn
    clock.now = datetime(2026, 12, 1, 3, 0, tzinfo=UTC).timestamp()
    assert "Nov 30" in await set_zone(table, "Etc/GMT+12")  # UTC−12: Nov 30 again
    r = await table.say("carl", "/daily")
    assert "that day has ended" in texts(r), texts(r)  # Nov 30's puzzle is not played a second day
    await set_zone(table, "UTC")
    r = await table.say("carl", "/daily")  # Dec 1 in UTC: opens, its day began when Nov 30's ended
    assert "not open yet" not in texts(r) and "has ended" not in texts(r), texts(r)
