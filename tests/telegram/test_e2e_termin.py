"""/termin on Telegram, end to end through the real PTB Application polling the stand-in, with the real
App on a real SQLite file and an injected clock: an evening set in a forum topic, ✅/❌ pressed there edit
its one list message (editMessageText, nothing new sent however often a button is pressed), and after a
restart the reminder the bot posts by itself arrives in that topic, once."""

from __future__ import annotations

from datetime import UTC, datetime
from pathlib import Path

import pytest

from bot.__main__ import deliver
from tests.app.conftest import Clock
from tests.telegram.standin import StandIn
from tests.telegram.standin_calls import Call
from tests.telegram.test_e2e_app import ALICE, BOB, Club
from tests.telegram.test_e2e_topics import FORUM, act, say, thread, to_forum, topics

pytestmark = pytest.mark.filterwarnings("ignore::telegram.warnings.PTBDeprecationWarning")

START = datetime(2026, 12, 12, 19, 30, tzinfo=UTC).timestamp()


def new_posts(calls: list[Call]) -> list[Call]:
    return [c for c in to_forum(calls) if c.method == "sendMessage" and "/practice" not in c.text]


async def test_an_evening_in_a_topic_answered_by_button_and_reminded_there(standin: StandIn, tmp_path: Path) -> None:
    clock = Clock()
    clock.now = datetime(2026, 12, 2, 12, tzinfo=UTC).timestamp()
    club = Club(standin, tmp_path / "club.sqlite", clock)
    await club.start()
    try:
        standin.admins[FORUM.id] = [ALICE]  # the group's admin sets the evening
        (topic,) = await topics(club, "Kegelabend")
        calls = new_posts(await act(club, topic, say(club, topic, ALICE, "/termin 12.12. 19:30 Gasthof Krone")))
        (listed,) = calls
        assert thread(listed) == topic and "Next club evening: Sat, Dec 12, 2026, 19:30" in listed.text
        mid = listed.result["message_id"]
        yes, no = (f"kegeln:{FORUM.id}/{topic}:t1{a}" for a in "yn")
        assert [b["callback_data"] for b in listed.buttons] == [yes, no]

        calls = await act(club, topic, lambda: standin.press(FORUM, BOB, mid, yes))
        (edit,) = [c for c in to_forum(calls) if c.method == "editMessageText"]
        assert edit.params["message_id"] == mid and "✅ Coming (1): Bob" in edit.text
        assert new_posts(calls) == []
        assert [b["callback_data"] for row in standin.markup_of(FORUM.id, mid) for b in row] == [yes, no]
        for _ in range(5):  # flooding the same answer: no message, no edit
            calls = await act(club, topic, lambda: standin.press(FORUM, BOB, mid, yes))
            assert to_forum(calls) == [] and any(c.method == "answerCallbackQuery" for c in calls)
    finally:
        await club.stop()
    await club.start()  # a restart: the next answer still edits the same list message
    try:
        calls = await act(club, topic, lambda: standin.press(FORUM, BOB, mid, no))
        (edit,) = [c for c in to_forum(calls) if c.method == "editMessageText"]
        assert edit.params["message_id"] == mid
        assert "❌ Not coming (1): Bob" in edit.text and new_posts(calls) == []
    finally:
        await club.stop()

    clock.now = START - 86_400 + 3  # a restart, then the day before
    await club.start()
    try:
        assert club.app is not None and club.adapter is not None
        mark = standin.mark()
        await deliver([club.adapter], await club.app.scheduler.tick())  # as `python -m bot` does every few seconds
        (reminder,) = await standin.wait_for(lambda c: c.ok and c.method == "sendMessage" and c.chat_id == FORUM.id,
                                             after=mark, timeout=10.0)
        assert thread(reminder) == topic and reminder.text.startswith("⏰ Tomorrow is club evening")
        assert "❌ Not coming (1): Bob" in reminder.text
        assert [b["callback_data"] for b in reminder.buttons] == [yes, no]
        mark = standin.mark()
        await deliver([club.adapter], await club.app.scheduler.tick())
        assert [c for c in standin.calls[mark:] if c.method == "sendMessage"] == []  # once
    finally:
        await club.stop()
