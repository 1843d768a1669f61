"""/rating's chart dates each day once: two rated games on one day stand under one date, not twin labels;
the first date says its year (issue 23.12: a chart read years later)."""

from __future__ import annotations

from typing import Any

import pytest

from bot.games import shared
from core.ratings_chart import rating_chart
from tests.app.conftest import Clock
from tests.app.harness import Table
from tests.app.test_duel_flow import start_duel
from tests.app.test_ratings_rebuild import finish_duel


async def test_two_games_on_one_day_have_one_date(table: Table, clock: Clock, monkeypatch: pytest.MonkeyPatch) -> None:
    seen: list[list[str]] = []
    real = rating_chart

    def spy(name: str, ordinals: Any, labels: Any, title: str = "") -> bytes:
        seen.append(list(labels))
        return real(name, ordinals, labels, title)

    monkeypatch.setattr(shared, "rating_chart", spy)  # the real chart is still drawn
    for hours in (0, 2, 24):  # two games on the first day, one the next
        clock.now += hours * 3600
        _gid, first, second = await start_duel(table)
        await finish_duel(table, first, second)
    await table.say("bob", "/rating duel")
    assert seen == [["1/12\n1970", "", "1/13"]], seen  # the test clock starts in 1970
