"""Webhook mode: PTB's own webhook server, with the secret token required and checked."""

from __future__ import annotations

import socket

import pytest

from adapters.telegram import TelegramAdapter
from core.messages import CommandInfo, Inbound, Response
from tests.telegram.conftest import MakeAdapter
from tests.telegram.fakeapp import FakeApp
from tests.telegram.standin import StandIn
from tests.telegram.standin_objects import Chat, User

GROUP = Chat(id=-2002, type="group")
ALICE = User(id=111, first_name="Alice")


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


async def test_webhook_receives_updates_and_checks_the_secret(
    standin: StandIn, make_adapter: MakeAdapter
) -> None:
    app = FakeApp()
    port = free_port()
    url = f"http://127.0.0.1:{port}/tg-hook"
    await make_adapter(app.handle, webhook_url=url, webhook_listen="127.0.0.1",
                       webhook_port=port, webhook_secret="s3cret-Token_1")
    (set_hook,) = standin.of("setWebhook")
    assert set_hook.params["url"] == url and set_hook.params["secret_token"] == "s3cret-Token_1"
    assert not standin.of("getUpdates")

    standin.user_message(GROUP, ALICE, "/echo via hook")
    await standin.wait_sent(GROUP.id, "echo: via hook")

    forged = {"message": {"message_id": 50, "date": 0, "chat": GROUP.to_dict(),
                          "from": ALICE.to_dict(), "text": "/echo forged"}}
    assert await standin.push_webhook_raw(dict(forged), secret="wrong") == 403
    assert await standin.push_webhook_raw(dict(forged), secret=None) == 403
    standin.user_message(GROUP, ALICE, "/echo after")
    await standin.wait_sent(GROUP.id, "echo: after")
    assert [i.args for i in app.inbounds] == [("via", "hook"), ("after",)]


def test_webhook_without_secret_is_refused() -> None:
    async def handle(inbound: Inbound) -> Response:
        return Response()

    with pytest.raises(ValueError, match="secret"):
        TelegramAdapter("1:x", handle, {"en": [CommandInfo("help", "Help")]},
                        webhook_url="https://example.org/hook")
