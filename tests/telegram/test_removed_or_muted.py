"""The bot removed from a group or muted there (issue 35), against the stand-in's model of it
(tests/telegram/standin_membership.py: `my_chat_member`, the 403 and 400 answers, a hidden General): the
group's games — in General and in every forum topic — end as abandoned ones, each player is told
privately, and nothing more is sent into the group; muted without a word, the first refused send tells
the bot the same. An anonymous admin's "slow down" is said in the topic it wrote in.
The real PTB adapter, the real App on a real SQLite file."""

from __future__ import annotations

import asyncio
import time

import pytest

from bot.process.ratelimit import RateLimiter
from core.messages import Chat as NeutralChat
from core.messages import Outbound
from tests.telegram import forum
from tests.telegram import standin_membership as membership
from tests.telegram.standin import StandIn
from tests.telegram.standin_calls import Call
from tests.telegram.standin_objects import Chat, User
from tests.telegram.test_e2e_app import ALICE, BOB, CAROL, GROUP, Club, challenge_and_accept, start_private
from tests.telegram.test_e2e_topics import FORUM, act

pytestmark = pytest.mark.filterwarnings("ignore::telegram.warnings.PTBDeprecationWarning")

DAVE = User(id=4505, first_name="Dave", language_code="en")  # never started the bot


def into(standin: StandIn, chat: Chat, after: int) -> list[Call]:
    """Every call the bot made into `chat` (any topic) since `after`, refused ones too."""
    return [c for c in standin.calls[after:] if c.chat_id == chat.id and c.method != "getUpdates"]


async def told(standin: StandIn, who: User, words: str, after: int) -> Call:
    (call,) = await standin.wait_for(lambda c: c.ok and c.chat_id == who.id and words in c.text, after=after)
    return call


async def over(club: Club, game: int) -> bool:
    assert club.app is not None
    row = await club.app.store.get_game(game)
    return row is not None and row.over


async def late_message(club: Club, chat: Chat) -> None:
    """A message no update asked for (a timeout, a morning post) into the group: it must not be sent."""
    assert club.adapter is not None
    await club.adapter.send([Outbound(to=NeutralChat("telegram", str(chat.id), False), text="late")])
    await asyncio.sleep(0.2)


@pytest.mark.parametrize("status", ["kicked", "left"])
async def test_a_removed_bot_ends_the_groups_games_and_sends_nothing_more_there(
    standin: StandIn, club: Club, status: str
) -> None:
    for who in (ALICE, BOB):
        await start_private(club, who)
    game, _ = await challenge_and_accept(club)
    mark = standin.mark()
    membership.remove_bot(standin, GROUP, CAROL, status)
    for who in (ALICE, BOB):
        await told(standin, who, "I was removed from the group", mark)
    assert await over(club, game)
    await late_message(club, GROUP)
    standin.user_message(GROUP, ALICE, "/help")  # the group's messages no longer reach the bot
    await asyncio.sleep(0.2)
    assert into(standin, GROUP, mark) == []


async def test_removed_from_a_forum_the_games_of_every_topic_end(standin: StandIn, club: Club) -> None:
    await start_private(club, ALICE)
    topic = forum.create_topic(standin, FORUM, ALICE, "1A2B")
    await act(club, topic, lambda: standin.user_message(FORUM, ALICE, "/practice", topic=topic))
    await act(club, None, lambda: standin.user_message(FORUM, ALICE, "/practice"))
    assert club.app is not None
    games = [r.id for r in await club.app.store.seated_games("telegram", str(ALICE.id))]
    assert len(games) == 2
    mark = standin.mark()
    membership.remove_bot(standin, FORUM, CAROL)
    await standin.wait_for(lambda c: c.ok and c.chat_id == ALICE.id and "removed" in c.text, after=mark, count=2)
    assert [await over(club, g) for g in games] == [True, True]
    assert into(standin, FORUM, mark) == []


async def test_a_muted_bot_ends_the_groups_games_as_when_removed(standin: StandIn, club: Club) -> None:
    for who in (ALICE, BOB):
        await start_private(club, who)
    game, _ = await challenge_and_accept(club)
    mark = standin.mark()
    membership.mute_bot(standin, GROUP, CAROL)
    for who in (ALICE, BOB):
        await told(standin, who, "I may no longer write in the group", mark)
    assert await over(club, game)
    await late_message(club, GROUP)
    assert into(standin, GROUP, mark) == []


async def test_muted_without_a_word_the_first_refused_send_tells_the_bot(standin: StandIn, club: Club) -> None:
    for who in (ALICE, BOB):
        await start_private(club, who)
    game, _ = await challenge_and_accept(club)
    membership.mute_bot(standin, GROUP, CAROL, tell=False)
    mark = standin.mark()
    standin.user_message(GROUP, BOB, "/help")
    for who in (ALICE, BOB):
        await told(standin, who, "I may no longer write in the group", mark)
    assert await over(club, game)
    refused = into(standin, GROUP, mark)
    assert [c.status for c in refused] == [400]  # the one refusal, then silence
    standin.user_message(GROUP, BOB, "/help")
    await late_message(club, GROUP)
    assert into(standin, GROUP, mark) == refused


async def test_a_hidden_general_is_closed_its_games_end_and_nothing_is_told_there(
    standin: StandIn, club: Club
) -> None:
    await start_private(club, ALICE)
    await act(club, None, lambda: standin.user_message(FORUM, ALICE, "/practice"))
    await act(club, None, lambda: standin.user_message(FORUM, DAVE, "/practice"))
    assert club.app is not None
    games = [r.id for r in await club.app.store.chat_games("telegram", str(FORUM.id))]
    assert len(games) == 2
    mark = standin.mark()
    membership.hide_general(standin, FORUM, CAROL)
    await told(standin, ALICE, "has been closed", mark)
    await asyncio.sleep(0.3)
    assert [await over(club, g) for g in games] == [True, True]
    general = [c for c in into(standin, FORUM, mark) if c.params.get("message_thread_id") is None]
    assert general == []  # Dave, who cannot be told privately, is not told in the closed General either


async def test_an_anonymous_admins_slow_down_lands_in_its_topic(standin: StandIn, club: Club) -> None:
    standin.admins[FORUM.id] = [ALICE]  # only an admin may post as the group
    topic = forum.create_topic(standin, FORUM, ALICE, "Kegeln")
    await act(club, topic, lambda: None)
    assert club.app is not None
    club.app.limiter = RateLimiter(0.001, 2, time.monotonic)
    mark = standin.mark()
    for _ in range(3):
        standin.user_message(FORUM, ALICE, "/help", topic=topic, as_chat=FORUM)
    (notice,) = await standin.wait_for(lambda c: c.ok and "Slow down" in c.text, after=mark)
    assert notice.chat_id == FORUM.id and notice.params.get("message_thread_id") == topic


async def test_added_again_the_bot_plays_there_again(standin: StandIn, club: Club) -> None:
    await start_private(club, ALICE)
    mark = standin.mark()
    membership.remove_bot(standin, GROUP, CAROL)
    await asyncio.sleep(0.3)
    membership.add_bot(standin, GROUP, CAROL)
    calls = await club.act(club.say(GROUP, ALICE, "/practice"))
    assert [c for c in calls if c.ok and c.chat_id == GROUP.id], "it answers in the group again"
    assert all(c.ok for c in into(standin, GROUP, mark))
