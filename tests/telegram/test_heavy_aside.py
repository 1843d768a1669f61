"""Heavy work off the path that orders a topic's updates (issue 35): while the solver thinks about an
/analyse or a /hint, the next update of the same forum topic is answered at once; the /analyse answer
is still about the game as it was when asked, and a /hint still about the position it is shown for.

The real App on a SQLite file behind the real PTB Application polling the stand-in; the solver runs
for real, in threads of an executor held shut until the test opens it (tests/solver/test_thinking.py
`Recording`), so "thinking for seconds" is as long as the test needs, on any machine."""

from __future__ import annotations

from collections.abc import Callable

import pytest

from bot.solver.thinking import Thinker
from core import serial
from core.games.practice import rules as practice
from tests.solver.test_app import _set_secret
from tests.solver.test_thinking import Recording, until
from tests.telegram import forum
from tests.telegram.standin_calls import Call
from tests.telegram.standin_objects import Chat
from tests.telegram.test_e2e_app import ALICE, BOB, Club
from tests.telegram.test_e2e_topics import FORUM, act, practice_rows, say, thread

pytestmark = pytest.mark.filterwarnings("ignore::telegram.warnings.PTBDeprecationWarning")


def in_topic(topic: int, *words: str) -> Callable[[Call], bool]:
    return lambda c: (c.ok and c.method == "sendMessage" and c.chat_id == FORUM.id and thread(c) == topic
                      and all(w in c.text for w in words))


async def finished_practice(club: Club, topic: int, secret: str, guesses: list[str]) -> None:
    """Alice plays a 4-digit practice game in `topic` with a known secret, and gives up."""
    await act(club, topic, say(club, topic, ALICE, "/practice 4"))
    (row,) = [r for r in await practice_rows(club) if not r.over]
    assert club.app is not None
    await club.app.store.run(_set_secret(row.id, secret))
    for code in guesses:
        await act(club, topic, say(club, topic, ALICE, code))
    await act(club, topic, say(club, topic, ALICE, "/giveup"))


async def held_thinker(club: Club) -> Recording:
    assert club.app is not None
    rec = Recording()
    rec.gate.clear()
    club.app.thinker = Thinker(executor=rec)
    return rec


async def test_a_guess_after_an_analyse_in_the_same_topic_is_not_kept_waiting(club: Club) -> None:
    standin = club.standin
    topic = forum.create_topic(standin, FORUM, ALICE, "1A2B")
    await finished_practice(club, topic, "1234", ["1243", "5678"])
    await act(club, topic, say(club, topic, BOB, "/practice 4"))
    rec = await held_thinker(club)
    try:
        mark = standin.mark()
        standin.user_message(FORUM, ALICE, "/analyse", topic=topic)
        await until(lambda: len(rec.submitted) == 1)  # the solver is thinking (held)
        # Bob guesses in the same topic, and Alice starts and plays a new game there too
        standin.user_message(FORUM, BOB, "9876", topic=topic)
        await standin.wait_for(in_topic(topic, "9876"), timeout=5, after=mark)
        standin.user_message(FORUM, ALICE, "/practice 4", topic=topic)
        standin.user_message(FORUM, ALICE, "1029", topic=topic)
        await standin.wait_for(in_topic(topic, "1029"), timeout=5, after=mark)
        assert not [c for c in standin.calls[mark:] if c.ok and "#1 1243" in c.text]  # still thinking
    finally:
        rec.gate.set()
    (analysis,) = await standin.wait_for(in_topic(topic, "#1 1243"), timeout=10, after=mark)
    # about the game that was Alice's last finished one when she asked, not the one begun since
    assert "#2 5678" in analysis.text and "1029" not in analysis.text
    assert len(rec.submitted) == 1
    rec.shutdown()


async def hint_thinking(club: Club, rec: Recording) -> tuple[int, int, int]:
    """Alice's practice game in a new topic, and her /hint whose thinking `rec` holds: the topic, the
    call mark before the /hint, its message id."""
    standin = club.standin
    topic = forum.create_topic(standin, FORUM, ALICE, "1A2B")
    await act(club, topic, say(club, topic, ALICE, "/practice 4"))
    club.app.thinker = Thinker(executor=rec)  # type: ignore[union-attr]
    mark = standin.mark()
    sent = standin.user_message(FORUM, ALICE, "/hint", topic=topic)
    await until(lambda: len(rec.submitted) == 1)
    return topic, mark, int(sent["message_id"])


async def test_a_guess_after_a_hint_is_answered_and_the_hint_is_for_the_position_it_follows(club: Club) -> None:
    standin = club.standin
    rec = Recording()
    rec.gate.clear()
    try:
        topic, mark, _ = await hint_thinking(club, rec)
        standin.user_message(FORUM, ALICE, "0123", topic=topic)
        (answer,) = await standin.wait_for(in_topic(topic, "0123"), timeout=5, after=mark)
        assert "possible" not in answer.text
    finally:
        rec.gate.set()
    # the guess came first: the hint thought for the empty board is thought again after 0123
    hint: list[Call] = await standin.wait_for(in_topic(topic, "possible"), timeout=10, after=mark)
    (row,) = await practice_rows(club)
    state = serial.load(practice.State, row.state)
    assert [a.code for a in state.attempts] == ["0123"] and state.assisted
    assert len(rec.submitted) == 2 and str(rec.submitted[-1][-1].attempts[0].code) == "0123"
    assert hint and standin.calls.index(hint[0]) > standin.calls.index(answer)
    rec.shutdown()


async def test_a_private_analyse_lets_the_next_private_message_through(club: Club) -> None:
    standin = club.standin
    private = Chat.private(ALICE)
    for text in ("/start", "/practice 4"):
        mark = standin.mark()
        standin.user_message(private, ALICE, text)
        await standin.wait_sent(ALICE.id, timeout=5, after=mark)
    (row,) = await practice_rows(club)
    assert club.app is not None
    await club.app.store.run(_set_secret(row.id, "1234"))
    for text in ("5678", "/giveup"):
        mark = standin.mark()
        standin.user_message(private, ALICE, text)
        await standin.wait_sent(ALICE.id, timeout=5, after=mark)
    rec = await held_thinker(club)
    try:
        mark = standin.mark()
        standin.user_message(private, ALICE, "/analyse")
        await until(lambda: len(rec.submitted) == 1)
        standin.user_message(private, ALICE, "/help")
        await standin.wait_sent(ALICE.id, "/practice", timeout=5, after=mark)
    finally:
        rec.gate.set()
    await standin.wait_sent(ALICE.id, "#1 5678", timeout=10, after=mark)
    rec.shutdown()


async def test_an_edit_of_a_hint_still_thinking_is_not_carried_out_again(club: Club) -> None:
    """The edit comes while the /hint that stepped aside still thinks (not yet marked as carried out):
    it is answered with the note, never run a second time (bot/app/edits.py)."""
    standin = club.standin
    rec = Recording()
    rec.gate.clear()
    try:
        topic, mark, message_id = await hint_thinking(club, rec)
        standin.user_edit(FORUM, ALICE, message_id, "/hint please")
        await standin.wait_for(in_topic(topic, "carried out already"), timeout=5, after=mark)
    finally:
        rec.gate.set()
    await standin.wait_for(in_topic(topic, "possible"), timeout=10, after=mark)
    await act(club, topic, say(club, topic, ALICE, "/board"))
    assert len([c for c in standin.calls[mark:] if c.ok and "possible" in c.text]) == 1
    assert len(rec.submitted) == 1
    rec.shutdown()
