"""Issue 23.5: invisible and look-alike names. Blank-looking letters (⠀ U+2800, ᅠ U+FFA0, the Hangul
filler U+3164) and accents alone leave no name; a Kegeln member whose name mixes Latin and Cyrillic
("Кlaus" beside "Klaus") is refused with the reason, in the pure rules and through the App."""

from __future__ import annotations

import pytest

from core.errors import GameError
from core.games.kegeln import options
from core.names import clean, mixed_script
from tests.app.harness import Table, texts


@pytest.mark.parametrize("blank", ["\u2800", "\uffa0", "\u3164", "\u0301\u0308", "\u2800\u0301 \uffa0"])
def test_blank_looking_names_are_no_names(blank: str) -> None:
    assert clean(blank) == ""
    if blank in ("\u2800", "\uffa0", "\u3164"):  # a blank letter inside a name is dropped like a zero-width space
        assert clean(f"Bir{blank}git") == "Birgit"


def test_real_names_stay() -> None:
    for name in ("Klaus", "Клаус", "Åsa", "José", "Zoë", "Mary Ann", "Μαρία", "김민준"):
        assert clean(name) == name and not mixed_script(name), name
    assert mixed_script("\u041alaus") and mixed_script("Kla\u0443s") and not mixed_script("Klaus Клаус")


def test_a_mixed_script_member_is_refused() -> None:
    with pytest.raises(GameError) as err:
        options.parse_setup(["high", "2", "Klaus", "\u041alaus"])
    assert err.value.code == "kegeln.mixed_script"
    with pytest.raises(GameError) as blank:
        options.parse_setup(["high", "2", "Klaus", "\u2800"])
    assert blank.value.code == "empty_name"


async def test_through_the_app(table: Table) -> None:
    r = await table.say("alice", "/kegeln high 2 Klaus \u041alaus Sven")
    assert "mixes letters of two alphabets" in texts(r), texts(r)
    r = await table.say("alice", "/kegeln high 2 Klaus \uffa0 Sven")
    assert "no visible letters" in texts(r), texts(r)
