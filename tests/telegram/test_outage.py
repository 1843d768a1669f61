"""The Bot API fails (5xx) for a while: retried within bounds, order kept, giving up is reported,
and the bot keeps serving."""

from __future__ import annotations

import logging

import pytest

from adapters.telegram import render
from tests.telegram.conftest import MakeAdapter
from tests.telegram.fakeapp import FakeApp
from tests.telegram.standin import StandIn
from tests.telegram.standin_objects import Chat, User

GROUP = Chat(id=-1001, type="group", title="Club")
ALICE = User(id=111, first_name="Alice", username="alice", language_code="en")


@pytest.fixture(autouse=True)
def quick_retries(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(render, "TRANSIENT_PAUSES", (0.05, 0.1, 0.2))


async def test_short_outage_loses_nothing_and_keeps_order(standin: StandIn, make_adapter: MakeAdapter) -> None:
    await make_adapter(FakeApp().handle)
    standin.break_next(2, status=502)
    standin.user_message(GROUP, ALICE, "/burst 4")
    standin.user_message(GROUP, ALICE, "/echo after")
    await standin.wait_sent(GROUP.id, "echo: after", timeout=10)
    assert [c.status for c in standin.of("sendMessage")].count(502) == 2
    assert [c.text for c in standin.sent(GROUP.id)] == [f"line {i}" for i in range(4)] + ["echo: after"]


async def test_long_outage_gives_up_loudly_then_serves_again(standin: StandIn, make_adapter: MakeAdapter,
                                                            caplog: pytest.LogCaptureFixture) -> None:
    await make_adapter(FakeApp().handle)
    caplog.set_level(logging.WARNING)
    standin.break_next(4, status=500)  # more failures than retries for one message
    standin.user_message(GROUP, ALICE, "/echo lost")
    standin.user_message(GROUP, ALICE, "/echo back")
    await standin.wait_sent(GROUP.id, "echo: back", timeout=10)
    assert "gave up after 4 attempts" in caplog.text
    assert standin.token not in caplog.text
    assert [c.text for c in standin.sent(GROUP.id)] == ["echo: back"]
