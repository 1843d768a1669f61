"""The fines' names in the club's language: the default catalogue seeded in the chat's language when the
cash box is switched on, any language's words for a default fine accepted when booking, and the name a
line's fine is shown with (the club's own, else the reader's language's, never an internal code)."""

from __future__ import annotations

from dataclasses import replace

from bot.games.plugin import Services
from core.club.cash.ledger import DEFAULT_CODES, DEFAULT_FINES, Catalogue, Fine
from core.messages import Text

# each default fine's code → its name (`cash.fine_name.*`) and the words that mean it in every language
NAMES: dict[str, str] = {"pumpe": "cash.fine_name.pumpe", "lost": "cash.fine_name.lost",
                         "late": "cash.fine_name.late", "absent": "cash.fine_name.absent"}
WORDS: dict[str, str] = {"pumpe": "cash.fine_words.pumpe", "lost": "cash.fine_words.lost",
                         "late": "cash.fine_words.late", "absent": "cash.fine_words.absent"}
assert set(NAMES) == set(WORDS) == DEFAULT_CODES


def aliases(svc: Services) -> dict[str, str]:
    """Every language's word (and name) for a default fine → its code; a word two fines share is left out."""
    found: dict[str, set[str]] = {}
    for code in DEFAULT_CODES:
        words = svc.catalogs.words(WORDS[code]) | {
            str(svc.catalogs.render(Text(NAMES[code]), lang)).casefold() for lang in svc.catalogs.languages}
        for word in words:
            found.setdefault(" ".join(word.split()).casefold(), set()).add(code)
    return {w: c.pop() for w, c in found.items() if len(c) == 1}


def seeded(svc: Services, lang: str) -> tuple[Fine, ...]:
    """The default catalogue named in `lang` (the chat's language when the box is switched on)."""
    return tuple(replace(f, name=svc.catalogs.render(Text(NAMES[f.code]), lang)) for f in DEFAULT_FINES)


def label(catalogue: Catalogue, code: str) -> Text | str:
    """What a line's fine is called: the club's name for it, else a default fine's name in the reader's
    language, else the code the treasurer typed when adding it (a removed fine keeps its code)."""
    fine = catalogue.fine(code)
    if fine is not None and fine.name:
        return fine.name
    if code in NAMES:
        return Text(NAMES[code])
    return code


def fine_label(fine: Fine) -> Text | str:
    return fine.name or (Text(NAMES[fine.code]) if fine.code in NAMES else fine.code)
