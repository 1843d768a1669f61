"""/termin on Discord, end to end through the real discord.py client, the strict stand-in and the real App
on a real SQLite file with an injected clock: an evening set in a thread, ✅/❌ pressed there edit its one
list message (a PATCH, nothing new posted, however often a button is pressed), and after a restart the
reminder the bot posts by itself arrives in that thread, once."""

from __future__ import annotations

from datetime import UTC, datetime
from pathlib import Path

from bot.__main__ import deliver
from bot.app.app import App
from tests.app.conftest import Clock

from .conftest import MakeAdapter
from .model import CHANNEL_ID, Call, User
from .standin import StandIn
from .test_e2e_games import act

START = datetime(2026, 12, 12, 19, 30, tzinfo=UTC).timestamp()
ADMIN = str(int(User.permissions) | 8)  # ADMINISTRATOR (1 << 3): a chat admin, as the App means it


def posted(calls: list[Call], channel: int) -> list[Call]:
    """New messages everyone in `channel` sees (no edits, no ephemeral answers)."""
    return [c for c in calls if c.status < 300 and c.in_channel(channel) and c.method == "POST" and c.content]


def edits(calls: list[Call], message_id: int) -> list[Call]:
    return [c for c in calls if c.status < 300 and c.method == "PATCH" and c.path.endswith(f"/messages/{message_id}")]


async def test_an_evening_in_a_thread_answered_by_button_and_reminded_there(
        standin: StandIn, make_adapter: MakeAdapter, tmp_path: Path) -> None:
    clock = Clock()
    clock.now = datetime(2026, 12, 2, 12, tzinfo=UTC).timestamp()
    db = str(tmp_path / "discord.sqlite")
    alice, bob = standin.add_user("Alice", permissions=ADMIN), standin.add_user("Bob")
    thread = await standin.open_thread(CHANNEL_ID, "Kegelabend")
    app = await App.open(db_path=db, seed=1, clock=clock)
    try:
        adapter = await make_adapter(app.handle, app.command_menu())
        calls = await act(standin, standin.slash(thread, alice, "termin", {"when": "12.12. 19:30 Gasthof Krone"}))
        (listed,) = [c for c in calls if c.status < 300 and c.in_channel(thread) and "Next club evening" in c.content]
        assert "Sat, Dec 12, 2026, 19:30" in listed.content
        mid, cid = standin.message_with_button(lambda cid: cid == f"kegeln:{thread}:t1y")
        assert posted(standin.calls, CHANNEL_ID) == []  # nothing of it in the parent channel

        calls = await act(standin, standin.press(thread, bob, mid, cid), lambda c: bool(edits([c], mid)))
        assert "✅ Coming (1): Bob" in standin.messages[mid]["content"]  # the list message, edited in place
        assert posted(calls, thread) == []
        for _ in range(5):  # flooding the same answer: no post, no edit
            calls = await act(standin, standin.press(thread, bob, mid, cid), lambda c: c.status < 300)
            assert posted(calls, thread) == [] and edits(calls, mid) == []
        bob_no = f"kegeln:{thread}:t1n"
        calls = await act(standin, standin.press(thread, bob, mid, bob_no), lambda c: bool(edits([c], mid)))
        assert "❌ Not coming (1): Bob" in standin.messages[mid]["content"] and posted(calls, thread) == []
        # a button of this thread's evening pressed in the parent channel changes nothing
        calls = await act(standin, standin.press(CHANNEL_ID, bob, mid, cid), lambda c: c.status < 300)
        assert "❌ Not coming (1): Bob" in standin.messages[mid]["content"] and posted(calls, CHANNEL_ID) == []
    finally:
        await app.close()

    clock.now = START - 86_400 + 3  # a restart, then the day before: a new App on the same database file
    app = await App.open(db_path=db, seed=1, clock=clock)
    try:
        mark = len(standin.calls)
        await deliver([adapter], await app.scheduler.tick())  # what `python -m bot` does every POST_SECONDS
        await standin.wait_for(lambda c: bool(posted([c], thread)), after=mark, timeout=10.0)
        await standin.settle()
        (reminder,) = posted(standin.calls[mark:], thread)
        assert reminder.content.startswith("⏰ Tomorrow is club evening")
        assert "❌ Not coming (1): Bob" in reminder.content
        assert set(reminder.custom_ids()) == {f"kegeln:{thread}:t1y", f"kegeln:{thread}:t1n"}
        assert posted(standin.calls[mark:], CHANNEL_ID) == []
        mark = len(standin.calls)
        await deliver([adapter], await app.scheduler.tick())
        await standin.settle()
        assert posted(standin.calls[mark:], thread) == []  # once
    finally:
        await app.close()
