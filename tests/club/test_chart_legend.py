"""The club chart's wins legend shows the modes' whole names in every language: a name too long for the
legend column goes on two lines (it was cut: "niedrige Numm…", "маленькие чис…")."""

from __future__ import annotations

from typing import Any

import pytest

from bot.texts.i18n import Catalogs
from core import pictures
from core.club import chart
from core.messages import Text

CATALOGS = Catalogs()


@pytest.mark.parametrize("lang", CATALOGS.languages)
def test_the_wins_legend_is_never_cut(lang: str, monkeypatch: pytest.MonkeyPatch) -> None:
    drawn: list[str] = []
    real = chart._text

    def seen(draw: Any, xy: Any, text: str, width: float, *args: Any, **kwargs: Any) -> None:
        drawn.append(pictures.fit(text, width, *args[:1]))  # what the picture shows of it
        real(draw, xy, text, width, *args, **kwargs)

    monkeypatch.setattr(chart, "_text", seen)  # a spy: the real drawing still happens
    say = {k: CATALOGS.render(Text(k), lang) for k in ("kegeln.mode_high", "kegeln.mode_low")}
    words = chart.Words(wins="wins", high=say["kegeln.mode_high"], low=say["kegeln.mode_low"])
    png = chart.club_chart([("Anna", [3.0]), ("Ben", [4.0])], ["1"], [(2, 1), (1, 2)], words=words)
    assert png.startswith(b"\x89PNG")
    assert not any(t.endswith("…") for t in drawn), drawn
    for mode in say.values():
        assert mode in " ".join(drawn), (mode, drawn)  # whole, on one line or two
