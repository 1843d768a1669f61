"""End to end in a forum supergroup: each topic a table of its own, through the real PTB Application
polling the stand-in (tests/telegram/forum.py models the topics as the Bot API documents them), with
the real App on a real SQLite file."""

from __future__ import annotations

import sqlite3
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from adapters.telegram.deeplink import DeepLinks, key_for
from bot.games.registry import link_prefixes
from bot.texts.i18n import Catalogs
from core import serial
from core.games.practice import rules as practice
from core.messages import Text
from tests.telegram import forum
from tests.telegram.standin import StandIn
from tests.telegram.standin_calls import Call
from tests.telegram.standin_objects import Chat, User
from tests.telegram.test_e2e_app import ALICE, BOB, CAROL, Club, answers, game_of, is_help, start_private, with_button

pytestmark = pytest.mark.filterwarnings("ignore::telegram.warnings.PTBDeprecationWarning")

FORUM = Chat(id=-1009001, type="supergroup", title="Kegelclub", is_forum=True)
PNG = b"\x89PNG\r\n\x1a\n"


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


async def test_buttons_go_to_their_topic_and_a_press_from_another_topic_is_refused(club: Club) -> None:
    a, b = await topics(club, "1A2B", "Kegeln")
    await act(club, a, say(club, a, BOB, "hello"))  # the bot has seen Bob
    calls = to_forum(await act(club, a, say(club, a, ALICE, "/duel @bob_k 4")))
    challenge = with_button(calls, ":accept")
    assert thread(challenge) == a and challenge.result["message_thread_id"] == a
    game = game_of(challenge, ":accept")
    accept = next(str(x["callback_data"]) for x in challenge.buttons if str(x["callback_data"]).endswith(":accept"))

    # Bob presses that Accept on a message of topic B (a forged press: the data of A's button): refused
    (other,) = to_forum(await act(club, b, say(club, b, BOB, "/board")))  # "no game here", in B
    assert thread(other) == b
    calls = await act(club, b, lambda: club.standin.press(FORUM, BOB, other.result["message_id"], accept))
    (refused,) = answers(calls)
    assert refused.get("show_alert") is True
    assert refused.get("text") == Catalogs().render(Text("error.wrong_chat"), "en")
    assert not [c for c in to_forum(calls) if not is_help(c.text)]
    assert (await club.duel_state(game)).phase.name == "CHALLENGE"

    # pressed where it was posted, it counts, and the answer goes to topic A
    calls = await act(club, a, lambda: club.standin.press(FORUM, BOB, challenge.result["message_id"], accept))
    assert "text" not in answers(calls)[0]
    assert (await club.duel_state(game)).phase.name != "CHALLENGE"
    assert all(thread(c) == a for c in to_forum(calls) if c.method.startswith("send"))


async def test_pictures_files_and_edited_standings_stay_in_the_topic(club: Club) -> None:
    club.standin.admins[FORUM.id] = [ALICE]  # the group's admin: a club game, in its statistics (docs/club.md)
    (k,) = await topics(club, "Kegeln")
    calls = to_forum(await act(club, k, say(club, k, ALICE, "/kegeln high 2 Birgit Klaus")))
    assert calls and all(thread(c) == k for c in calls)
    standings = calls[-1].result["message_id"]
    calls = to_forum(await act(club, k, say(club, k, ALICE, "/wurf 7")))
    (edit,) = calls
    assert edit.method == "editMessageText" and edit.params["message_id"] == standings
    tens = next(str(x["callback_data"]) for x in edit.buttons if str(x["callback_data"]).endswith(":p1"))
    calls = to_forum(await act(club, k, lambda: club.standin.press(FORUM, ALICE, standings, tens)))
    assert [c.params["message_id"] for c in calls] == [standings]  # its place, edited in place
    for throw in ("9 E", "5", "3"):
        calls = to_forum(await act(club, k, say(club, k, ALICE, f"/wurf {throw}")))
        assert calls and all(thread(c) == k for c in calls if c.method.startswith("send"))
        assert all(c.params["message_id"] == standings for c in calls if c.method == "editMessageText")
    calls = to_forum(await act(club, k, say(club, k, ALICE, "/kegelstats")))
    (photo,) = [c for c in calls if c.method == "sendPhoto"]
    assert thread(photo) == k and photo.result["is_topic_message"] is True
    assert photo.files and next(iter(photo.files.values()))[1].startswith(PNG)
    calls = to_forum(await act(club, k, say(club, k, ALICE, "/kegelexport")))
    (document,) = [c for c in calls if c.method == "sendDocument"]
    assert thread(document) == k


async def test_a_closed_topic_ends_its_games_and_tells_their_players(club: Club) -> None:
    a, b = await topics(club, "1A2B", "Kegeln")
    await start_private(club, ALICE)
    club.standin.blocked.add(BOB.id)  # Bob never started the bot: he hears it in General
    await act(club, a, say(club, a, ALICE, "/practice"))
    await act(club, a, say(club, a, BOB, "/practice"))
    await act(club, b, say(club, b, ALICE, "/practice"))  # another topic's game goes on
    first, other = await practice_rows(club)
    standin = club.standin
    mark = standin.mark()
    forum.close_topic(standin, FORUM, ALICE, a)
    private, = await standin.wait_for(lambda c: c.ok and c.chat_id == ALICE.id, after=mark)
    general, = await standin.wait_for(lambda c: c.ok and c.chat_id == FORUM.id and "Bob" in c.text, after=mark)
    assert "closed" in private.text and "1A2B practice" in private.text and "Kegelclub › 1A2B" in private.text
    assert thread(general) is None and "closed" in general.text  # in General, not in the closed topic
    assert not [c for c in standin.calls[mark:] if thread(c) == a], "nothing more is sent into the closed topic"
    assert club.app is not None
    ended = [await club.app.store.get_game(r.id) for r in (first, other)]
    assert [g.over for g in ended if g is not None] == [True, False]
    bob = [r for r in await club.app.store.seated_games("telegram", str(BOB.id)) if r.kind == "practice"]
    assert not bob, "Bob's game in the closed topic has ended too"


async def test_a_deleted_topic_ends_its_games_when_telegram_refuses_a_send_there(club: Club) -> None:
    (b,) = await topics(club, "Duelle")
    await start_private(club, ALICE)
    await start_private(club, BOB)
    await act(club, b, say(club, b, BOB, "hello"))
    calls = to_forum(await act(club, b, say(club, b, ALICE, "/duel @bob_k 4")))
    challenge = with_button(calls, ":accept")
    game = game_of(challenge, ":accept")
    accept = next(str(x["callback_data"]) for x in challenge.buttons if str(x["callback_data"]).endswith(":accept"))
    await act(club, b, lambda: club.standin.press(FORUM, BOB, challenge.result["message_id"], accept))
    forum.delete_topic(club.standin, FORUM, b)  # Telegram tells the bot nothing

    # Alice sets her secret privately: the bot's word about it in the topic is refused, so the duel ends
    standin = club.standin
    mark = standin.mark()
    standin.user_message(Chat.private(ALICE), ALICE, "3907")
    await standin.wait_for(lambda c: c.status == 400 and thread(c) == b, after=mark)
    told = await standin.wait_for(lambda c: c.ok and c.chat_id in (ALICE.id, BOB.id) and "deleted" in c.text,
                                  after=mark, count=2)
    assert {c.chat_id for c in told} == {ALICE.id, BOB.id}
    assert all("1A2B duel" in c.text for c in told)
    assert (await club.duel_state(game)).phase.name == "FINISHED"


async def test_language_and_time_zone_are_the_groups_in_every_topic(club: Club) -> None:
    club.standin.admins[FORUM.id] = [ALICE]  # /timezone is for the group's admins
    a, b = await topics(club, "1A2B", "Kegeln")
    await act(club, a, say(club, a, ALICE, "/lang de"))
    calls = to_forum(await act(club, a, say(club, a, ALICE, "/timezone Europe/Berlin")))
    assert calls and "Zeitzone eingestellt" in calls[0].text, [c.text for c in calls]
    (shown,) = to_forum(await act(club, b, say(club, b, BOB, "/timezone")))
    assert thread(shown) == b and "Zeitzone dieses Chats: Europe/Berlin" in shown.text
    (shown,) = to_forum(await act(club, None, say(club, None, BOB, "/timezone")))  # General: the group itself
    assert thread(shown) is None and "Europe/Berlin" in shown.text


async def test_a_closed_general_ends_the_games_there_and_no_topics(club: Club) -> None:
    (a,) = await topics(club, "1A2B")
    await start_private(club, ALICE)
    await act(club, None, say(club, None, ALICE, "/practice"))
    await act(club, a, say(club, a, BOB, "/practice"))
    forum.close_general(club.standin, FORUM)
    standin = club.standin
    mark = standin.mark()
    standin.user_message(FORUM, ALICE, "1234")  # Alice may still write there (an admin): the answer is refused
    await standin.wait_for(lambda c: c.status == 400 and c.chat_id == FORUM.id, after=mark)
    (told,) = await standin.wait_for(lambda c: c.ok and c.chat_id == ALICE.id and "closed" in c.text, after=mark)
    assert "1A2B practice" in told.text
    assert club.app is not None
    rows = {r.chat_id: r for r in await club.app.store.seated_games("telegram", str(BOB.id))}
    assert list(rows) == [f"{FORUM.id}/{a}"], "Bob's game in the topic goes on"
    assert not [r for r in await club.app.store.seated_games("telegram", str(ALICE.id)) if r.kind == "practice"]


async def test_a_topics_daily_by_its_signed_link_and_its_result_in_the_topic(club: Club) -> None:
    (d,) = await topics(club, "Rätsel")
    standin = club.standin
    standin.blocked.add(BOB.id)  # Bob never started the bot: he comes by the topic's deep link
    standin.join(FORUM, BOB)
    calls = to_forum(await act(club, d, say(club, d, ALICE, "/daily")))
    (url,) = [b["url"] for c in calls for b in c.buttons if "url" in b]
    assert all(thread(c) == d for c in calls)
    token = url.split("start=", 1)[1]
    assert DeepLinks(key_for(standin.token), link_prefixes()).decode(token) == f"daily:{FORUM.id}/{d}:1a2b"
    with sqlite3.connect(club.db_path) as conn:
        (secret,), = conn.execute("SELECT secret FROM daily_puzzles WHERE chat_id = ?", (f"{FORUM.id}/{d}",))
    mark = standin.mark()
    standin.user_message(Chat.private(BOB), BOB, f"/start {token}")  # a member of the group: he plays
    await standin.wait_for(lambda c: c.ok and c.chat_id == BOB.id and "Today's 1A2B daily" in c.text, after=mark)
    mark = standin.mark()
    standin.user_message(Chat.private(BOB), BOB, str(secret))
    (result,) = await standin.wait_for(lambda c: c.ok and c.chat_id == FORUM.id and "Bob solved" in c.text,
                                       after=mark)
    assert thread(result) == d and str(secret) not in result.text


async def test_privacy_mode_is_the_groups_in_each_of_its_topics(standin: StandIn, tmp_path: Path) -> None:
    """Under privacy mode (known from getMe at start) a plain guess typed in a topic never arrives
    either: the topic's game is started with "/guess 1234", and /guess is answered in the topic."""
    standin.privacy = True
    club = Club(standin, tmp_path / "forum.sqlite")
    await club.start()
    try:
        (a,) = await topics(club, "1A2B")
        calls = to_forum(await act(club, a, say(club, a, ALICE, "/practice")))
        (started,) = [c for c in calls if c.method == "sendMessage" and not is_help(c.text)]
        assert thread(started) == a and "/guess 1234" in started.text
        standin.user_message(FORUM, ALICE, "1234", topic=a)
        assert standin.unheard[-1]["text"] == "1234"
        calls = to_forum(await act(club, a, say(club, a, ALICE, "/guess 5678")))
        assert any("5678" in c.text for c in calls) and all(thread(c) == a for c in calls)
    finally:
        await club.stop()
