"""Option words: what a typed command option means, in any language the bot speaks.

Every option has an id, which is also its English word (`repeats`, `rows`, `high` …). The words of the
other languages live in the catalogs (`option.words.<id>` lists); the App reads them into a vocabulary
(word → id) and hands it to the games' option parsers. Core reads no files: without a vocabulary a parser
knows the ids alone.
"""

from __future__ import annotations

from collections.abc import Collection, Mapping

Vocabulary = Mapping[str, str]  # a lowercase word → the option id it names


def meaning(word: str, vocab: Vocabulary | None, ids: Collection[str]) -> str | None:
    """The id among `ids` that `word` names (its vocabulary meaning, else the id itself), or None."""
    w = word.strip().lower()
    found = (vocab or {}).get(w, w)
    return found if found in ids else None
