"""Word lists for Бык-корова, built from the pinned `wordfreq` package (its lists ship inside the
package: no download). The App loads a language on first use and passes it into the game through
`Ctx.lexicon`; the core never loads anything itself and keeps no dictionary in a game's state.

Normalisation: lower case, letters of the language's alphabet only (core.lexicon.ALPHABETS),
Russian ё folded into е, duplicates (after folding) removed, lengths 3–8 only; keyboard mashing the
lists scraped from the web hold ("aaaaa", "xxxxx", "abcde") left out (core.lexicon.degenerate).
"""

from __future__ import annotations

from functools import cache

from core.games.words import LENGTHS
from core.lexicon import ALPHABETS, Lexicon, degenerate, is_word_of, normalise

WORDFREQ_TOP = 150_000  # the dictionary for validating guesses: the most frequent words of the language
COMMON_TOP = 12_000  # the frequency floor for the bot's own secrets: only words this frequent


def build(lang: str, top: int = WORDFREQ_TOP, common_top: int = COMMON_TOP) -> Lexicon:
    """One language's dictionary: every normalised word of a playable length, and the common ones."""
    from wordfreq import top_n_list  # imported here: only the App loads dictionaries

    if lang not in ALPHABETS:
        raise KeyError(lang)
    words: dict[str, int] = {}  # word → frequency rank (first seen wins after folding)
    for rank, raw in enumerate(top_n_list(lang, top)):
        w = normalise(raw, lang)
        if len(w) in LENGTHS and is_word_of(w, lang) and not degenerate(w, lang) and w not in words:
            words[w] = rank
    common = tuple(sorted(w for w, rank in words.items() if rank < common_top))
    return Lexicon(lang, frozenset(words), common)


@cache
def lexicon(lang: str) -> Lexicon:
    """The cached dictionary of a game language (built on first use, about 0.1–0.3 s)."""
    return build(lang)
