"""Telegram's inline keyboard size, held by the stand-in (tests/telegram/botapi_rules.py `check_markup`, with
its sources): at most 100 buttons ("reply markup is too long") and at most 8 a row (wider rows lose their
last buttons in Telegram's apps; the stand-in refuses them). Every test on the `standin` fixture fails when
the bot sends such a keyboard (tests/telegram/conftest.py); here the real adapter is made to send one."""

from __future__ import annotations

import asyncio

import pytest

from core.messages import Chat, Inbound, Outbound, OutButton, Response
from tests.telegram import botapi_rules as rules
from tests.telegram.conftest import MakeAdapter
from tests.telegram.standin import StandIn

GROUP = Chat("telegram", "-100500", False)


def grid(rows: int, per_row: int) -> dict[str, object]:
    return {"inline_keyboard": [[{"text": f"{r}.{i}", "callback_data": f"g:1:{r}.{i}"} for i in range(per_row)]
                                for r in range(rows)]}


def test_eight_a_row_and_a_hundred_in_all_are_the_most() -> None:
    rules.check_markup(grid(12, 8))  # 96
    rules.check_markup(grid(100, 1))
    for markup, description in ((grid(1, 9), rules.TOO_WIDE), (grid(13, 8), rules.TOO_LONG),
                                (grid(101, 1), rules.TOO_LONG)):
        with pytest.raises(rules.Refused) as refused:
            rules.check_markup(markup)
        assert (refused.value.status, refused.value.description) == (400, description)


async def nothing(inbound: Inbound) -> Response:
    return Response()


@pytest.mark.parametrize(("rows", "per_row", "refused"), [(1, 9, True), (13, 8, True), (2, 6, False)])
async def test_the_stand_in_refuses_what_the_real_adapter_sends_too_wide_or_too_long(
    standin: StandIn, make_adapter: MakeAdapter, rows: int, per_row: int, refused: bool
) -> None:
    adapter = await make_adapter(nothing)
    buttons = tuple(tuple(OutButton(f"{r}.{i}", f"g:1:{r}.{i}") for i in range(per_row)) for r in range(rows))
    await adapter.send([Outbound(to=GROUP, text="pick one", buttons=buttons)])
    await standin.wait_for(lambda c: c.method == "sendMessage", timeout=5)
    await asyncio.sleep(0.1)
    call, *plain = standin.of("sendMessage")
    assert (call in standin.oversized) is refused and call.ok is not refused
    assert [(c.text, c.buttons) for c in plain] == ([("pick one", [])] if refused else [])  # the text still said
    standin.oversized.clear()  # seen here; the fixture fails every other test that sends one
