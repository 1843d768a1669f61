"""End to end in a forum supergroup: each topic a table of its own, through the real PTB Application
polling the stand-in (tests/telegram/forum.py models the topics as the Bot API documents them), with
the real App on a real SQLite file."""

from __future__ import annotations

from collections.abc import AsyncIterator, Callable
from pathlib import Path
from typing import Any

import pytest

from core import serial
from core.games import practice
from tests.telegram import forum
from tests.telegram.standin import Call, Chat, StandIn, User
from tests.telegram.test_e2e_app import ALICE, BOB, CAROL, Club, answers, game_of, is_help, with_button

pytestmark = pytest.mark.filterwarnings("ignore::telegram.warnings.PTBDeprecationWarning")

FORUM = Chat(id=-1009001, type="supergroup", title="Kegelclub", is_forum=True)
PNG = b"\x89PNG\r\n\x1a\n"


@pytest.fixture
async def club(standin: StandIn, tmp_path: Path) -> AsyncIterator[Club]:
    club = Club(standin, tmp_path / "forum.sqlite")
    await club.start()
    yield club
    await club.stop()


def thread(call: Call) -> int | None:
    return call.params.get("message_thread_id")


def to_forum(calls: list[Call]) -> list[Call]:
    """The bot's accepted sends and edits into the forum (any topic, or General)."""
    return [c for c in calls if c.ok and c.chat_id == FORUM.id and c.method in (
        "sendMessage", "sendPhoto", "sendDocument", "editMessageText", "editMessageReplyMarkup")]


async def act(club: Club, topic: int | None, do: Callable[[], Any], timeout: float = 10.0) -> list[Call]:
    """Do something in `topic` (None: General), wait until the bot has handled it: Carol's /help there
    is answered after it (a chat's updates are handled in order). The bot's calls in between."""
    standin = club.standin
    mark = standin.mark()
    do()
    standin.user_message(FORUM, CAROL, "/help", topic=topic)
    (answer,) = await standin.wait_for(
        lambda c: c.ok and c.method == "sendMessage" and c.chat_id == FORUM.id and is_help(c.text)
        and thread(c) == topic, timeout=timeout, after=mark)
    return standin.calls[mark:standin.calls.index(answer)]


def say(club: Club, topic: int | None, who: User, text: str, **kw: Any) -> Callable[[], Any]:
    return lambda: club.standin.user_message(FORUM, who, text, topic=topic, **kw)


async def topics(club: Club, *names: str) -> list[int]:
    """Alice creates the topics (the bot takes their service messages without a word)."""
    made = []
    for name in names:
        made.append(forum.create_topic(club.standin, FORUM, ALICE, name))
        calls = await act(club, made[-1], lambda: None)
        assert all(is_help(c.text) for c in to_forum(calls)), "a topic's creation is no message for the bot"
    return made


async def practice_rows(club: Club) -> list[Any]:
    assert club.app is not None
    rows = await club.app.store.seated_games("telegram", str(ALICE.id))
    return sorted((r for r in rows if r.kind == "practice"), key=lambda r: r.id)


async def test_practice_in_a_topic_is_answered_there_and_each_topic_has_its_own_game(club: Club) -> None:
    a, b = await topics(club, "1A2B", "Kegeln")
    calls = to_forum(await act(club, a, say(club, a, ALICE, "/practice")))
    assert calls and all(thread(c) == a for c in calls), [(c.method, thread(c)) for c in calls]

    # the same player starts another practice in topic B: a table of its own, not "you are playing already"
    calls = to_forum(await act(club, b, say(club, b, ALICE, "/practice")))
    assert calls and all(thread(c) == b for c in calls)
    first, second = await practice_rows(club)
    assert (first.chat_id, second.chat_id) == (f"{FORUM.id}/{a}", f"{FORUM.id}/{b}")

    # a guess typed in B goes to B's game only, and is answered in B
    calls = to_forum(await act(club, b, say(club, b, ALICE, "1234")))
    assert calls and all(thread(c) == b for c in calls)
    first, second = await practice_rows(club)
    assert len(serial.load(practice.State, second.state).attempts) == 1
    assert serial.load(practice.State, first.state).attempts == []

    # /board in A shows A's game, in A
    calls = to_forum(await act(club, a, say(club, a, ALICE, "/board")))
    assert calls and all(thread(c) == a for c in calls) and "1234" not in "".join(c.text for c in calls)


async def test_general_of_a_forum_keeps_the_group_id_and_sends_without_a_thread(club: Club) -> None:
    (a,) = await topics(club, "1A2B")
    calls = to_forum(await act(club, None, say(club, None, ALICE, "/practice")))
    assert calls and all(thread(c) is None for c in calls)
    (row,) = await practice_rows(club)
    assert row.chat_id == str(FORUM.id)  # what a group stored before it had topics stays its own
    # a reply to the bot's message in General carries a reply thread's id, but is no topic's (#447)
    replied = calls[-1].result["message_id"]
    calls = to_forum(await act(club, None, say(club, None, ALICE, "1234", reply_to=replied)))
    assert calls and all(thread(c) is None for c in calls)
    (row,) = await practice_rows(club)
    assert len(serial.load(practice.State, row.state).attempts) == 1
    assert a  # the topic exists beside General


async def test_reply_in_a_supergroup_without_topics_stays_in_the_group(club: Club) -> None:
    group = Chat(id=-1009002, type="supergroup", title="Büro")
    standin = club.standin
    mark = standin.mark()
    standin.user_message(group, ALICE, "/practice")
    (start,) = await standin.wait_for(lambda c: c.ok and c.chat_id == group.id and c.method == "sendMessage",
                                      after=mark)
    mark = standin.mark()
    message = standin.user_message(group, ALICE, "1234", reply_to=start.result["message_id"])
    assert message["message_thread_id"] == start.result["message_id"] and "is_topic_message" not in message
    (answer,) = await standin.wait_for(lambda c: c.ok and c.chat_id == group.id and "1234" in c.text, after=mark)
    assert thread(answer) is None
    (row,) = await practice_rows(club)
    assert row.chat_id == str(group.id)
