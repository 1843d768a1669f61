"""Word lists for Бык-корова, built from the pinned `wordfreq` package (its lists ship inside the
package: no download). The App loads a language on first use and passes it into the game through
`Ctx.lexicon`; the core never loads anything itself and keeps no dictionary in a game's state.

Normalisation: lower case, letters of the language's alphabet only (core.lexicon.ALPHABETS),
Russian ё folded into е, duplicates (after folding) removed, lengths 3–8 only (`core.lexicon.WORD_LENGTHS`);
keyboard mashing the lists scraped from the web hold ("aaaaa", "xxxxx", "abcde") left out (core.lexicon.degenerate).

Two lists per language: `words`, every guess the game accepts (the whole frequency list), and `common`,
the words the bot picks as a secret or suggests as a hint — the shipped bot/data/wordlists/<lang>.txt (frequent
nouns, built by tools/secret_words.py), less bot/data/wordlists/<lang>.blocked (vulgar and offensive words).
"""

from __future__ import annotations

from functools import cache
from importlib.resources.abc import Traversable

from bot.process.shipped import WORDS
from core.lexicon import ALPHABETS, WORD_LENGTHS, Lexicon, degenerate, is_word_of, normalise

WORDFREQ_TOP = 150_000  # the dictionary for validating guesses: the most frequent words of the language
SECRETS: Traversable = WORDS  # the bot's own words, per language (bot/process/shipped.py)


def listed(path: Traversable, lang: str) -> set[str]:
    """The normalised words of a shipped list: one a line; blank lines and # comments skipped."""
    lines = path.read_text(encoding="utf-8").splitlines() if path.is_file() else []
    return {normalise(ln, lang) for ln in lines if ln.strip() and not ln.lstrip().startswith("#")}


def secrets(lang: str, directory: Traversable = SECRETS) -> set[str]:
    """The words the bot may choose or suggest: the shipped nouns, never a blocked word."""
    return listed(directory / f"{lang}.txt", lang) - listed(directory / f"{lang}.blocked", lang)


def build(lang: str, top: int = WORDFREQ_TOP, directory: Traversable = SECRETS) -> Lexicon:
    """One language's dictionary: every normalised word of a playable length, and the bot's own ones."""
    from wordfreq import top_n_list  # imported here: only the App loads dictionaries

    if lang not in ALPHABETS:
        raise KeyError(lang)
    words: dict[str, int] = {}  # word → frequency rank (first seen wins after folding)
    for rank, raw in enumerate(top_n_list(lang, top)):
        w = normalise(raw, lang)
        if len(w) in WORD_LENGTHS and is_word_of(w, lang) and not degenerate(w, lang) and w not in words:
            words[w] = rank
    common = tuple(sorted(secrets(lang, directory) & set(words)))
    return Lexicon(lang, frozenset(words), common)


@cache
def lexicon(lang: str) -> Lexicon:
    """The cached dictionary of a game language (built on first use, about 0.1–0.3 s)."""
    return build(lang)
