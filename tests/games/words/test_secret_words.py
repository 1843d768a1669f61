"""The bot's own words (secrets, /words solo, random, the daily word, hints): nouns from the shipped
bot/data/wordlists/<lang>.txt (tools/secret_words.py), never a vulgar word; guesses still take the whole dictionary."""

from __future__ import annotations

import pytest

from bot.solver.dictionary import SECRETS, lexicon, listed
from core.games.words.state import LANGUAGES, LENGTHS
from core.lexicon import is_word_of

# The review's finds (a vulgar Swedish hint, a name, verb forms, a preposition, an adverb) and a few more
# verbs, prepositions, adverbs and pronouns of each language: none of them is a noun.
NOT_SECRETS = {
    "sv": {"pissa", "vegas", "inte", "efter", "mycket", "skulle", "kunna", "genom", "förena", "rullade"},
    "bg": {"бъдеш", "върху", "влезе", "когато", "между", "беше", "много", "кого", "лесно", "хубави", "тези"},
    "ru": {"вверх", "после", "когда", "очень", "делать", "может", "вниз", "было", "этот", "хороший"},
    "de": {"nicht", "immer", "machen", "wieder", "heute", "erwarten", "thorsten", "unter", "schon"},
    "en": {"about", "after", "never", "which", "george", "would", "quickly", "running", "happy"},
}
# and the nouns that show the list is still a list of nouns
NOUNS = {"sv": {"hus", "katt", "tjur", "sol"}, "bg": {"къща", "крава", "бик", "вода"},
         "ru": {"корова", "дом", "соль", "рост"}, "de": {"haus", "kuh", "strasse", "vater"},
         "en": {"house", "crane", "tiger", "barn"}}


@pytest.mark.parametrize("lang", LANGUAGES)
def test_secrets_are_nouns(lang: str) -> None:
    common = set(lexicon(lang).common)
    assert NOT_SECRETS[lang] & common == set()
    assert NOUNS[lang] <= common


@pytest.mark.parametrize("lang", LANGUAGES)
def test_no_blocked_word_is_ever_picked_or_suggested(lang: str) -> None:
    blocked = listed(SECRETS / f"{lang}.blocked", lang)
    assert len(blocked) >= 20
    assert blocked & set(lexicon(lang).common) == set()


def test_the_vulgar_words_the_review_found_are_blocked() -> None:
    assert "pissa" in listed(SECRETS / "sv.blocked", "sv")


@pytest.mark.parametrize("lang", LANGUAGES)
def test_guesses_still_take_the_whole_dictionary(lang: str) -> None:
    """The accepted guesses stay separate: a verb or an adverb is still a word a player may say."""
    lex = lexicon(lang)
    said = {"sv": "inte", "bg": "върху", "ru": "вверх", "de": "nicht", "en": "about"}[lang]
    assert lex.knows(said) and said not in lex.common
    assert set(lex.common) <= lex.words


def test_the_shipped_lists_are_normalised_and_sorted() -> None:
    for lang in LANGUAGES:
        lines = (SECRETS / f"{lang}.txt").read_text(encoding="utf-8").splitlines()
        assert lines == sorted(set(lines)) and all(is_word_of(w, lang) and len(w) in LENGTHS for w in lines)
