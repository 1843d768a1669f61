"""The log names a private chat or a user only by the keyed hash, in the adapters' warnings too (issue 35).

A send to a private chat that Telegram refuses (403: the user blocked the bot) or that fails for a
while (502s, retried) is logged at WARNING/ERROR; the line must show the chat as `u-<hash>`, the same
hash the App's INFO lines give that user (bot/yourdata/logged.py, wired as bot/__main__.py does), and
never the raw id — a private chat's id is its user's own. Real App, real PTB, the stand-in."""

from __future__ import annotations

import logging
from collections.abc import Iterator
from pathlib import Path

import pytest

from adapters import logged as adapters_logged
from bot.yourdata import logged
from tests.telegram.standin import StandIn
from tests.telegram.standin_objects import Chat, User
from tests.telegram.test_e2e_app import Club

pytestmark = pytest.mark.filterwarnings("ignore::telegram.warnings.PTBDeprecationWarning")

ERIN = User(id=7345678901, first_name="Erin", language_code="en")  # an id no other figure of the log could hold


@pytest.fixture
def wired() -> Iterator[None]:
    adapters_logged.use(logged.person)  # as bot/__main__.py wires the adapters
    yield
    adapters_logged.use(adapters_logged._own)


def lines(caplog: pytest.LogCaptureFixture, level: int = logging.DEBUG) -> list[str]:
    return [r.getMessage() for r in caplog.records if r.levelno >= level]


async def club_on(standin: StandIn, tmp_path: Path) -> Club:
    club = Club(standin, tmp_path / "club.sqlite")
    await club.start()
    return club


@pytest.mark.parametrize("failure", ["refused", "outage"])
async def test_a_failing_send_to_a_private_chat_never_logs_its_id(
    standin: StandIn, tmp_path: Path, caplog: pytest.LogCaptureFixture, wired: None, failure: str
) -> None:
    caplog.set_level(logging.DEBUG, logger="adapters")
    caplog.set_level(logging.INFO, logger="bot")
    club = await club_on(standin, tmp_path)
    try:
        private = Chat.private(ERIN)
        mark = standin.mark()
        if failure == "refused":
            standin.refuse_next(1, "Forbidden: bot was blocked by the user", status=403,
                                when=lambda params: str(params.get("chat_id")) == str(ERIN.id))
        else:
            standin.break_next(2)
        standin.user_message(private, ERIN, "/start")
        await standin.wait_for(lambda c: c.chat_id == ERIN.id and not c.ok, timeout=10, after=mark)
        if failure == "outage":  # retried after the outage: delivered
            await standin.wait_sent(ERIN.id, timeout=10, after=mark)
        await club.act(club.say(private, ERIN, "/help"))
    finally:
        await club.stop()
    hashed = logged.person("telegram", str(ERIN.id))
    warned = [line for line in lines(caplog, logging.WARNING) if "chat" in line]
    assert warned and all(hashed in line for line in warned), lines(caplog, logging.WARNING)
    assert any(hashed in line for line in lines(caplog, logging.INFO) if "/start" in line or "start" in line)
    assert not [line for line in lines(caplog) if str(ERIN.id) in line]
