"""The moment between two views of a TV page (bot/web/view.py `moment`): a throw just entered that was alle Neune
or a Pumpe, never anything else — not a first view, an undo, another game, or a throw already shown."""

from __future__ import annotations

from typing import Any

import pytest

from bot.web.view import moment

pytestmark = pytest.mark.unit
WORDS = {"nines": "Alle Neune!", "pumpe": "Pumpe!"}


def view(game: int, throws: int, pins: int | None = None) -> dict[str, Any]:
    shown: dict[str, Any] = {"id": game, "throws": throws}
    if pins is not None:
        shown |= {"last_pins": pins, "last_name": "Anna"}
    return {"labels": WORDS, "game": shown}


def test_alle_neune_and_pumpe() -> None:
    assert moment(view(1, 3, 4), view(1, 4, 9)) == {"kind": "nines", "text": "Alle Neune!", "name": "Anna"}
    assert moment(view(1, 3, 4), view(1, 4, 0)) == {"kind": "pumpe", "text": "Pumpe!", "name": "Anna"}


@pytest.mark.parametrize(("old", "new"), [
    (None, view(1, 4, 9)),  # the first view of a page: what happened before it is not replayed
    (view(1, 4, 9), view(1, 4, 9)),  # the same throw read again
    (view(1, 4, 9), view(1, 3, 9)),  # an undo back to an earlier alle Neune
    (view(1, 3, 2), view(1, 5, 9)),  # two throws at once: the page missed one, no celebration out of turn
    (view(1, 8, 9), view(2, 1, 9)),  # another game
    (view(1, 3, 4), view(1, 4, 5)),  # an ordinary throw
    ({"labels": WORDS, "game": None}, view(1, 1, 9)),  # a game that has only just appeared
])
def test_no_moment(old: dict[str, Any] | None, new: dict[str, Any]) -> None:
    assert moment(old, new) is None
