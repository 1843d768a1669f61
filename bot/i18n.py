"""Localised texts: TOML catalogs in data/locales, plural forms by CLDR rules (Babel).

A catalog entry is a string with `{name}` placeholders, or a table of CLDR
plural categories (`one`, `few`, `many`, `other`, …) chosen by the parameter
`n`. A parameter that is itself a `Text` is rendered first, in the same language.
"""

from __future__ import annotations

import tomllib
from collections.abc import Mapping
from functools import cache
from pathlib import Path
from typing import Any

from babel import Locale, UnknownLocaleError

from core.messages import Text

PLURAL_CATEGORIES = {"zero", "one", "two", "few", "many", "other"}
DEFAULT_DIR = Path(__file__).resolve().parent.parent / "data" / "locales"


def _flatten(table: Mapping[str, Any], prefix: str = "") -> dict[str, Any]:
    out: dict[str, Any] = {}
    for key, value in table.items():
        full = f"{prefix}{key}"
        if isinstance(value, dict) and not set(value) <= PLURAL_CATEGORIES:
            out.update(_flatten(value, full + "."))
        else:
            out[full] = value
    return out


@cache
def _plural_rule(lang: str) -> Any:
    return Locale.parse(lang).plural_form


def normalise(code: str | None) -> str | None:
    """`de-DE`, `de_AT`, `DE` → `de`; None stays None."""
    if not code:
        return None
    return code.replace("_", "-").split("-")[0].lower() or None


class Catalogs:
    def __init__(self, directory: Path = DEFAULT_DIR, fallback: str = "en") -> None:
        self.fallback = fallback
        self.catalogs: dict[str, dict[str, Any]] = {}
        for path in sorted(directory.glob("*.toml")):
            with path.open("rb") as f:
                self.catalogs[path.stem] = _flatten(tomllib.load(f))
        if fallback not in self.catalogs:
            raise RuntimeError(f"no catalog for the fallback language {fallback!r} in {directory}")

    @property
    def languages(self) -> list[str]:
        return sorted(self.catalogs)

    def supported(self, code: str | None) -> str | None:
        lang = normalise(code)
        return lang if lang in self.catalogs else None

    def pick(self, *candidates: str | None) -> str:
        """The first supported language among the candidates, else the fallback."""
        for c in candidates:
            lang = self.supported(c)
            if lang:
                return lang
        return self.fallback

    def has(self, key: str, lang: str | None = None) -> bool:
        return key in self.catalogs[lang or self.fallback]

    def render(self, text: Text | str, lang: str) -> str:
        if isinstance(text, str):
            return text
        entry = self.catalogs.get(lang, {}).get(text.key)
        if entry is None:
            entry = self.catalogs[self.fallback].get(text.key)
        if entry is None:
            return text.key
        params = {k: self.render(v, lang) if isinstance(v, Text) else v for k, v in text.params.items()}
        if isinstance(entry, dict):
            entry = self._plural(entry, params.get("n", 0), lang)
        try:
            return str(entry).format(**params)
        except (KeyError, IndexError, ValueError):
            return str(entry)

    @staticmethod
    def _plural(forms: Mapping[str, str], n: Any, lang: str) -> str:
        try:
            category = _plural_rule(lang)(abs(int(n)))
        except (UnknownLocaleError, ValueError, TypeError):
            category = "other"
        return forms.get(category) or forms["other"]

    def words(self, key: str) -> set[str]:
        """Every language's words for a catalog list (e.g. the localised option words)."""
        found: set[str] = set()
        for cat in self.catalogs.values():
            value = cat.get(key)
            if isinstance(value, list):
                found.update(str(v).lower() for v in value)
        return found
