"""The daily puzzle through the real App over a real SQLite file (docs/daily.md): one code per chat,
day and puzzle, played privately, spoiler-free results in the group, one attempt per player and day
(also after a restart: a fresh App over the same file), streaks, the day's board and the all-time
table, the chat's time zone."""

from __future__ import annotations

import itertools
import re
from collections.abc import AsyncIterator
from datetime import datetime
from zoneinfo import ZoneInfo

import pytest

from bot.app.app import App
from bot.games.daily.day import streaks
from bot.storage.sql import Query
from core.messages import Actor, Chat, Inbound, Response
from tests.app.conftest import Clock
from tests.app.harness import GROUP, PLATFORM, Table, group_texts, texts

NOON = datetime(2026, 11, 30, 12, 0, tzinfo=ZoneInfo("UTC")).timestamp()


def wrong_codes(secret: str) -> list[str]:
    """Valid 4-digit codes (distinct digits) other than the secret, none sharing its first digit."""
    return ["".join(p) for p in itertools.permutations("0123456789", 4)
            if "".join(p) != secret and p[0] != secret[0]]


async def secret_of(app: App, chat: str = GROUP.chat_id, puzzle: str = "1a2b") -> str:
    rows = await app.store.fetch(
        Query(
            "SELECT secret FROM daily_puzzles WHERE chat_id = :chat_id AND puzzle = :puzzle"),
        chat_id=chat, puzzle=puzzle)
    assert len(rows) == 1
    return str(rows[0][0])


def private_to(r: Response, who: str) -> str:
    return "\n".join(m.text for m in r.messages if (isinstance(m.to, Actor) and m.to.user_id == who)
                     or (isinstance(m.to, Chat) and m.to.private))


@pytest.fixture
async def noon_app(db: str, clock: Clock) -> AsyncIterator[App]:
    clock.now = NOON
    a = await App.open(db, seed=42, clock=clock, idle_timeout=3600 * 24)
    yield a
    await a.close()


async def test_three_players_spoiler_free_results_one_try_each_and_a_restart(
        noon_app: App, db: str, clock: Clock) -> None:
    table = Table(noon_app)
    r = await table.say("alice", "/daily")
    assert "Today's 1A2B daily (Nov 30, 2026)" in private_to(r, "alice")
    assert "Alice is playing today's 1A2B daily privately" in group_texts(r)
    play = table.button(r, ":1a2b")
    assert play == "daily:group-1:1a2b"
    secret = await secret_of(noon_app)
    wrong = wrong_codes(secret)

    # Alice solves on her third attempt, privately
    for code in wrong[:2]:
        r = await table.dm("alice", code)
        assert group_texts(r) == "" and re.search(r"#\d/10: \d{4} → \dA\dB", private_to(r, "alice"))
    r = await table.dm("alice", secret)
    assert f"Solved in 3 attempts: {secret}" in private_to(r, "alice")
    result = group_texts(r)
    assert "Alice solved the 1A2B daily of Nov 30, 2026: 3/10" in result
    assert result.count("\n") == 3 and result.rstrip().endswith("🟩🟩🟩🟩")  # one row per guess
    assert not re.search(r"\d{4}", result.replace("2026", ""))

    # Bob starts from the group's button, guesses once in the group by mistake (deleted, not counted)
    r = await table.press("bob", play)
    assert "Today's 1A2B daily" in private_to(r, "bob")
    r = await table.say("bob", wrong[5])
    assert r.delete_inbound and "played privately" in group_texts(r) and wrong[5] not in group_texts(r)
    for code in wrong[10:14]:
        await table.dm("bob", code)
    r = await table.dm("bob", secret)
    assert "Bob solved the 1A2B daily of Nov 30, 2026: 5/10" in group_texts(r)

    # Carol uses up her ten attempts
    await table.say("carol", "/daily 1a2b")
    for code in wrong[20:29]:
        r = await table.dm("carol", code)
        assert "/10" in private_to(r, "carol")
    r = await table.dm("carol", wrong[29])
    assert f"The code of the 1A2B daily of Nov 30, 2026 was {secret}" in private_to(r, "carol")
    assert "Carol did not solve the 1A2B daily of Nov 30, 2026: X/10" in group_texts(r)

    # no second try, not by command, button or in private
    r = await table.say("alice", "/daily")
    assert "You have already played today's 1A2B daily: solved in 3 attempts" in texts(r)
    r = await table.press("carol", play)
    assert "daily: not solved (10 attempts)" in texts(r)
    r = await table.dm("alice", wrong[40])  # a code typed privately: what became of her attempt
    assert "You have already played today's 1A2B daily: solved in 3 attempts" in texts(r)

    # the board of the day: solvers by attempts, then the others
    r = await table.say("dave", "/daily board")
    board = texts(r)
    assert board.index("Alice — solved in 3") < board.index("Bob — solved in 5") < board.index("Carol — not solved")

    # Dave starts, then the bot restarts: a fresh App over the same file resumes, never restarts
    await table.say("dave", "/daily")
    await table.dm("dave", wrong[50])
    await noon_app.store.close()
    fresh = await App.open(db, seed=7, clock=clock, idle_timeout=3600 * 24)
    try:
        again = Table(fresh)
        r = await again.say("dave", "/daily")
        assert "still running" in texts(r) and f"#1: {wrong[50]}" in private_to(r, "dave")
        assert "Today's 1A2B daily (" not in texts(r)  # not a new attempt
        assert await secret_of(fresh) == secret  # the stored code, not a new draw
        r = await again.dm("dave", secret)
        assert "Dave solved the 1A2B daily of Nov 30, 2026: 2/10" in group_texts(r)
        r = await again.say("alice", "/daily")
        assert "already" in texts(r)
        r = await again.say("bob", "/daily table")
        table_text = texts(r)
        assert "Dave — 1/1 · ⌀ 2.0" in table_text and "Alice — 1/1 · ⌀ 3.0" in table_text
        assert "Carol — 0/1" in table_text
        for out in [*table.sent, *again.sent]:  # the group never saw the code
            if isinstance(out.to, Chat) and not out.to.private:
                assert not re.search(rf"(?<!\d){secret}(?!\d)", out.text), out.text
    finally:
        await fresh.close()


async def test_hints_analyses_and_other_games_are_refused_in_a_daily(noon_app: App) -> None:
    table = Table(noon_app)
    r = await table.dm("alice", "/daily")
    assert "/daily works in a group chat" in texts(r)
    await table.say("alice", "/daily")
    r = await table.dm("alice", "/daily")  # privately: the running daily again
    assert "Your 1A2B daily" in texts(r)
    r = await table.dm("alice", "/hint")
    assert "No hints in the daily puzzle" in texts(r)
    r = await table.say("alice", "/hint")
    assert "No hints in the daily puzzle" in texts(r)
    r = await table.dm("alice", "/analyse")
    assert "No analysis of the daily puzzle" in texts(r)
    r = await table.say("alice", "/board")  # the board goes privately
    assert group_texts(r) == "" and "Your 1A2B daily" in texts(r)
    r = await table.dm("alice", "/giveup")
    assert "You gave up" in private_to(r, "alice") and "Alice did not solve" in group_texts(r)
    r = await table.say("alice", "/analyse")
    assert "No analysis of the daily puzzle" in texts(r)
    # a game of the chat and the daily run side by side (the attempt takes no seat in the chat)
    await table.say("bob", "/practice")
    r = await table.say("bob", "/daily")
    assert "Today's 1A2B daily" in texts(r)


async def test_each_chat_draws_its_own_code_and_a_link_works_only_for_its_chat(noon_app: App) -> None:
    table = Table(noon_app)
    other = Chat(PLATFORM, "group-2", private=False)
    await table.say("alice", "/daily")
    await table.say("alice", "/daily", other)
    assert await secret_of(noon_app, "group-1") != await secret_of(noon_app, "group-2")
    # group-2's button pressed in group-1 names another chat: refused
    r = await table.send(Inbound(table.actor("bob"), GROUP, action="daily:group-2:1a2b", event_id="x1"))
    assert r.notice and "chat" in r.notice.lower()
    # privately, a chat action counts only when the platform vouches for it (a signed deep link): a
    # bare button id there (forged by a modified client) names another chat, and is refused
    r = await table.send(Inbound(table.actor("bob"), Chat(PLATFORM, "dm-bob", True),
                                 action="daily:group-2:1a2b", event_id="x3"))
    assert r.notice and "chat" in r.notice.lower() and "Today's 1A2B daily" not in texts(r)
    # another chat's link followed privately plays that chat's own daily (never this chat's code)
    r = await table.send(Inbound(table.actor("bob"), Chat(PLATFORM, "dm-bob", True),
                                 action="daily:group-2:1a2b", event_id="x2", signed=True))
    assert "Today's 1A2B daily" in texts(r)
    # a forged puzzle in a chat action is a stale button
    r = await table.press("bob", "daily:group-1:poker")
    assert r.notice


async def test_logik_and_words_dailies(noon_app: App) -> None:
    table = Table(noon_app)
    r = await table.say("alice", "/daily logik")
    assert "Guess the row of 5 pegs" in texts(r)
    secret = await secret_of(noon_app, puzzle="logik")
    r = await table.dm("alice", "11111" if secret != "11111" else "22222")
    assert "⚫" in private_to(r, "alice")
    r = await table.dm("alice", secret)
    assert "Alice solved the Logik daily" in group_texts(r) and "🟩🟩🟩🟩🟩" in group_texts(r)
    r = await table.say("bob", "/daily words")
    assert "Guess the 5-letter word" in texts(r)
    word = await secret_of(noon_app, puzzle="words")
    r = await table.dm("bob", "qqqqq")
    assert "not in my dictionary" in texts(r)
    r = await table.dm("bob", word)
    assert "Bob solved the Words daily" in group_texts(r)
    assert word.lower() not in group_texts(r).lower()


async def test_the_day_changes_at_midnight_of_the_chats_time_zone(noon_app: App, clock: Clock) -> None:
    table = Table(noon_app)
    r = await table.say("alice", "/timezone Europe/Berlin")
    assert "Only the chat's admins" in texts(r)
    admin = Actor(PLATFORM, "alice", "Alice", "en", is_admin=True)
    r = await table.send(Inbound(admin, GROUP, command="timezone", args=("Mars/Olympus",), event_id="tz0"))
    assert "I do not know the time zone Mars/Olympus" in texts(r)
    r = await table.send(Inbound(admin, GROUP, command="timezone", args=("Europe/Berlin",), event_id="tz1"))
    assert "Time zone set: Europe/Berlin" in texts(r)
    berlin = ZoneInfo("Europe/Berlin")
    clock.now = datetime(2026, 12, 1, 23, 59, tzinfo=berlin).timestamp()  # 22:59 UTC: Dec 1 in Berlin
    await table.say("alice", "/daily")
    first = await secret_of(noon_app)
    await table.dm("alice", first)
    clock.now = datetime(2026, 12, 2, 0, 1, tzinfo=berlin).timestamp()  # 23:01 UTC, still Dec 1 in UTC
    r = await table.say("alice", "/daily")
    assert "Today's 1A2B daily (Dec 2, 2026)" in texts(r)
    r = await table.say("bob", "/timezone")
    assert "Europe/Berlin" in texts(r) and "Dec 2, 2026" in texts(r)


async def test_streaks_count_days_in_a_row(noon_app: App, clock: Clock) -> None:
    table = Table(noon_app)
    for day in range(3):
        clock.now = NOON + day * 86400
        await table.say("alice", "/daily")
        rows = await noon_app.store.fetch(
            Query(
                "SELECT secret FROM daily_puzzles WHERE day = :day"),
            day=datetime.fromtimestamp(clock.now, ZoneInfo("UTC")).date().isoformat())
        r = await table.dm("alice", str(rows[0][0]))
    assert "Alice: 3 days in a row! (best: 3)" in group_texts(r)
    r = await table.say("bob", "/daily board")
    assert "🔥3" in texts(r)
    assert streaks(["2026-11-28", "2026-11-29", "2026-12-01"], "2026-12-02") == (1, 2)
    assert streaks(["2026-11-28"], "2026-12-02") == (0, 1)


async def test_an_attempt_left_idle_times_out_as_not_solved(noon_app: App, clock: Clock) -> None:
    table = Table(noon_app)
    await table.say("alice", "/daily")
    await table.dm("alice", wrong_codes(await secret_of(noon_app))[0])
    clock.now += noon_app.idle_timeout + 1
    out = await noon_app.runner.sweep()
    group = [o.text for o in out if isinstance(o.to, Chat) and not o.to.private]
    assert any("Alice did not solve the 1A2B daily of Nov 30, 2026: X/10" in t for t in group)
    assert any("timed out" in o.text for o in out if isinstance(o.to, Actor))
    clock.now = NOON + 3600  # the same day again: the timed-out attempt was the one try
    r = await table.say("alice", "/daily")
    assert "Your attempt at today's 1A2B daily timed out (it counts as not solved)" in texts(r)


async def test_a_modal_answer_on_the_play_button_and_the_guess_button_are_guesses(noon_app: App) -> None:
    """How Discord plays (no private chat needed): the group's ▶️ button with a typed answer (a modal)
    starts the attempt and takes the first guess; the ✍️ button of the attempt takes the next ones."""
    table = Table(noon_app)
    await table.say("alice", "/daily")
    secret = await secret_of(noon_app)
    wrong = wrong_codes(secret)
    r = await table.press("bob", "daily:group-1:1a2b", text=wrong[0])
    assert "Today's 1A2B daily" in private_to(r, "bob") and f"#1/10: {wrong[0]}" in private_to(r, "bob")
    guess = table.button(r, ":secret")
    r = await table.press("bob", guess, text=secret)
    assert "Bob solved the 1A2B daily of Nov 30, 2026: 2/10" in group_texts(r)
    assert secret not in group_texts(r)
