"""The adapter's warnings name a Discord user only by the keyed hash (issue 35): an ephemeral answer that
Discord refuses, and whose DM fallback fails too (the user's DMs are closed), is logged at WARNING with
`u-<hash>` — the hash the App's lines give that user (bot/yourdata/logged.py, wired as bot/__main__.py
does) — never with the user's id. Real App, real discord.py, the stand-in."""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Iterator

import pytest

from adapters import logged as adapters_logged
from bot.yourdata import logged

from .conftest import MakeAdapter, OpenApp
from .model import CHANNEL_ID
from .standin import StandIn


@pytest.fixture
def wired() -> Iterator[None]:
    adapters_logged.use(logged.person)
    yield
    adapters_logged.use(adapters_logged._own)


async def test_an_undeliverable_answer_names_the_user_by_the_keyed_hash(
    standin: StandIn, make_adapter: MakeAdapter, open_app: OpenApp, caplog: pytest.LogCaptureFixture,
    wired: None,
) -> None:
    caplog.set_level(logging.DEBUG, logger="adapters")
    erin = standin.add_user("Erin", dms_closed=True)
    app = await open_app()
    await make_adapter(app.handle, app.command_menu())
    standin.break_next(3, status=400, kinds=("callback", "followup", "followup_edit"))
    await standin.slash(CHANNEL_ID, erin, "guess", {"code": "1234"})  # no game: an ephemeral refusal
    for _ in range(200):
        if any("could not be delivered" in r.getMessage() for r in caplog.records):
            break
        await asyncio.sleep(0.05)
    lines = [r.getMessage() for r in caplog.records]
    (warned,) = [line for line in lines if "could not be delivered" in line]
    assert logged.person("discord", str(erin.id)) in warned
    assert not [line for line in lines if str(erin.id) in line]
