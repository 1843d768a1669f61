"""Issue 35's Telegram cases through a third-party Bot API emulator (npm `telegram-test-api` 4.2.1,
tests/telegram/emulator/; tests/telegram/tta.py runs it): the real App behind the real PTB adapter.

What the emulator itself does here: it takes the users' messages and button presses on its client routes
exactly as written (entities, `text_mention` users, chats), hands them to the bot by getUpdates, stores the
bot's sendMessage / editMessageText / editMessageReplyMarkup / answerCallbackQuery / deleteMessage.

What it lacks, modelled in front of it by tests/telegram/emulator/server.js as the Bot API documents it:
- getMe without `is_bot` (PTB cannot read it) and without the privacy flag: answered as a bot in privacy mode;
- sendMessage answered with the date in milliseconds, every chat as private, no sender: corrected;
  editMessageText / editMessageReplyMarkup answered with null: the edited message is returned;
- no long polling (getUpdates answers at once: a polling bot would spin): it waits up to `timeout`; no
  `offset` (each update handed out once, confirmed or not): kept until an offset confirms it;
- callback queries without `chat_instance` (PTB cannot read them): added;
- only `message` and `callback_query` updates: `edited_message` (and any other update) is stored as given
  and handed out by the emulator's own getUpdates;
- no setMyCommands, getMyCommands, getWebhookInfo, getChatAdministrators (a list the test sets);
- no refusals at all (any chat, any topic, any rights, any keyboard: the fixture holds the bot's keyboards
  to Telegram's 100 buttons and 8 a row): a refused chat (the bot removed: 403) is modelled;
- no slow answers: `/_emul/slow` makes a chat's (a topic's) sends take that long, as a large upload does;
- not modelled, so not proven here: getChatMember (the adapter takes its 500 as "not known"), sendPhoto and
  sendDocument (multipart), forum topics' rules (a `message_thread_id` is stored as sent, nothing checked),
  privacy mode's filtering (the emulator delivers every message), flood limits and 429s, webhooks' secret.
Those are proven on the project's stand-ins (tests/telegram/standin*.py, forum.py)."""

from __future__ import annotations

import asyncio
import functools
from collections.abc import AsyncIterator, Callable
from pathlib import Path

import pytest

from core.messages import Chat as NeutralChat
from core.messages import Outbound
from tests.telegram import botapi_rules as rules
from tests.telegram.standin_objects import Chat, User, text_mention
from tests.telegram.tta import BOT_USERNAME, Bot, Emulator, Said, bot_at, running

pytestmark = pytest.mark.filterwarnings("ignore::telegram.warnings.PTBDeprecationWarning")

GROUP = Chat(id=-100777, type="supergroup", title="Kegelclub")
ELSEWHERE = Chat(id=-100778, type="supergroup", title="Another club")
ALICE = User(id=5101, first_name="Alice", username="alice_k", language_code="en")
BOB = User(id=5202, first_name="Bob", username="bob_k", language_code="en")
CAROL = User(id=5303, first_name="Carol", language_code="en")  # only sends the /help that syncs
SENDS = {"sendMessage", "sendPhoto", "sendDocument", "editMessageText", "editMessageReplyMarkup", "deleteMessage"}
DANA = User(id=5404, first_name="Dana", language_code="en")  # no username: picked from the client's list


@pytest.fixture
async def emulator() -> AsyncIterator[Emulator]:
    async with running() as emulator:
        yield emulator


@pytest.fixture
async def bot(emulator: Emulator, tmp_path: Path) -> AsyncIterator[Bot]:
    async with bot_at(emulator, tmp_path / "emulated.sqlite") as bot:
        yield bot
    # the emulator takes any keyboard: held here to Telegram's (tests/telegram/botapi_rules.py)
    for call in await emulator.calls():
        rows = call.rows
        assert sum(map(len, rows)) <= rules.MAX_BUTTONS and all(len(r) <= rules.MAX_ROW_BUTTONS for r in rows), rows


def texts(calls: list[Said], chat: Chat) -> str:
    return "\n".join(c.text for c in calls if c.ok and c.chat_id == chat.id and c.text)


def challenge(calls: list[Said], chat: Chat) -> str:
    shown = [c.text for c in calls if c.ok and c.chat_id == chat.id and c.rows]
    assert shown, [(c.method, c.text) for c in calls]
    return shown[0]


async def test_an_opponent_is_named_as_the_message_names_them(emulator: Emulator, bot: Bot) -> None:
    """`/duel @bob_k`: the name typed; `/duel Dana` picked from the list: the `text_mention`'s user — never
    the bare id, and never the name the bot saw elsewhere (both wrote in another group first)."""
    await bot.act(ELSEWHERE, CAROL, emulator.say(ELSEWHERE, BOB, "hello"))
    await bot.act(ELSEWHERE, CAROL, emulator.say(ELSEWHERE, DANA, "hi"))
    shown = challenge(await bot.act(GROUP, CAROL, emulator.say(GROUP, ALICE, "/duel @bob_k 4")), GROUP)
    assert "@bob_k" in shown and str(BOB.id) not in shown, shown
    await bot.act(GROUP, CAROL, emulator.say(GROUP, ALICE, "/cancel"))
    text = "/duel Dana 4"
    calls = await bot.act(GROUP, CAROL, emulator.say(GROUP, ALICE, text, [text_mention(text, "Dana", DANA)]))
    shown = challenge(calls, GROUP)
    assert "Dana" in shown and str(DANA.id) not in shown, shown


async def test_a_guess_that_mentions_the_bot_is_the_guess(emulator: Emulator, bot: Bot) -> None:
    """Privacy mode delivers a group message that mentions the bot (https://core.telegram.org/bots/features#privacy-mode):
    `@Bot 8901` and `2345 @Bot` are each the guess they carry."""
    assert texts(await bot.act(GROUP, CAROL, emulator.say(GROUP, BOB, "/practice")), GROUP)
    for typed, code in ((f"@{BOT_USERNAME} 8901", "8901"), (f"2345 @{BOT_USERNAME}", "2345")):
        answer = texts(await bot.act(GROUP, CAROL, emulator.say(GROUP, BOB, typed)), GROUP)
        assert f"{code} →" in answer, (typed, answer)


async def test_an_edited_command_is_not_carried_out_again(emulator: Emulator, bot: Bot) -> None:
    """`/kasse pay Anna 0,10` edited twice books one payment (the edits arrive as `edited_message`)."""
    dave = User(id=5505, first_name="Dave", language_code="en")
    await emulator.admins(GROUP, [dave])
    for command in ("/kasse on", "/kegeln high 2 Anna Ben", "/wurf 0 10"):
        await bot.act(GROUP, CAROL, emulator.say(GROUP, dave, command))
    answer = texts(await bot.act(GROUP, CAROL, emulator.say(GROUP, dave, "/kasse pay Anna 0,10")), GROUP)
    assert "Anna paid €0.10" in answer, answer
    paid = int(bot.done)
    for amount in ("0,05", "0,02"):
        edit = emulator.edit(GROUP, dave, paid, f"/kasse pay Anna {amount}")
        answer = texts(await bot.act(GROUP, CAROL, edit), GROUP)
        assert "paid" not in answer and "not carried out again" in answer, answer
    view = texts(await bot.act(GROUP, CAROL, emulator.say(GROUP, ALICE, "/kasse")), GROUP)
    assert "Paid in: €0.10" in view, view



FORUM = Chat(id=-100779, type="supergroup", title="Forum club", is_forum=True)


async def test_every_answer_in_a_topic_goes_into_that_topic(emulator: Emulator, bot: Bot) -> None:
    """Two topics and General at once: each answer carries its own topic's `message_thread_id` (none in
    General), as the bot read it from the message it answers (the emulator stores what was sent)."""
    mark = len(await emulator.calls())
    for topic in (11, 22, None):
        await bot.act(FORUM, CAROL, emulator.say(FORUM, ALICE, "/practice", topic=topic), topic=topic)
        await bot.act(FORUM, CAROL, emulator.say(FORUM, ALICE, "1234", topic=topic), topic=topic)
    sent = [c for c in await emulator.calls(mark) if c.method == "sendMessage" and c.chat_id == FORUM.id]
    threads = [c.params.get("message_thread_id") for c in sent]
    assert len(sent) >= 9 and set(threads) == {"11", "22", None}, threads
    for thread in ("11", "22"):
        assert any("1234 →" in c.text for c in sent if c.params.get("message_thread_id") == thread)


async def games_of(bot: Bot, user: User) -> list[int]:
    assert bot.app is not None
    return [r.id for r in await bot.app.store.seated_games("telegram", str(user.id))]


async def over(bot: Bot, game: int) -> bool:
    assert bot.app is not None
    row = await bot.app.store.get_game(game)
    return row is not None and row.over


async def test_a_removed_bot_ends_the_groups_games_and_sends_nothing_more_there(emulator: Emulator, bot: Bot) -> None:
    """Kicked (`my_chat_member`: "kicked"; every send then 403, modelled): the game ends, its player is
    told privately, nothing more is sent into the group."""
    await bot.act(Chat.private(ALICE), ALICE, emulator.say(Chat.private(ALICE), ALICE, "/start"))
    await bot.act(GROUP, CAROL, emulator.say(GROUP, ALICE, "/practice"))
    (game,) = await games_of(bot, ALICE)
    mark = len(await emulator.calls())
    await emulator.refuse(GROUP, 403, "Forbidden: bot was kicked from the supergroup chat")
    await emulator.bot_member(GROUP, CAROL, {"status": "kicked", "until_date": 0})
    await emulator.wait_for(lambda c: c.ok and c.chat_id == ALICE.id and "removed" in c.text, mark)
    assert await over(bot, game)
    await emulator.say(GROUP, ALICE, "/help")  # had Telegram still delivered it: no answer is even tried
    assert bot.adapter is not None  # nor a message no update asked for (a timeout, a morning post)
    await bot.adapter.send([Outbound(to=NeutralChat("telegram", str(GROUP.id), False), text="late")])
    await asyncio.sleep(0.5)
    assert [c for c in await emulator.calls(mark) if c.chat_id == GROUP.id and c.method in SENDS] == []


async def test_muted_without_a_word_the_first_refused_send_is_the_last(emulator: Emulator, bot: Bot) -> None:
    """Muted, the bot is told nothing; its next send is refused with 400 "not enough rights" (modelled,
    python-telegram-bot#3956): the game ends, its player is told privately, then silence in the group."""
    await bot.act(Chat.private(ALICE), ALICE, emulator.say(Chat.private(ALICE), ALICE, "/start"))
    await bot.act(GROUP, CAROL, emulator.say(GROUP, ALICE, "/practice"))
    (game,) = await games_of(bot, ALICE)
    await emulator.refuse(GROUP, 400, "Bad Request: not enough rights to send text messages to the chat")
    mark = len(await emulator.calls())
    await emulator.say(GROUP, ALICE, "/help")
    await emulator.wait_for(lambda c: c.ok and c.chat_id == ALICE.id and "no longer write" in c.text, mark)
    assert await over(bot, game)
    await emulator.say(GROUP, ALICE, "/help")
    await asyncio.sleep(0.5)
    assert [c.ok for c in await emulator.calls(mark) if c.chat_id == GROUP.id] == [False]  # the one refusal


def pressable(calls: list[Said], ending: str) -> tuple[int, str]:
    """The message id and callback data of the bot's button whose action ends with `ending`."""
    for call in calls:
        for row in call.rows:
            for button in row:
                if str(button.get("callback_data", "")).endswith(ending) and isinstance(call.result, dict):
                    return int(call.result["message_id"]), str(button["callback_data"])
    raise AssertionError([(c.method, c.text) for c in calls])


async def test_a_challenge_is_accepted_by_its_button_and_by_no_one_else(emulator: Emulator, bot: Bot) -> None:
    """The emulator's own callback queries: Alice's press on her own challenge is refused with an alert,
    Bob's accepts it (the duel then waits for the secrets, asked for privately)."""
    await bot.act(GROUP, CAROL, emulator.say(GROUP, BOB, "hello"))
    message_id, data = pressable(await bot.act(GROUP, CAROL, emulator.say(GROUP, ALICE, "/duel @bob_k 4")), ":accept")
    calls = await bot.act(GROUP, CAROL, emulator.press(GROUP, ALICE, message_id, data))
    (refused,) = [c.params for c in calls if c.method == "answerCallbackQuery"]
    assert refused.get("show_alert") == "true" and refused.get("text"), refused
    calls = await bot.act(GROUP, CAROL, emulator.press(GROUP, BOB, message_id, data))
    (accepted,) = [c.params for c in calls if c.method == "answerCallbackQuery"]
    assert "text" not in accepted, accepted
    assert {ALICE.id, BOB.id} <= {c.chat_id for c in calls if c.method == "sendMessage" and c.ok}  # asked privately


async def test_a_slow_send_in_one_topic_holds_up_no_other_topic_nor_chat(emulator: Emulator, bot: Bot) -> None:
    """Updates are ordered per topic, not per group: while the answer in topic 11 takes 3 s to be sent
    (a large upload, modelled: the emulator answers at once), topic 22 and a private chat are answered."""
    await emulator.slow(FORUM, 11, 3.0)  # under PTB's 5 s read timeout; held up, an answer could not start before
    mark = len(await emulator.calls())
    await emulator.say(FORUM, ALICE, "/help", topic=11)
    held = await emulator.wait_for(lambda c: c.method == "sendMessage" and c.params.get("message_thread_id") == "11",
                                   mark)
    await emulator.say(FORUM, BOB, "/help", topic=22)
    await emulator.say(Chat.private(CAROL), CAROL, "/help")
    def answered(c: Said, where: Callable[[Said], bool]) -> bool:
        return c.method == "sendMessage" and c.ok and where(c)

    for where in (lambda c: c.params.get("message_thread_id") == "22", lambda c: c.chat_id == CAROL.id):
        answer = await emulator.wait_for(functools.partial(answered, where=where), mark)
        assert answer.end is not None and answer.end < held.start + 3000, (answer, held)
    done = await emulator.wait_for(lambda c: c.start == held.start and c.end is not None, mark)
    assert done.ok
