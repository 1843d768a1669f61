"""The message catalogs: complete in every language, same placeholders, no dead keys."""

from __future__ import annotations

import random
import re
import string
from pathlib import Path

import pytest
from babel import Locale

from bot.commands import COMMANDS
from bot.i18n import Catalogs
from core.codes import CodeRules
from core.errors import GameError
from core.games import kegeln
from core.games.base import Ctx, Player
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


# ---------------------------------------------------------------- code items of issue 18

def _refusal(err: GameError, lang: str) -> str:
    """A GameError as the App says it (bot/app.py renders `error.<code>` with the error's params)."""
    return CATALOGS.render(Text(f"error.{err.code}", err.params), lang)


@pytest.mark.parametrize("lang", CATALOGS.languages)
@pytest.mark.parametrize("typed", ["1", "123", "12345"])
def test_code_length_error_names_the_digits_in_the_right_number(lang: str, typed: str) -> None:
    with pytest.raises(GameError) as err:
        CodeRules(4).validate(typed)
    text = _refusal(err.value, lang)
    entry = CATALOGS.catalogs[lang]["error.code_length"]
    category = Locale.parse(lang).plural_form(len(typed))
    expected = entry.get(category) or entry["other"]
    assert text == expected.format(given=len(typed), length=4), text


def test_code_length_error_reads_right_for_one_digit() -> None:
    with pytest.raises(GameError) as err:
        CodeRules(4).validate("1")
    assert _refusal(err.value, "en") == "That code has 1 digit, but this game uses 4."
    assert _refusal(err.value, "de") == "Der Code hat 1 Ziffer, aber in diesem Spiel sind es 4."


@pytest.mark.parametrize("lang", CATALOGS.languages)
def test_place_first_with_a_pumpe_waiting_says_pumpe_not_0(lang: str) -> None:
    ctx = Ctx(now=1.0, rng=random.Random(0))
    state, _ = kegeln.new(kegeln.parse_setup(["high", "3", "Birgit", "Klaus"]), Player("s", "S"), ctx)
    state, _ = kegeln.apply(state, kegeln.Pins("0", None), "s", ctx)
    assert state.pending == 0
    with pytest.raises(GameError) as err:
        kegeln.apply(state, kegeln.Pins("7", None), "s", ctx)
    text = _refusal(err.value, lang)
    pumpe = CATALOGS.render(Text("kegeln.pumpe"), lang)
    assert pumpe in text and "Birgit" in text, text
    assert not re.search(r"(?<![\d#])0(?![\d–])", text.replace(pumpe, "")), text


@pytest.mark.parametrize(("lang", "n", "category"), [
    ("ru", 1.5, "other"), ("ru", 2.0, "other"), ("ru", 1, "one"), ("ru", 3, "few"), ("ru", 5, "many"),
    ("en", 1.0, "other"), ("en", 1, "one"), ("de", 1.5, "other"), ("bg", 1, "one"), ("sv", 0.5, "other"),
])
def test_plural_choice_follows_cldr_for_fractions(lang: str, n: float, category: str) -> None:
    forms = {c: c for c in ("zero", "one", "two", "few", "many", "other")}
    assert Catalogs._plural(forms, n, lang) == category


def test_a_fraction_picks_the_fraction_form_when_rendered() -> None:
    """Russian: "1,5 очка" (CLDR `other`), never "1,5 очко" (`one`, which int(1.5) == 1 would pick)."""
    text = CATALOGS.render(Text("words.ends.points", {"n": 1.5}), "ru")
    assert text == "до 1,5 очка", text
    assert CATALOGS.render(Text("words.ends.points", {"n": 1}), "ru") == "до 1 очка"
    assert CATALOGS.render(Text("kegeln.pins", {"n": 1.5}), "ru") == "1,5 кегли"
    assert CATALOGS.render(Text("kegeln.pins", {"n": 1.0}), "en") == "1.0 pins"
