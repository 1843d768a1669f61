"""The morning post on Telegram: the real PTB Application against the strict stand-in Bot API, the real
App on a real SQLite file with an injected clock. A group admin turns the post on, Bob opts in to
mentions, Alice solves the daily; the next morning's post names both but mentions only Bob — a
`text_mention` entity of his user id over his name (https://core.telegram.org/bots/api#messageentity),
which the stand-in checks lies inside the text — and a member who is no admin changes nothing."""

from __future__ import annotations

import sqlite3
from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from tests.app.conftest import Clock
from tests.games.daily.test_morning_post import MORNING, NOON
from tests.telegram.botapi_rules import length
from tests.telegram.standin import StandIn
from tests.telegram.standin_objects import Chat
from tests.telegram.test_e2e_app import ALICE, BOB, GROUP, Club, sent

pytestmark = pytest.mark.filterwarnings("ignore::telegram.warnings.PTBDeprecationWarning")


@pytest.fixture
async def club(standin: StandIn, tmp_path: Path) -> AsyncIterator[Club]:
    clock = Clock()
    clock.now = NOON
    club = Club(standin, tmp_path / "games.sqlite", clock)
    await club.start()
    yield club
    await club.stop()


async def test_the_morning_post_mentions_exactly_the_opted_in_by_text_mention(
        standin: StandIn, club: Club) -> None:
    standin.admins[GROUP.id] = [ALICE]
    for user in (ALICE, BOB):
        await club.act(club.say(Chat.private(user), user, "/start"))
    refused = await club.act(club.say(GROUP, BOB, "/posts morning 06:00"))
    assert any("Only a chat admin" in c.text for c in sent(refused, GROUP.id))
    calls = await club.act(club.say(GROUP, ALICE, "/posts morning 08:00"))
    assert any("Morning post: at 08:00" in c.text for c in sent(calls, GROUP.id))
    await club.act(club.say(GROUP, BOB, "/pings on"))
    await club.act(club.say(GROUP, ALICE, "/daily"))
    with sqlite3.connect(club.db_path) as conn:
        (code,), = conn.execute("SELECT secret FROM daily_puzzles").fetchall()
    await club.act(club.say(Chat.private(ALICE), ALICE, str(code)))
    await club.act(club.say(GROUP, BOB, "/daily"))
    await club.act(club.say(Chat.private(BOB), BOB, "/giveup"))

    assert isinstance(club.clock, Clock)
    club.clock.now = MORNING + 10
    assert club.app is not None and club.adapter is not None
    mark = standin.mark()
    await club.adapter.send(await club.app.scheduler.tick())
    (post,) = await standin.wait_for(lambda c: c.ok and c.method == "sendMessage" and c.chat_id == GROUP.id
                                     and "Good morning" in c.text, after=mark)
    assert "Alice 1/10 · Bob X/10" in post.text and str(code) not in post.text
    entities = post.params["entities"]
    assert [e["type"] for e in entities] == ["text_mention"]
    (bob,) = entities
    assert bob["user"]["id"] == BOB.id
    start = bob["offset"]
    assert post.text.encode("utf-16-le")[2 * start:2 * (start + bob["length"])].decode("utf-16-le") == "Bob"
    assert length(post.text) >= start + bob["length"]
    assert not any(e.get("user", {}).get("id") == ALICE.id for e in entities)  # Alice did not opt in
