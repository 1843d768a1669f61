"""The message catalogs: complete in every language, same placeholders, no dead keys."""

from __future__ import annotations

import re
import string
from pathlib import Path

import pytest
from babel import Locale

from bot.commands import COMMANDS
from bot.i18n import Catalogs
from core.games.practice import RATINGS
from core.messages import Text

ROOT = Path(__file__).resolve().parents[1]
CATALOGS = Catalogs()


def placeholders(entry: object) -> set[str]:
    texts = entry.values() if isinstance(entry, dict) else [entry]
    return {name for t in texts for _, name, _, _ in string.Formatter().parse(str(t)) if name}


def used_keys() -> set[str]:
    """Keys named in code: literal keys, GameError codes, and the key families built from names."""
    source = "\n".join(p.read_text() for d in ("core", "bot") for p in (ROOT / d).rglob("*.py"))
    known = set(CATALOGS.catalogs["en"])
    literal = {k for k in re.findall(r"""["']([a-z_]+(?:\.[A-Za-z_]+)+)["']""", source) if k in known}
    errors = {f"error.{c}" for c in re.findall(r"""GameError\(\s*["']([a-z_.]+)["']""", source)}
    families = {f"cmd.{c.name}" for c in COMMANDS} | {f"help.cmd.{c.name}" for c in COMMANDS}
    families |= {f"opt.{o}" for c in COMMANDS for o in c.options}
    families |= {f"rating.{r}" for r in RATINGS} | {f"lang.name.{lang}" for lang in CATALOGS.languages}
    return literal | errors | families | {"error.internal"}


def test_at_least_english_and_german() -> None:
    assert {"en", "de"} <= set(CATALOGS.languages)


@pytest.mark.parametrize("lang", CATALOGS.languages)
def test_same_keys_and_placeholders_as_english(lang: str) -> None:
    en, other = CATALOGS.catalogs["en"], CATALOGS.catalogs[lang]
    assert set(other) == set(en)
    for key in en:
        assert placeholders(other[key]) == placeholders(en[key]), key


@pytest.mark.parametrize("lang", CATALOGS.languages)
def test_plural_entries_have_every_cldr_category(lang: str) -> None:
    needed = set(Locale.parse(lang).plural_form.tags) | {"other"}
    for key, entry in CATALOGS.catalogs[lang].items():
        if isinstance(entry, dict):
            assert needed <= set(entry), (key, needed - set(entry))


def test_every_used_key_exists_and_no_key_is_dead() -> None:
    used, defined = used_keys(), set(CATALOGS.catalogs["en"])
    assert used - defined == set(), "missing in the catalogs"
    assert defined - used == set(), "defined but never used"


def test_plural_choice_and_nested_texts() -> None:
    one = CATALOGS.render(Text("practice.gave_up", {"name": "A", "n": 1, "code": "1234"}), "en")
    many = CATALOGS.render(Text("practice.gave_up", {"name": "A", "n": 3, "code": "1234"}), "en")
    assert "1 attempt." in one and "3 attempts." in many
    nested = CATALOGS.render(Text("duel.result_win", {"name": "A"}), "de")
    assert nested != CATALOGS.render(Text("duel.result_win", {"name": "A"}), "en")


def test_language_pick_order() -> None:
    assert CATALOGS.pick(None, "de-AT", "en") == "de"
    assert CATALOGS.pick("xx", None) == "en"
