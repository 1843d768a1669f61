"""Opponents named as Telegram names them (issue 35): `/duel @bob` names Bob as the challenger typed him
(a `mention` entity is only the text "@username", https://core.telegram.org/bots/api#messageentity),
`/duel Dana` picked from the client's list by the `text_mention` entity's user (it "carries the user":
her first name) — never a bare id, and never a name the bot stored from another chat. In a group and in
a forum topic. The real PTB adapter against the stand-in, the real App on a real SQLite file."""

from __future__ import annotations

from typing import Any

import pytest

from tests.telegram import forum
from tests.telegram.standin import StandIn
from tests.telegram.standin_calls import Call
from tests.telegram.standin_objects import Chat, User, text_mention
from tests.telegram.test_e2e_app import ALICE, BOB, GROUP, Club, Deed, is_help
from tests.telegram.test_e2e_topics import FORUM, act

pytestmark = pytest.mark.filterwarnings("ignore::telegram.warnings.PTBDeprecationWarning")

ELSEWHERE = Chat(id=-100901, type="group", title="Another club")
DANA = User(id=7001002, first_name="Dana", language_code="en")  # no username: picked from the list


def challenge(calls: list[Call], chat: Chat) -> str:
    texts = [c.text for c in calls if c.ok and c.chat_id == chat.id and c.buttons and not is_help(c.text)]
    assert texts, [c.text for c in calls]
    return texts[0]


async def test_a_typed_username_and_a_picked_user_are_named_as_in_the_message(standin: StandIn, club: Club) -> None:
    # the bot has met both elsewhere: Bob by his @username, Dana by name
    await club.act(club.say(ELSEWHERE, BOB, "hello"))
    await club.act(club.say(ELSEWHERE, DANA, "hi"))
    topic = forum.create_topic(standin, FORUM, ALICE, "Duels")
    await act(club, topic, lambda: None)
    for chat, where in ((GROUP, None), (FORUM, topic)):
        shown = challenge(await said(club, chat, where, "/duel @bob_k 4"), chat)
        assert "@bob_k" in shown and str(BOB.id) not in shown, shown
        await said(club, chat, where, "/cancel")
        text = "/duel Dana 4"
        shown = challenge(await said(club, chat, where, text, [text_mention(text, "Dana", DANA)]), chat)
        assert "Dana" in shown and str(DANA.id) not in shown, shown
        await said(club, chat, where, "/cancel")


async def said(club: Club, chat: Chat, where: int | None, text: str,
               entities: list[dict[str, Any]] | None = None) -> list[Call]:
    """Alice writes `text` in `chat` (in its topic `where`); the bot's calls in answer."""
    def send() -> None:
        club.standin.user_message(chat, ALICE, text, entities=entities, topic=where)

    return await (club.act(Deed(chat, ALICE, send)) if where is None else act(club, where, send))
