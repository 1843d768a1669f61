"""Tables by period through the real App (docs/retention.md "Tables by period"): `/top week|month|season`
counts the duel wins of the period only, `/top GAME week` the rating change in it, in the chat's zone
and from the chat's first day of the week; the weekly table post tells the week that has just ended,
once; another chat's games never show."""

from __future__ import annotations

from datetime import datetime
from zoneinfo import ZoneInfo

from bot.games.plugin import GamePlugin, rated_kinds
from bot.schedule.scheduler import pending
from core.messages import Actor, Chat, Inbound
from tests.app.conftest import Clock
from tests.app.harness import GROUP, PLATFORM, Table, texts
from tests.app.test_ratings import duel

MONDAY = 1_000_000.0  # Mon 12 Jan 1970, 13:46 UTC
SUNDAY = MONDAY - 86400


async def admin_says(table: Table, *args: str, chat: Chat = GROUP) -> str:
    return texts(await table.app.handle(Inbound(Actor(PLATFORM, "root", "Root", "en", is_admin=True), chat,
                                                command="posts", args=args)))


def test_the_rated_games_are_those_with_a_rated_hook() -> None:
    """One trait, no list: /top, /rating and the weekly table read `GamePlugin.is_rated`."""
    assert rated_kinds() == ("duel", "kegeln", "words", "logik")  # in registration order
    assert not GamePlugin().is_rated


async def test_wins_and_rating_changes_of_the_week_from_the_chats_first_day(table: Table, clock: Clock) -> None:
    clock.now = SUNDAY
    await duel(table, draw=False)  # Sunday: a win
    clock.now = MONDAY
    winner = await duel(table, draw=False)  # Monday: a second one
    r = await table.say("carol", "/top week")
    shown = texts(r)
    assert "Duel wins, this week (from Jan 12, 1970)" in shown
    assert "won 1 of 1 game" in shown and "of 2 games" not in shown  # Sunday's is last week's
    r = await table.say("carol", "/top month")
    assert "of 2 games" in texts(r)
    r = await table.say("carol", "/top duel week")
    assert "1A2B duel, this week (from Jan 12, 1970): change of the skill rating" in texts(r)
    assert f"1. {winner.capitalize()} — +" in texts(r)
    assert "(1 game)" in texts(r)
    assert "weeks start on Monday" in await admin_says(table)
    assert "weeks start on Sunday" in await admin_says(table, "week", "sunday")
    r = await table.say("carol", "/top week")
    assert "this week (from Jan 11, 1970)" in texts(r) and "of 2 games" in texts(r)
    r = await table.say("carol", "/top duel woche")  # the German word
    assert "(2 games)" in texts(r)
    r = await table.say("carol", "/top logik season")
    assert "Logik, this season (from Jan 1, 1970): no finished games in this chat." in texts(r)
    r = await table.say("carol", "/top chess week")
    assert "duel, kegeln, words, logik" in texts(r)
    other = Table(table.app, Chat(PLATFORM, "group-2", False))
    r = await other.say("carol", "/top week")  # another chat: none of these games
    assert "no finished games" in texts(r)


async def test_the_zone_decides_the_week(table: Table, clock: Clock) -> None:
    # Sunday 23:30 UTC is Monday 01:30 in Sofia: there it is this week's game
    clock.now = datetime(1970, 1, 11, 23, 30, tzinfo=ZoneInfo("UTC")).timestamp()
    await duel(table, draw=False)
    clock.now = MONDAY
    assert "no finished games" in texts(await table.say("carol", "/top week"))
    await table.app.handle(Inbound(Actor(PLATFORM, "root", "Root", "en", is_admin=True), GROUP,
                                   command="timezone", args=("Europe/Sofia",)))
    assert "won 1 of 1 game" in texts(await table.say("carol", "/top week"))


async def test_the_weekly_post_tells_the_week_that_ended_once(table: Table, clock: Clock) -> None:
    clock.now = SUNDAY
    await duel(table, draw=False)  # last week's: not in the post
    clock.now = MONDAY
    await duel(table, draw=False)
    assert "Weekly table: at 18:00" in await admin_says(table, "weekly", "18:00")
    due = datetime(1970, 1, 12, 18, 0, tzinfo=ZoneInfo("UTC")).timestamp()  # today is the week's first day
    assert [(j.key, j.due) for j in await pending(table.app.store, "weekly", PLATFORM, GROUP.chat_id)] == [
        ("weekly:1970-01-12", due)]
    clock.now = due - 1
    assert await table.app.scheduler.tick() == []
    clock.now = due + 1
    (post,) = await table.app.scheduler.tick()  # the week that ended: Sunday's game only
    assert "The week in this chat" in post.text and "last week (from Jan 5, 1970)" in post.text
    assert "won 1 of 1 game" in post.text
    assert await table.app.scheduler.tick() == []
    assert [j.key for j in await pending(table.app.store, "weekly", PLATFORM, GROUP.chat_id)] == ["weekly:1970-01-19"]
    clock.now = due + 7 * 86400 + 1
    (post,) = await table.app.scheduler.tick()  # Monday's game
    assert "(from Jan 12, 1970)" in post.text and "won 1 of 1 game" in post.text
    clock.now = due + 14 * 86400 + 1  # a week without games: no post, the next one armed
    assert await table.app.scheduler.tick() == []
    assert [j.key for j in await pending(table.app.store, "weekly", PLATFORM, GROUP.chat_id)] == ["weekly:1970-02-02"]
    assert "Weekly table: off" in await admin_says(table, "weekly", "off")
    assert await pending(table.app.store, "weekly", PLATFORM, GROUP.chat_id) == []
