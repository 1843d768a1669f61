"""Every shipped dictionary (built from the pinned wordfreq lists): sizes per length, alphabet, no
duplicates, ё folded, the bot's own words (nouns) a subset; and the seed's examples are real words."""

from __future__ import annotations

from collections import Counter

import pytest

from bot.dictionary import lexicon
from core.games import words as W


@pytest.mark.parametrize("lang", W.LANGUAGES)
def test_every_list(lang: str) -> None:
    lex = lexicon(lang)
    assert lex.lang == lang
    words = list(lex.words)
    assert len(words) == len(set(words))
    assert all(W.is_word_of(w, lang) and len(w) in W.LENGTHS and w == w.lower() for w in words)
    by_length = Counter(map(len, words))
    common = Counter(map(len, lex.common))
    minimum = 3000 if lang == "bg" else 8000  # wordfreq's Bulgarian list is smaller
    for n in W.LENGTHS:
        assert by_length[n] >= (300 if n == 3 else minimum // 4), (lang, n, by_length[n])
        assert common[n] >= (200 if n == 3 else 500), (lang, n, common[n])  # nouns only (tools/secret_words.py)
    assert set(lex.common) <= lex.words and list(lex.common) == sorted(set(lex.common))


def test_russian_folds_yo_and_knows_the_seed_words() -> None:
    ru = lexicon("ru")
    assert not any("ё" in w for w in ru.words)
    assert {"рост", "трос", "соль", "соло", "корова", "елка"} <= ru.words


def test_well_known_words() -> None:
    assert {"crane", "house"} <= lexicon("en").words
    assert {"strasse", "kuh", "haus"} <= lexicon("de").words and W.normalise("Straße", "de") == "strasse"
    assert {"крава", "бик"} <= lexicon("bg").words
    assert {"tjur", "hus"} <= lexicon("sv").words
