"""The daily puzzle end to end on Telegram (docs/daily.md): the real PTB Application polling the
strict stand-in Bot API, the real App on a real SQLite file. Three players play the group's code
privately — one by the group's signed deep link — two solve on different attempt counts, one
fails; the group sees only spoiler-free results; after a restart nobody gets a second try. And the
cheats: another chat's link, forged or foreign payloads, another player's link, `/daily` twice, a
guess typed in the group."""

from __future__ import annotations

import itertools
import re
import sqlite3

import pytest

from adapters.telegram.deeplink import DeepLinks, key_for
from bot.games.registry import link_prefixes
from tests.telegram.standin import StandIn
from tests.telegram.standin_calls import Call
from tests.telegram.standin_objects import Chat, User
from tests.telegram.test_e2e_app import ALICE, BOB, GROUP, Club, sent

pytestmark = pytest.mark.filterwarnings("ignore::telegram.warnings.PTBDeprecationWarning")

DAVE = User(id=4404, first_name="Dave", username="dave_k", language_code="en")
OTHER = Chat(id=-100777, type="group", title="Other club")


def secret_of(club: Club, chat: Chat = GROUP) -> str:
    with sqlite3.connect(club.db_path) as conn:
        (secret,), = conn.execute("SELECT secret FROM daily_puzzles WHERE chat_id = ?", (str(chat.id),)).fetchall()
    return str(secret)


def link_of(calls: list[Call], chat: Chat = GROUP) -> str:
    """The /start payload of the daily's play button in the group."""
    urls = [b["url"] for c in sent(calls, chat.id) for b in c.buttons if "url" in b]
    (url,) = urls
    return str(url).split("start=", 1)[1]


def wrong_codes(secret: str) -> list[str]:
    return ["".join(p) for p in itertools.permutations("0123456789", 4)
            if "".join(p) != secret and p[0] != secret[0]]


def group_text(calls: list[Call], chat: Chat = GROUP) -> str:
    return "\n".join(c.everything() for c in sent(calls, chat.id))


async def test_three_players_deep_link_spoiler_free_results_and_no_second_try_after_restart(
    standin: StandIn, club: Club
) -> None:
    await club.act(club.say(Chat.private(ALICE), ALICE, "/start"))
    await club.act(club.say(Chat.private(DAVE), DAVE, "/start"))
    standin.blocked.add(BOB.id)  # Bob never started the bot: he comes by the group's deep link
    standin.join(GROUP, BOB)  # a member of the group who has not written there

    calls = await club.act(club.say(GROUP, ALICE, "/daily"))
    assert any("Today's 1A2B daily" in c.text for c in sent(calls, ALICE.id))
    token = link_of(calls)
    assert DeepLinks(key_for(standin.token), link_prefixes()).decode(token) == f"daily:{GROUP.id}:1a2b"
    secret = secret_of(club)
    wrong = wrong_codes(secret)
    everything: list[Call] = list(calls)

    # Alice: solved on her second attempt, privately
    everything += await club.act(club.say(Chat.private(ALICE), ALICE, wrong[0]))
    calls = await club.act(club.say(Chat.private(ALICE), ALICE, secret))
    everything += calls
    assert any(f"Solved in 2 attempts: {secret}" in c.text for c in sent(calls, ALICE.id))
    (result,) = [c for c in sent(calls, GROUP.id) if "solved the 1A2B daily" in c.text]
    assert re.search(r"Alice solved the 1A2B daily of \w{3} \d+, \d{4}: 2/10\n.+\n🟩🟩🟩🟩$", result.text)

    # Bob follows the link from the group: his attempt starts in the private chat
    calls = await club.act(club.say(Chat.private(BOB), BOB, f"/start {token}"))
    everything += calls
    assert any("Today's 1A2B daily" in c.text for c in sent(calls, BOB.id))
    for code in wrong[1:5]:
        everything += await club.act(club.say(Chat.private(BOB), BOB, code))
    calls = await club.act(club.say(Chat.private(BOB), BOB, secret))
    everything += calls
    assert any("Bob solved the 1A2B daily" in c.text and ": 5/10" in c.text for c in sent(calls, GROUP.id))

    # Dave starts in the group, types a guess there by mistake (deleted, not counted), then fails
    club.standin.promote_bot(GROUP)  # an admin with "Delete messages" (the bot deletes it)
    everything += await club.act(club.say(GROUP, DAVE, "/daily"))
    calls = await club.act(club.say(GROUP, DAVE, wrong[5]))
    everything += calls
    assert any(c.method == "deleteMessage" for c in calls)
    assert "played privately" in group_text(calls)
    for code in wrong[6:15]:
        everything += await club.act(club.say(Chat.private(DAVE), DAVE, code))
    calls = await club.act(club.say(Chat.private(DAVE), DAVE, wrong[15]))
    everything += calls
    assert any(f"was {secret}" in c.text for c in sent(calls, DAVE.id))
    assert any("Dave did not solve the 1A2B daily" in c.text and "X/10" in c.text for c in sent(calls, GROUP.id))

    # a restart: no second try, by command or by the link, in the group or privately
    await club.restart()
    calls = await club.act(club.say(GROUP, ALICE, "/daily"))
    everything += calls
    assert "You have already played today's 1A2B daily: solved in 2 attempts" in group_text(calls)
    calls = await club.act(club.say(Chat.private(BOB), BOB, f"/start {token}"))
    assert any("already played today's 1A2B daily" in c.text and "solved in 5 attempts" in c.text
               for c in sent(calls, BOB.id))
    calls = await club.act(club.say(Chat.private(DAVE), DAVE, secret))
    assert any("No game is waiting" in c.text for c in sent(calls, DAVE.id))
    assert secret_of(club) == secret
    calls = await club.act(club.say(GROUP, DAVE, "/daily board"))
    everything += calls
    board = group_text(calls)
    assert board.index("Alice — solved in 2") < board.index("Bob — solved in 5") < board.index("Dave — not solved")

    # the group never saw the code: not in a text, a button or a link
    for call in sent(everything, GROUP.id):
        assert not re.search(rf"(?<!\d){secret}(?!\d)", call.everything()), (call.method, call.text)


async def test_cheats_other_chats_link_forged_payloads_anothers_link_and_a_second_daily(
    standin: StandIn, club: Club
) -> None:
    await club.act(club.say(Chat.private(ALICE), ALICE, "/start"))
    await club.act(club.say(Chat.private(BOB), BOB, "/start"))
    here = link_of(await club.act(club.say(GROUP, ALICE, "/daily")))
    there = link_of(await club.act(club.say(OTHER, BOB, "/daily")), OTHER)
    assert secret_of(club, GROUP) != secret_of(club, OTHER)  # each chat draws its own code

    # forged payloads: another chat's id under this chat's MAC, another puzzle, another bot's key,
    # the other link's MAC on this chat: each is a plain /start (the welcome), never a daily
    links = DeepLinks(key_for(standin.token), link_prefixes())
    forged = [here.replace(str(GROUP.id), str(OTHER.id)), here.replace("1a2b", "logik"),
              DeepLinks(key_for("999:another-bot"), link_prefixes()).encode(f"daily:{GROUP.id}:1a2b") or "",
              f"d_{GROUP.id}_1a2b_" + there.rsplit("_", 1)[1]]
    for payload in forged:
        assert links.decode(payload) is None
        calls = await club.act(club.say(Chat.private(DAVE), DAVE, f"/start {payload}"))
        (welcome,) = sent(calls, DAVE.id)
        assert "/help" in welcome.text and "daily" not in welcome.text.lower().split("/help")[0]

    # Alice's running attempt cannot be entered through a link to her game by anyone else
    with sqlite3.connect(club.db_path) as conn:
        (game,), = conn.execute("SELECT game_id FROM daily_plays WHERE user_id = ?", (str(ALICE.id),)).fetchall()
    secret_link = links.encode(f"g:{game}:secret")
    calls = await club.act(club.say(Chat.private(DAVE), DAVE, f"/start {secret_link}"))
    assert not any("Your 1A2B daily" in c.text for c in sent(calls, DAVE.id))

    # another chat's (valid) link, followed by someone who is not in that chat: refused
    calls = await club.act(club.say(Chat.private(ALICE), ALICE, f"/start {there}"))
    assert any("not a member of that group" in c.text for c in sent(calls, ALICE.id))

    # /daily twice: the second shows the running attempt again, it never starts another
    calls = await club.act(club.say(GROUP, ALICE, "/daily"))
    assert any("Your 1A2B daily" in c.text for c in sent(calls, ALICE.id))
    assert "still running" in group_text(calls)
    with sqlite3.connect(club.db_path) as conn:
        (n,), = conn.execute("SELECT COUNT(*) FROM daily_plays WHERE user_id = ? AND chat_id = ?",
                             (str(ALICE.id), str(GROUP.id))).fetchall()
    assert n == 1

    # a guess typed in the group goes nowhere and is deleted (the bot is an admin with the right)
    club.standin.promote_bot(GROUP)
    wrong = wrong_codes(secret_of(club))[0]
    calls = await club.act(club.say(GROUP, ALICE, wrong))
    assert any(c.method == "deleteMessage" for c in calls)
    with sqlite3.connect(club.db_path) as conn:
        (state,), = conn.execute("SELECT state FROM games WHERE id = ?", (game,)).fetchall()
    assert '"rows": []' in state


async def test_a_forwarded_link_plays_only_for_members_of_its_chat(standin: StandIn, club: Club) -> None:
    """Someone outside the chat who gets its deep link forwarded cannot play its puzzle nor appear on
    its board: the adapter asks Telegram (`getChatMember`, cached), the App refuses a non-member."""
    for user in (ALICE, BOB, DAVE):
        await club.act(club.say(Chat.private(user), user, "/start"))
    token = link_of(await club.act(club.say(GROUP, ALICE, "/daily")))

    # Dave was never in the group: refused, with the reason, twice (asked once: the answer is cached)
    for _ in range(2):
        calls = await club.act(club.say(Chat.private(DAVE), DAVE, f"/start {token}"))
        (refusal,) = sent(calls, DAVE.id)
        assert "not a member of that group" in refusal.text and "Today's" not in refusal.text
    asked = [c for c in standin.calls if c.method == "getChatMember" and c.params.get("user_id") == DAVE.id]
    assert len(asked) == 1 and asked[0].params["chat_id"] == GROUP.id

    # Bob is a member: he plays; then he is banned, and his link no longer resumes the attempt
    standin.join(GROUP, BOB)
    calls = await club.act(club.say(Chat.private(BOB), BOB, f"/start {token}"))
    assert any("Today's 1A2B daily" in c.text for c in sent(calls, BOB.id))
    standin.leave(GROUP, BOB, banned=True)
    calls = await club.act(club.say(Chat.private(BOB), BOB, f"/start {token}"))
    assert any("not a member of that group" in c.text for c in sent(calls, BOB.id))

    with sqlite3.connect(club.db_path) as conn:
        players = {u for (u,) in conn.execute("SELECT user_id FROM daily_plays").fetchall()}
    assert players == {str(ALICE.id), str(BOB.id)}
    calls = await club.act(club.say(GROUP, ALICE, "/daily board"))
    assert "Dave" not in group_text(calls)


async def test_private_messages_name_the_group_by_its_title_to_its_members_only(
    standin: StandIn, club: Club
) -> None:
    """Telegram sends a group's title with each of its messages: Alice's private start says which
    group's daily it is, a code she types privately is asked back by group, and a hostile title
    (bidi override, zero-width space, 120 characters) is cleaned and cut. Bob, who has only followed
    the club's link, sees its title only because Telegram says he is a member; no title reaches
    another group."""
    hostile = Chat(id=-100999, type="supergroup", title="\u202eBüro\u200b " + "y" * 120)
    for user in (ALICE, BOB):
        await club.act(club.say(Chat.private(user), user, "/start"))
    everything = await club.act(club.say(GROUP, ALICE, "/daily"))
    assert any("Today's 1A2B daily of Kegelclub (" in c.text for c in sent(everything, ALICE.id))
    token = link_of(everything)
    calls = await club.act(club.say(OTHER, ALICE, "/daily"))
    everything += calls
    assert any("Today's 1A2B daily of Other club (" in c.text for c in sent(calls, ALICE.id))
    calls = await club.act(club.say(hostile, ALICE, "/daily"))
    everything += calls
    (start,) = [c for c in sent(calls, ALICE.id) if "Today's" in c.text]
    assert "Today's 1A2B daily of Büro yyy" in start.text and "y" * 40 not in start.text and "…" in start.text
    assert "\u202e" not in start.text and "\u200b" not in start.text

    calls = await club.act(club.say(Chat.private(ALICE), ALICE, "0123"))  # three dailies wait: which one?
    labels = [str(b["text"]) for c in sent(calls, ALICE.id) for b in c.buttons]
    assert [label.split(",")[0] for label in labels] == [
        "🗓 1A2B daily of Kegelclub", "🗓 1A2B daily of Other club",
        "🗓 1A2B daily of Büro " + "y" * 34 + "…"]  # the title cut to 40 characters

    standin.join(GROUP, BOB)  # a member who has never written there: Telegram vouches for him
    calls = await club.act(club.say(Chat.private(BOB), BOB, f"/start {token}"))
    assert any("Today's 1A2B daily of Kegelclub (" in c.text for c in sent(calls, BOB.id))
    for chat, others in ((GROUP, ("Other club", "Büro")), (OTHER, ("Kegelclub", "Büro")),
                         (hostile, ("Kegelclub", "Other club"))):
        assert not any(t in group_text(everything, chat) for t in others)
