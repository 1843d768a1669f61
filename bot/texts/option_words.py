"""Option words of typed commands in every language (core/options.py reads them), 1A2B code options, mentions."""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass

from bot.texts.i18n import Catalogs
from core.codes import DEFAULT_LENGTH, LENGTHS
from core.errors import GameError
from core.options import Vocabulary, meaning
from core.pegs import COLOURS

# Option words: each option's id is its English word; every catalog lists its own words for it under
# `option.words.<id>` — the shared options in the shared catalog, a game's own (`/daily logik`, `/top words`: the
# game's name as a word) in the game's catalog. The App reads all of them into one vocabulary (word → id).
OPTION_WORDS = "option.words."


def option_word_keys(catalogs: Catalogs) -> dict[str, str]:
    """Each option id → its catalog key: every `option.words.<id>` of the fallback catalog."""
    return {key.removeprefix(OPTION_WORDS): key for key in catalogs.catalogs[catalogs.fallback]
            if key.startswith(OPTION_WORDS)}


MENTION = re.compile(r"^<@!?([^<>@\s]+)>$")


@dataclass(frozen=True)
class CodeOptions:
    length: int = DEFAULT_LENGTH
    repeats: bool = False
    opponent: str | None = None  # as written: a mention, @name or name


def option_vocabulary(catalogs: Catalogs) -> dict[str, str]:
    """Every language's option words → the option id (each id is its own English word). A word that
    two options share is left out (tests/test_option_words.py keeps the catalogs free of such words)."""
    return vocabulary_of(catalogs, option_word_keys(catalogs))


def vocabulary_of(catalogs: Catalogs, keys: Mapping[str, str], fold: bool = False) -> dict[str, str]:
    """Every language's words (the catalog list `keys[id]`, and the id itself) → the id; a word that two
    ids share is left out. `fold`: the words casefolded (a command's actions: /kasse, /verein)."""
    found: dict[str, set[str]] = {}
    for ident, key in keys.items():
        for word in {ident, *catalogs.words(key)}:
            found.setdefault(word.casefold() if fold else word, set()).add(ident)
    return {word: ids.pop() for word, ids in found.items() if len(ids) == 1}


def parse_code_options(args: tuple[str, ...], allow_opponent: bool, vocab: Vocabulary | None = None) -> CodeOptions:
    """`[opponent] [3|4|5] [repeats]` in any order (the repeats word in any language); anything else is
    a coded error."""
    length, repeats, opponent = DEFAULT_LENGTH, False, None
    for raw in args:
        word = raw.strip().lower()
        if not word:
            continue
        if word.isdecimal():
            if int(word) not in LENGTHS:
                raise GameError("bad_length", given=word, lengths="/".join(map(str, LENGTHS)))
            length = int(word)
        elif meaning(word, vocab, ("repeats",)):
            repeats = True
        elif allow_opponent and opponent is None:
            opponent = raw.strip()
        else:
            raise GameError("bad_option", option=raw[:30])
    return CodeOptions(length, repeats, opponent)


def colour_letters(catalogs: Catalogs) -> dict[str, str]:
    """Colour initial → colour digit, from every catalog; a letter two languages disagree on is left out."""
    found: dict[str, set[str]] = {}
    for cat in catalogs.catalogs.values():
        for colour in COLOURS:
            initial = str(cat.get(colour.initial_key, "")).strip().lower()
            if len(initial) == 1:
                found.setdefault(initial, set()).add(str(colour.number))
    return {letter: digits.pop() for letter, digits in sorted(found.items()) if len(digits) == 1}


def mention_id(text: str) -> str | None:
    """The user id in a platform mention like `<@123>`."""
    m = MENTION.match(text.strip())
    return m.group(1) if m else None


LENGTH_CHOICES = tuple(map(str, LENGTHS))  # 1A2B code lengths, for platform menus (Discord choices)
