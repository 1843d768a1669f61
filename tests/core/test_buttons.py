"""core/buttons.py: every button id is built and parsed there, in the texts earlier versions wrote."""

from __future__ import annotations

import pytest

from core.buttons import ChatButton, GameButton, LangButton, Verb, parse
from core.games.base import button


@pytest.mark.parametrize(("text", "typed"), [
    ("g:12:secret", GameButton(12, Verb.SECRET)),
    ("g:12:rematch", GameButton(12, "rematch")),
    ("g:7:p3", GameButton(7, "p", 3)),
    ("g:7:w10", GameButton(7, "w", 10)),
    ("g:7:undo", GameButton(7, "undo")),
    ("daily:-1001:1a2b", ChatButton("daily", "-1001", "1a2b")),
    ("daily:-1001/55:1a2b", ChatButton("daily", "-1001/55", "1a2b")),
    ("lang:de", LangButton("de")),
])
def test_the_ids_earlier_versions_wrote_parse_and_are_written_again(text: str, typed: object) -> None:
    assert parse(text) == typed
    assert str(typed) == text


def test_a_game_button_tells_the_app_s_verbs_from_the_game_s() -> None:
    assert GameButton(1, "secret").app_verb is Verb.SECRET
    assert GameButton(1, "p", 3).app_verb is None and GameButton(1, "p", 3).spoken == "p3"
    assert GameButton(1, "secret", 5).app_verb is None  # an App verb takes no argument
    assert GameButton.of(4, "w2") == GameButton(4, "w", 2)


@pytest.mark.parametrize("text", [
    "", "g", "g:", "g:x:secret", "g:5:", "g:5:secret:x", "g:-5:secret", "g:5:Secret", "lang:de:x",
    "daily::1a2b", "daily", "x:y", "g:5:p3x",
])
def test_texts_no_button_carries_are_none(text: str) -> None:
    assert parse(text) is None


def test_what_cannot_be_an_id_is_refused_when_built() -> None:
    for bad in (lambda: GameButton(1, "p3"), lambda: GameButton(1, ""), lambda: GameButton(-1, "x"),
                lambda: ChatButton("g", "1", "x"), lambda: ChatButton("daily", "a:b", "x"),
                lambda: GameButton.of(1, "3p")):
        with pytest.raises(ValueError):
            bad()


def test_the_games_button_helper_writes_the_id() -> None:
    assert button(9, "p3", "kegeln.place").action == "g:9:p3"
    assert button(9, "w", "kegeln.winner", arg=2).action == "g:9:w2"
    assert button(9, Verb.ACCEPT, "button.accept", settles=True).settles
