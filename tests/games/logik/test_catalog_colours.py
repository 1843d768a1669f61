"""The colours in every catalog: names and initials, no initial shared within a language, and the
letters the App builds from all languages mean the same colour everywhere."""

from __future__ import annotations

import pytest

from bot.games.logik.commands import logik_letters
from bot.texts.i18n import Catalogs
from core import pegs
from core.pegs import legend
from tests.games.logik.common import LETTERS

CATALOGS = Catalogs()


@pytest.mark.parametrize("lang", CATALOGS.languages)
def test_initials_are_single_distinct_letters(lang: str) -> None:
    cat = CATALOGS.catalogs[lang]
    initials = [cat[c.initial_key] for c in pegs.COLOURS]
    assert all(len(i) == 1 and i.isalpha() for i in initials)
    assert len({i.lower() for i in initials}) == len(pegs.COLOURS)
    names = [cat[c.name_key] for c in pegs.COLOURS]
    assert len(set(names)) == len(pegs.COLOURS)


def test_the_app_letters_cover_every_language_without_ambiguity() -> None:
    letters = logik_letters(CATALOGS)
    for lang in CATALOGS.languages:
        for c in pegs.COLOURS:
            assert letters[CATALOGS.catalogs[lang][c.initial_key].lower()] == str(c.number), (lang, c)
    assert letters == LETTERS


def test_legend_shows_symbol_number_initial_and_name() -> None:
    en = CATALOGS.render(legend(), "en")
    de = CATALOGS.render(legend(), "de")
    assert en.startswith("Colours: 🟥1 R red · 🟩2 G green") and "⬛8 K black" in en
    assert "🟨4 E gelb" in de and "⬛8 S schwarz" in de
