"""Pure pieces of the adapter: command parsing, deep-link tokens, keyboards, splitting."""

from __future__ import annotations

import base64
import logging
import re

import pytest
from hypothesis import given
from hypothesis import strategies as st

from adapters.telegram.deeplink import DeepLinks, key_for
from adapters.telegram.inbound import addressed_elsewhere, parse_command
from adapters.telegram.menu import bot_commands
from adapters.telegram.render import chunks, keyboard
from core.messages import CommandInfo, OutButton

TOKEN_RE = re.compile(r"^[A-Za-z0-9_-]{1,64}$")


def test_parse_command() -> None:
    assert parse_command("/duel @bob 4") == ("duel", None, ("@bob", "4"))
    assert parse_command("/Guess@ClubGameBot 1234") == ("guess", "ClubGameBot", ("1234",))
    assert parse_command("/board") == ("board", None, ())
    assert parse_command("1234") is None
    assert parse_command("/ 12") is None
    assert addressed_elsewhere("OtherBot", "ClubGameBot")
    assert not addressed_elsewhere("clubgamebot", "ClubGameBot")
    assert not addressed_elsewhere(None, "ClubGameBot")


LINKS = DeepLinks(key_for("123:secret-token-of-this-installation"))


@given(st.integers(min_value=1, max_value=10**17))
def test_deeplink_round_trip(game: int) -> None:
    token = LINKS.encode(f"g:{game}:secret")
    assert token is not None and TOKEN_RE.match(token)
    assert LINKS.decode(token) == f"g:{game}:secret"
    assert DeepLinks(key_for("123:another-installation")).decode(token) is None


@given(st.text(min_size=1, max_size=64).filter(str.isprintable))
def test_only_a_secret_entry_can_be_linked(action: str) -> None:
    if not action.endswith(":secret"):
        assert LINKS.encode(action) is None


def test_forged_and_altered_payloads_are_not_actions() -> None:
    token = LINKS.encode("g:5:secret")
    assert token is not None
    mac = token.rsplit("_", 1)[1]
    forged = [
        "hello", "ref123", "", "s_", "s_5_", "x" * 65,
        "a_" + base64.urlsafe_b64encode(b"g:5:accept").decode().rstrip("="),  # the old unsigned form
        f"s_6_{mac}",  # another game with this game's MAC
        token[:-1] + ("A" if token[-1] != "A" else "B"),  # one character changed
        f"s_05_{mac}", f"s_5_{mac}=", f"s_5_{mac[:-1]}",
    ]
    for payload in forged:
        assert LINKS.decode(payload) is None, payload
    assert LINKS.encode("g:5:accept") is None and LINKS.encode("g:5:secret:x") is None


def test_keyboard_prompt_buttons_become_deep_links_only_in_groups() -> None:
    buttons = ((OutButton("Set", "g:5:secret", prompt="Code"), OutButton("Go", "g:5:go")),)
    group = keyboard(buttons, bot_username="B", links=LINKS)
    private = keyboard(buttons, bot_username="B", links=None)
    assert group is not None and private is not None
    assert group.inline_keyboard[0][0].url == "https://t.me/B?start=" + str(LINKS.encode("g:5:secret"))
    assert group.inline_keyboard[0][1].callback_data == "g:5:go"
    assert private.inline_keyboard[0][0].callback_data == "g:5:secret"
    assert keyboard((), bot_username="B", links=LINKS) is None


def test_chunks_respect_the_limit() -> None:
    text = "\n".join("y" * 100 for _ in range(100))
    parts = chunks(text, 4096)
    assert len(parts) == 3 and all(len(p) <= 4096 for p in parts)
    assert sum(len(p) for p in parts) + len(parts) - 1 == len(text)
    assert chunks("x" * 5000) == ["x" * 4096, "x" * 904]


def test_bot_commands_drop_internal_and_invalid_names() -> None:
    menu = [CommandInfo("duel", "Challenge"), CommandInfo("_migrate", "no"),
            CommandInfo("bad-name", "no"), CommandInfo("top", "")]
    assert [(c.command, c.description) for c in bot_commands(menu)] == [
        ("duel", "Challenge"), ("top", "top")]


def test_over_long_callback_data_drops_only_that_button() -> None:
    from adapters.telegram.render import keyboard
    from core.messages import OutButton
    markup = keyboard([[OutButton("ok", "g:1:accept"), OutButton("long", "g:1:" + "x" * 80)]],
                      bot_username="bot", links=LINKS)
    assert markup is not None
    assert [b.callback_data for row in markup.inline_keyboard for b in row] == ["g:1:accept"]


async def test_admin_lists_are_cached_and_a_failed_lookup_means_no_admin() -> None:
    from telegram import ChatMemberOwner, User
    from telegram.error import BadRequest

    from adapters.telegram.admins import FAILED_TTL, TTL, Admins

    now = [0.0]
    asked: list[int | str] = []
    failing = {-2}

    async def fetch(chat_id: int | str) -> list[ChatMemberOwner]:
        asked.append(chat_id)
        if chat_id in failing:
            raise BadRequest("Bad Request: chat not found")
        return [ChatMemberOwner(User(7, "Owner", False), is_anonymous=False)]

    admins = Admins(fetch, clock=lambda: now[0])
    assert await admins.is_admin(-1, 7) and not await admins.is_admin(-1, 8)
    assert asked == [-1]
    now[0] = TTL + 1
    assert await admins.is_admin(-1, 7) and asked == [-1, -1]
    admins.forget(-1)
    assert await admins.is_admin(-1, 7) and asked == [-1, -1, -1]
    assert not await admins.is_admin(-2, 7) and not await admins.is_admin(-2, 7)
    assert asked.count(-2) == 1
    failing.clear()
    now[0] += FAILED_TTL + 1
    assert await admins.is_admin(-2, 7) and asked.count(-2) == 2


def test_log_filter_withholds_update_data_and_foreign_exception_messages(
    caplog: pytest.LogCaptureFixture,
) -> None:
    from telegram.error import NetworkError

    from adapters.telegram import logsafe

    installed = logsafe.install("123:secret-token-of-this-installation")
    try:
        log = logging.getLogger("telegram.ext.Updater")
        with caplog.at_level(logging.DEBUG):
            log.debug("Webhook received data: %s", '{"message": {"text": "4711"}}')
            log.critical("Received data was: %r", {"message": {"text": "4711"}})
            log.error("Processing update %s failed", ["4711"])
            try:
                int("4711 is my code")
            except ValueError as exc:
                log.critical("Something went wrong", exc_info=exc)
            log.warning("Fetching updates was aborted due to %r", ValueError("4711"))
            log.warning("Polling error (%s): %s", "getUpdates", NetworkError("Bad Gateway"))
            log.info("Received Update with ID %d on Webhook", 4711)
    finally:
        logsafe.uninstall(installed)
    messages = [r.getMessage() for r in caplog.records]
    assert all("4711" not in m for m in messages[:5]), messages
    assert "Something went wrong (ValueError)" in messages
    assert "Polling error (getUpdates): Bad Gateway" in messages  # Telegram's own errors stay readable
    assert messages[-1] == "Received Update with ID 4711 on Webhook"  # numbers are no texts


def test_a_message_is_named_with_its_chat_and_an_edit_with_its_date() -> None:
    """Telegram numbers messages per chat: the same number in two groups is two messages (a move
    counted in one group never blocks an edit in the other), and an edit keeps its message's name."""
    from datetime import UTC, datetime

    from telegram import Chat, Message, Update, User

    from adapters.telegram.inbound import from_update

    alice = User(7, "Alice", False)
    at = datetime(2026, 12, 1, tzinfo=UTC)

    def update(uid: int, chat_id: int, edited: bool) -> Update:
        msg = Message(5, at, Chat(chat_id, "group"), from_user=alice, text="1234",
                      edit_date=datetime(2026, 12, 2, tzinfo=UTC) if edited else None)
        return Update(uid, edited_message=msg) if edited else Update(uid, message=msg)

    first, other, edit = (from_update(update(1, -1, False), "Bot"), from_update(update(2, -2, False), "Bot"),
                          from_update(update(3, -1, True), "Bot"))
    assert first is not None and other is not None and edit is not None
    assert first.message == "-1:5" != other.message and first.edited is None
    assert edit.message == first.message and edit.edited is not None and edit.event_id == "3"
