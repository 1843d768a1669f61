"""The adapter against the stand-in with a scripted handle: real PTB, real polling."""

from __future__ import annotations

import asyncio
import logging

import pytest
from telegram.ext import AIORateLimiter

from adapters.telegram import TelegramAdapter, TelegramStartError
from adapters.telegram.deeplink import DeepLinks, key_for
from core.messages import CommandInfo, Inbound, Response
from tests.telegram.conftest import MakeAdapter
from tests.telegram.fakeapp import FakeApp
from tests.telegram.standin import StandIn
from tests.telegram.standin_objects import BOT_USERNAME, Chat, User

# PTB itself warns about RetryAfter.retry_after's future type when it builds the error.
pytestmark = pytest.mark.filterwarnings("ignore::telegram.warnings.PTBDeprecationWarning")

GROUP = Chat(id=-1001, type="group", title="Club")
ALICE = User(id=111, first_name="Alice", username="alice", language_code="de")
BOB = User(id=222, first_name="Bob", language_code="en")


async def sync(standin: StandIn) -> None:
    """Updates are handled in order: once this echo is out, everything before is done."""
    mark = standin.mark()
    standin.user_message(GROUP, BOB, "/echo sync")
    await standin.wait_sent(GROUP.id, "echo: sync", after=mark)


@pytest.fixture
def app() -> FakeApp:
    return FakeApp()


async def test_commands_and_text_become_inbounds(
    standin: StandIn, make_adapter: MakeAdapter, app: FakeApp
) -> None:
    await make_adapter(app.handle)
    standin.user_message(GROUP, ALICE, "/echo@OtherBot ignored")
    standin.user_message(GROUP, ALICE, f"/ECHO@{BOT_USERNAME} a  b")
    standin.user_message(GROUP, BOB, "/echo")
    standin.user_message(GROUP, BOB, "just chatting")
    await standin.wait_sent(GROUP.id, "echo: a b")
    await standin.wait_sent(GROUP.id, "echo: ")
    await sync(standin)
    commands = [(i.command, i.args, i.text) for i in app.inbounds[:-1]]
    assert commands == [("echo", ("a", "b"), None), ("echo", (), None),
                        (None, (), "just chatting")]
    first = app.inbounds[0]
    assert first.actor.platform == "telegram" and first.actor.user_id == "111"
    assert first.actor.name == "Alice" and first.actor.locale == "de"
    assert first.chat.chat_id == "-1001" and first.chat.private is False
    assert first.event_id == "2"  # the update id; update 1 was for another bot
    texts = [c.text for c in standin.sent(GROUP.id)]
    assert texts == ["echo: a b", "echo: ", "echo: sync"]


async def test_buttons_and_callback_answers(
    standin: StandIn, make_adapter: MakeAdapter, app: FakeApp
) -> None:
    await make_adapter(app.handle)
    standin.user_message(GROUP, ALICE, "/button")
    sent = await standin.wait_sent(GROUP.id, "Pick one")
    buttons = {b["text"]: b for b in sent.buttons}
    assert buttons["Yes"]["callback_data"] == "g:1:yes"
    assert buttons["Rules"]["url"] == "https://example.org/rules"
    # A prompt button in a group leads to the private chat.
    url = buttons["Enter code"]["url"]
    assert url.startswith(f"https://t.me/{BOT_USERNAME}?start=")
    assert DeepLinks(key_for(standin.token)).decode(url.split("start=", 1)[1]) == "g:1:secret"

    message_id = sent.result["message_id"]
    yes = standin.press(GROUP, BOB, message_id, "g:1:yes")
    no = standin.press(GROUP, BOB, message_id, "g:1:no")
    await standin.wait_sent(GROUP.id, "Bob said yes")
    answers = await standin.wait_for(lambda c: c.method == "answerCallbackQuery", count=2)
    by_id = {c.params["callback_query_id"]: c.params for c in answers}
    assert "text" not in by_id[yes]
    assert by_id[no]["text"] == "Not for you" and by_id[no]["show_alert"] is True
    press = app.inbounds[1]
    assert press.action == "g:1:yes" and press.chat.chat_id == "-1001"
    assert press.actor.user_id == "222" and press.event_id is not None


async def test_private_message_falls_back_to_deep_link(
    standin: StandIn, make_adapter: MakeAdapter, app: FakeApp
) -> None:
    await make_adapter(app.handle)
    standin.blocked.add(BOB.id)
    standin.user_message(GROUP, BOB, "/dm")
    fallback = await standin.wait_sent(GROUP.id, "Bob, open the private chat")
    refused = [c for c in standin.of("sendMessage") if c.chat_id == BOB.id]
    assert [c.status for c in refused] == [403]
    (button,) = fallback.buttons
    token = button["url"].split("?start=", 1)[1]
    assert "callback_data" not in button

    private = Chat.private(BOB)
    mark = standin.mark()
    standin.user_message(private, BOB, f"/start {token}")
    await standin.wait_sent(BOB.id, "Type your secret code here", after=mark)
    start = app.inbounds[-1]
    assert start.action == "g:1:secret" and start.text is None and start.command is None
    assert start.chat.private is True and start.chat.chat_id == str(BOB.id)

    # Once started, private messages go through, with their own buttons as callbacks.
    standin.user_message(GROUP, BOB, "/dm")
    dm = await standin.wait_sent(BOB.id, "Your secret code, please")
    assert dm.buttons == [{"text": "Random", "callback_data": "g:1:random"}]
    # /start with anything else stays a plain /start command.
    standin.user_message(private, BOB, "/start hello")
    await sync(standin)
    assert (app.inbounds[-2].command, app.inbounds[-2].args) == ("start", ("hello",))


async def test_unreachable_private_message_without_fallback_is_dropped(
    standin: StandIn, make_adapter: MakeAdapter, app: FakeApp
) -> None:
    await make_adapter(app.handle)
    standin.blocked.add(ALICE.id)
    standin.user_message(GROUP, ALICE, "/dmonly")
    standin.user_message(GROUP, ALICE, "/echo still here")
    await standin.wait_sent(GROUP.id, "echo: still here")
    assert [c.status for c in standin.of("sendMessage") if c.chat_id == ALICE.id] == [403]


async def test_retry_after_burst_loses_nothing(
    standin: StandIn, make_adapter: MakeAdapter, app: FakeApp
) -> None:
    await make_adapter(app.handle)
    standin.fail_next(3, retry_after=1)
    standin.user_message(GROUP, ALICE, "/burst 6")
    standin.user_message(GROUP, ALICE, "/echo after")
    await standin.wait_sent(GROUP.id, "echo: after", timeout=15)
    assert [c.status for c in standin.of("sendMessage")].count(429) == 3
    assert [c.text for c in standin.sent(GROUP.id)] == [f"line {i}" for i in range(6)] + [
        "echo: after"]


async def test_secret_typed_in_group_is_deleted_and_noticed_privately(
    standin: StandIn, make_adapter: MakeAdapter, app: FakeApp
) -> None:
    await make_adapter(app.handle)
    standin.promote_bot(GROUP)  # an admin of the group (may delete any message there)
    message = standin.user_message(GROUP, ALICE, "1234")
    note = await standin.wait_sent(ALICE.id, "Send your code privately")
    (delete,) = standin.of("deleteMessage")
    assert delete.ok and delete.params == {"chat_id": GROUP.id,
                                           "message_id": message["message_id"]}
    assert note.ok and not standin.sent(GROUP.id)

    # Without the right to delete, and with Bob unreachable: logged, and the note
    # goes to the group instead, never the code.
    standin.no_delete.add(GROUP.id)
    standin.blocked.add(BOB.id)
    standin.user_message(GROUP, BOB, "5678")
    note = await standin.wait_sent(GROUP.id, "Send your code privately")
    assert standin.of("deleteMessage")[-1].status == 400
    assert "5678" not in note.everything()
    # … and the App is told the message stays, with its text and why (it decides what that means)
    for _ in range(100):  # told right after the note went out
        if app.undeleted:
            break
        await asyncio.sleep(0.05)
    (told,) = app.undeleted
    assert (told.undeleted, told.text, told.actor.user_id) == ("rights", "5678", str(BOB.id))


async def test_notice_for_a_command_in_private_chat(
    standin: StandIn, make_adapter: MakeAdapter, app: FakeApp
) -> None:
    await make_adapter(app.handle)
    standin.user_message(Chat.private(ALICE), ALICE, "/notice")
    await standin.wait_sent(ALICE.id, "only for you")


async def test_handle_failures_are_survived_and_presses_still_answered(
    standin: StandIn, make_adapter: MakeAdapter, app: FakeApp,
    caplog: pytest.LogCaptureFixture,
) -> None:
    await make_adapter(app.handle)
    standin.user_message(GROUP, ALICE, "/boom")
    query = standin.press(GROUP, ALICE, 99, "g:1:boom")
    standin.user_message(GROUP, ALICE, "/echo alive")
    await standin.wait_sent(GROUP.id, "echo: alive")
    (answer,) = standin.of("answerCallbackQuery")
    assert answer.params["callback_query_id"] == query
    assert "handle() failed" in caplog.text


async def test_edit_key_edits_in_place(
    standin: StandIn, make_adapter: MakeAdapter, app: FakeApp
) -> None:
    await make_adapter(app.handle)
    standin.user_message(GROUP, ALICE, "/edit")
    first = await standin.wait_sent(GROUP.id, "board v1")
    standin.user_message(GROUP, ALICE, "/edit")
    second = await standin.wait_sent(GROUP.id, "board v2")
    assert first.method == "sendMessage" and second.method == "editMessageText"
    assert second.params["message_id"] == first.result["message_id"]
    assert second.buttons == [{"text": "Refresh", "callback_data": "g:1:board"}]
    # The message is gone: editing fails, the adapter sends anew and edits that one next.
    standin.messages.pop((GROUP.id, first.result["message_id"]))
    standin.user_message(GROUP, ALICE, "/edit")
    third = await standin.wait_sent(GROUP.id, "board v3")
    assert third.method == "sendMessage"
    standin.user_message(GROUP, ALICE, "/edit")
    fourth = await standin.wait_sent(GROUP.id, "board v4")
    assert fourth.method == "editMessageText"
    assert fourth.params["message_id"] == third.result["message_id"]


async def test_photo_and_long_text(
    standin: StandIn, make_adapter: MakeAdapter, app: FakeApp
) -> None:
    await make_adapter(app.handle)
    standin.user_message(GROUP, ALICE, "/photo")
    photo = await standin.wait_sent(GROUP.id, "a picture")
    assert photo.method == "sendPhoto" and photo.params["photo"]["size"] > 0
    standin.user_message(GROUP, ALICE, "/long")
    await standin.wait_sent(GROUP.id, "row 0199")
    parts = [c for c in standin.sent(GROUP.id) if c.text.startswith("row")]
    assert len(parts) >= 3 and all(len(c.text) <= 4096 for c in parts)


async def test_group_migration_becomes_a_migrate_command(
    standin: StandIn, make_adapter: MakeAdapter, app: FakeApp
) -> None:
    await make_adapter(app.handle)
    supergroup = standin.migrate(GROUP, ALICE, -100777)
    standin.user_message(supergroup, ALICE, "/echo x")  # the old group takes no messages any more
    await standin.wait_sent(supergroup.id, "echo: x")
    # the old group's last word and the supergroup's first both say it (either may be missed)
    for migrate in app.inbounds[:2]:
        assert migrate.migrate_to == "-100777" and migrate.command is None
        assert migrate.chat.chat_id == str(GROUP.id)


async def test_command_menus_per_language_and_scope(
    standin: StandIn, make_adapter: MakeAdapter, app: FakeApp
) -> None:
    menus = {
        "en": [CommandInfo("duel", "Challenge someone"), CommandInfo("_migrate", "internal")],
        "de": [CommandInfo("duel", "Jemanden herausfordern")],
    }
    await make_adapter(app.handle, commands=menus)
    calls = standin.of("setMyCommands")
    seen = {(c.params.get("language_code"), c.params["scope"]["type"]) for c in calls}
    assert seen == {(lang, scope) for lang in ("en", None, "de")
                    for scope in ("all_private_chats", "all_group_chats")}
    german = next(c for c in calls if c.params.get("language_code") == "de")
    assert german.params["commands"] == [
        {"command": "duel", "description": "Jemanden herausfordern"}]


async def test_failing_api_methods_are_survived(
    standin: StandIn, make_adapter: MakeAdapter, app: FakeApp,
    caplog: pytest.LogCaptureFixture,
) -> None:
    standin.failing_methods["setMyCommands"] = (404, "Not Found")
    standin.failing_methods["answerCallbackQuery"] = (400, "Bad Request: query is too old")
    await make_adapter(app.handle)
    standin.press(GROUP, ALICE, 1, "g:1:yes")
    standin.user_message(GROUP, ALICE, "/echo fine")
    await standin.wait_sent(GROUP.id, "echo: fine")
    assert "setMyCommands" in caplog.text and "answerCallbackQuery" in caplog.text


async def test_token_and_private_texts_never_logged(
    standin: StandIn, make_adapter: MakeAdapter, app: FakeApp,
    caplog: pytest.LogCaptureFixture,
) -> None:
    caplog.set_level(logging.DEBUG)
    standin.failing_methods["setMyCommands"] = (500, f"Internal error for {standin.token}")
    await make_adapter(app.handle)
    standin.blocked.add(BOB.id)
    standin.fail_next(1, retry_after=1)
    standin.user_message(Chat.private(ALICE), ALICE, "4831")
    standin.user_message(GROUP, BOB, "/dm")
    await standin.wait_sent(GROUP.id, "open the private chat", timeout=10)
    await standin.wait_sent(ALICE.id, "got it")
    assert caplog.records, "expected some logging to inspect"
    assert standin.token not in caplog.text
    assert standin.token.split(":")[1] not in caplog.text
    assert "4831" not in caplog.text
    assert "Your secret code, please" not in caplog.text


async def test_an_update_ptb_cannot_parse_is_logged_without_its_texts(
    standin: StandIn, make_adapter: MakeAdapter, app: FakeApp,
    caplog: pytest.LogCaptureFixture,
) -> None:
    """An update PTB cannot read is skipped with a log line that names it by its id alone (PTB
    itself would log the raw batch, private texts included: the log filter withholds that data,
    tests/telegram/test_units.py)."""
    caplog.set_level(logging.DEBUG)
    await make_adapter(app.handle)
    await sync(standin)
    private = "my secret is 4711 and nobody may read it"
    bad = standin.push_raw({"message": {  # no chat, no date: Update.de_list raises
        "message_id": 99, "from": BOB.to_dict(), "text": private}})
    standin.user_message(Chat.private(ALICE), ALICE, f"/echo {private}")  # in the same batch
    await standin.wait_sent(ALICE.id, "echo: my secret")
    await sync(standin)
    assert any(f"update {bad} cannot be read" in r.getMessage() for r in caplog.records)
    for record in caplog.records:
        assert "4711" not in record.getMessage() and "nobody may read" not in record.getMessage()
        assert not record.exc_text or "4711" not in record.exc_text
    assert "4711" not in caplog.text


async def test_an_update_ptb_cannot_parse_is_skipped_and_the_rest_of_its_batch_served(
    standin: StandIn, make_adapter: MakeAdapter, app: FakeApp,
) -> None:
    """PTB cannot parse a polled batch with one malformed update: it would fetch the same batch
    again at once, forever, and serve none of it. The bot takes that one update as empty (so it is
    confirmed like any other) and serves the rest of the batch."""
    await make_adapter(app.handle)
    await sync(standin)
    polls = len(standin.of("getUpdates"))
    bad = standin.push_raw({"message": {  # no chat, no date: Update.de_list raises
        "message_id": 99, "from": BOB.to_dict(), "text": "broken"}})
    standin.user_message(Chat.private(ALICE), ALICE, "/echo after")  # in the same batch
    try:
        await standin.wait_sent(ALICE.id, "echo: after", timeout=3)
    finally:
        polls = len(standin.of("getUpdates")) - polls
        standin.drop_updates([bad])  # lets the adapter stop if it is stuck
    await sync(standin)
    assert polls < 10, f"{polls} getUpdates calls for two updates: the batch was fetched again and again"
    assert [i.args for i in app.inbounds if i.command == "echo"][-2:] == [("after",), ("sync",)]

    # Last in its batch, alone: it is confirmed all the same, and the next update is served.
    standin.user_message(GROUP, ALICE, "/echo before")
    standin.push_raw({"message": {"message_id": 100, "text": "broken"}})
    await standin.wait_sent(GROUP.id, "echo: before")
    await sync(standin)
    standin.user_message(GROUP, ALICE, "/echo next")
    await standin.wait_sent(GROUP.id, "echo: next")


async def test_restart_does_not_replay_or_lose_updates(
    standin: StandIn, make_adapter: MakeAdapter, app: FakeApp
) -> None:
    first = await make_adapter(app.handle)
    standin.user_message(GROUP, ALICE, "/echo one")
    await standin.wait_sent(GROUP.id, "echo: one")
    await first.stop()
    standin.user_message(GROUP, ALICE, "/echo two")  # arrives while the bot is down
    await make_adapter(app.handle)
    await standin.wait_sent(GROUP.id, "echo: two")
    standin.user_message(GROUP, ALICE, "/echo three")
    await standin.wait_sent(GROUP.id, "echo: three")
    assert [i.args for i in app.inbounds] == [("one",), ("two",), ("three",)]


async def test_mentions_in_arguments_become_user_ids(
    standin: StandIn, make_adapter: MakeAdapter, app: FakeApp
) -> None:
    await make_adapter(app.handle)
    standin.user_message(GROUP, ALICE, "hi all")  # the bot learns @alice -> 111
    standin.user_message(GROUP, BOB, "/echo @Alice @stranger 4")
    await standin.wait_sent(GROUP.id, "echo: <@111> @stranger 4")
    # A user without a username, picked from the client's list: a text_mention entity.
    carol = User(id=333, first_name="Carol Ann")
    text = "/echo Carol Ann 5"
    standin.user_message(GROUP, BOB, text, entities=[
        {"type": "text_mention", "offset": 6, "length": 9, "user": carol.to_dict()}])
    await standin.wait_sent(GROUP.id, "echo: <@333> 5")


async def test_endless_flood_control_gives_up_on_one_message_but_keeps_serving(
    standin: StandIn, make_adapter: MakeAdapter, app: FakeApp,
    caplog: pytest.LogCaptureFixture,
) -> None:
    limiter = AIORateLimiter(overall_max_rate=0, group_max_rate=0, max_retries=1)
    await make_adapter(app.handle, rate_limiter=limiter)  # 2 attempts per call
    standin.fail_next(2, retry_after=1)
    standin.user_message(GROUP, ALICE, "/echo lost")
    standin.user_message(GROUP, ALICE, "/echo next")
    await standin.wait_sent(GROUP.id, "echo: next")
    assert [c.status for c in standin.of("sendMessage")] == [429, 429, 200]
    assert "RetryAfter" in caplog.text


async def test_bad_token_fails_to_start_without_leaking_it(standin: StandIn) -> None:
    async def handle(inbound: Inbound) -> Response:
        return Response()

    token = "999:wrong-token-XYZ123456"
    adapter = TelegramAdapter(token, handle, {"en": []}, base_url=standin.base_url)
    with pytest.raises(TelegramStartError) as failure:
        await adapter.start()
    assert "wrong-token" not in str(failure.value)
    await adapter.stop()
