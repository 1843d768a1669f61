"""The words of a game language (docs/rules.md §3), shared by the games that play dictionary words
(the word game, the daily puzzle): each language's alphabet, how a typed word is normalised, and
the dictionary the App builds (bot/solver/dictionary.py) and passes into a move through `Ctx.lexicon`."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from itertools import pairwise

WORD_LENGTHS = range(3, 9)  # RULES §3: a dictionary word has 3–8 letters; a game plays lengths within (the
# word game every one, the daily puzzle its one), so the dictionary (bot/solver/dictionary.py) keeps just these

# The letters of each game language (lower case). Russian: ё is folded into е; German: ß into ss.
ALPHABETS: dict[str, str] = {
    "en": "abcdefghijklmnopqrstuvwxyz",
    "de": "abcdefghijklmnopqrstuvwxyzäöü",  # ß is written ss (as in the wordfreq lists)
    "ru": "абвгдежзийклмнопрстуфхцчшщъыьэюя",
    "bg": "абвгдежзийклмнопрстуфхцчшщъьюя",
    "sv": "abcdefghijklmnopqrstuvwxyzåäö",
}


def normalise(word: str, lang: str) -> str:
    """Lower case, surrounding blanks removed; Russian ё → е; German ß → ss."""
    w = word.strip().lower()
    if lang == "ru":
        return w.replace("ё", "е")
    return w.replace("ß", "ss") if lang == "de" else w


def is_word_of(word: str, lang: str) -> bool:
    """Only letters of the language's alphabet (after `normalise`)."""
    return bool(word) and all(c in ALPHABETS[lang] for c in word)


RUN = 3  # a letter this many times in a row ("aaaaa", "xxxxx") is no word …
RUNS = {"de": 4}  # … except where compounds join three (Schifffahrt, Brennnessel; ß as ss: Massstab)
STRAIGHT = 5  # nor this many letters in alphabet order, up or down ("abcde", "edcba"; "rstu" is in Hörsturz)


def degenerate(word: str, lang: str) -> bool:
    """Keyboard mashing that word lists scraped from the web contain: a letter `RUN` times in a row
    (`RUNS` per language), or `STRAIGHT` letters in a row in the language's alphabet order, up or down."""
    alphabet, run = ALPHABETS[lang], RUNS.get(lang, RUN)
    same = up = down = 1
    for a, b in pairwise(word):
        same = same + 1 if a == b else 1
        step = alphabet.find(b) - alphabet.find(a) if a in alphabet and b in alphabet else 0
        up = up + 1 if step == 1 else 1
        down = down + 1 if step == -1 else 1
        if same >= run or up >= STRAIGHT or down >= STRAIGHT:
            return True
    return False


@dataclass(frozen=True)
class Lexicon:
    """One language's dictionary, built by the App (bot/solver/dictionary.py) and passed in via ctx.

    `words`: every accepted word; `common`: frequent words (sorted) the bot may pick as a secret."""

    lang: str
    words: frozenset[str]
    common: tuple[str, ...]

    def knows(self, word: str) -> bool:
        return word in self.words


LexiconSource = Callable[[str], Lexicon]
