"""Localised texts: TOML catalogs, plural forms by CLDR rules (Babel).

Each language's catalog is merged from the shared one (bot/data/locales/<lang>.toml: replies, buttons, errors,
help, commands every game shares) and its owners' (each registered game's `texts/<lang>.toml` beside its
plugin, the club wing's bot/club/texts/<lang>.toml), so that a game's texts live in its own folder; a key
defined by two files is an error at start (`DuplicateKey`).

A catalog entry is a string with `{name}` placeholders, or a table of CLDR
plural categories (`one`, `few`, `many`, `other`, …) chosen by the parameter
`n`. A parameter that is itself a `Text` is rendered first, in the same language — or, when the `Text`
names its own `lang` (a word of another language, e.g. a word game's answer in the game's language), in that
language with the reader's translation beside it (`lang.gloss`), or alone when the reader speaks it.
A list or tuple parameter is rendered item by item, one per line. Numbers and dates are formatted for the
reader's language: a `float` with one decimal (`4.5` / `4,5`, Babel; a negative one, and money, with the
minus sign U+2212 in every language), a `datetime.date` in the medium
format, a `datetime.datetime` with the weekday, the date and the 24-hour time in its own zone (a club
evening's start: "Sat, Dec 12, 2026, 19:30"); an `int` stays as it is (codes are strings already).
"""

from __future__ import annotations

import logging
import sys
import tomllib
from collections.abc import Iterable, Mapping, Sequence
from datetime import date, datetime
from decimal import Decimal, InvalidOperation
from functools import cache
from importlib import resources
from importlib.resources.abc import Traversable
from typing import Any

from babel import Locale, UnknownLocaleError
from babel.dates import format_date, format_skeleton, get_datetime_format
from babel.numbers import format_currency, format_decimal, get_currency_precision

from bot.process.shipped import CLUB_TEXTS, GAMES_DIR, LOCALES
from bot.yourdata.declare import FORMER
from core.club.chart import label_step
from core.messages import BLOCK, USER_TEXT, DayMonth, Text
from core.money import Money

log = logging.getLogger("bot.texts.i18n")
UNFILLED = "–"  # what a placeholder with no parameter shows (and the error it is logged as)
_UNMARK = {ord(c): None for c in (*USER_TEXT, *BLOCK)}  # a marker typed by a user is dropped
PLURAL_CATEGORIES = {"zero", "one", "two", "few", "many", "other"}
DEFAULT_DIR: Traversable = LOCALES  # the shipped shared catalogs (bot/process/shipped.py)
TEXTS = "texts"  # the folder of an owner's catalogs, beside its code: <package>/texts/<lang>.toml


class DuplicateKey(RuntimeError):
    """One key in two catalog files of a language: which one wins would depend on the load order."""


def texts_of(plugin: object) -> Traversable:
    """The catalog folder of a registered game: `texts/` in the package its plugin is defined in (a game's
    bot-side package bot/games/<kind>/, or wherever a registered plugin lives, e.g. tests/example_game/)."""
    module = sys.modules[type(plugin).__module__]
    return resources.files(module.__package__ or module.__name__) / TEXTS


def shipped_owners() -> list[Traversable]:
    """Every catalog folder the package ships besides the shared one: the club wing's and each game's under
    bot/games/ (what `text_folders` finds through the registry for the shipped games; a test holds them equal)."""
    games = sorted((d / TEXTS for d in GAMES_DIR.iterdir() if d.is_dir() and (d / TEXTS).is_dir()),
                   key=lambda d: str(d))
    return [CLUB_TEXTS, *games]


def text_folders(plugins: Iterable[object]) -> list[Traversable]:
    """The owners' catalog folders of these registered plugins (bot/games/registry.py `PLUGINS`), with the
    club wing's; a plugin without a texts/ folder brings none."""
    return [CLUB_TEXTS, *(d for d in map(texts_of, plugins) if d.is_dir())]


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


MINUS = "\u2212"  # one minus sign in every language (sv's CLDR has it; en, de, ru, bg a hyphen)


@cache
def _decimal(value: float, lang: str) -> str:
    return _minus(format_decimal(value, format="#,##0.0", locale=lang))


def _minus(shown: str) -> str:
    """A negative number's sign as the minus sign (U+2212), the one texts write themselves (−0,10 €)."""
    return shown.replace("-", MINUS, 1)


def _plural_number(n: Any) -> int | Decimal:
    """`n` as CLDR counts it: an int stays whole; a float as shown (one decimal, like `_decimal`)."""
    if isinstance(n, bool):
        raise TypeError("a bool is no count")
    if isinstance(n, int):
        return n
    if isinstance(n, float):
        return Decimal(f"{n:.1f}")
    return Decimal(str(n).strip())


def normalise(code: str | None) -> str | None:
    """`de-DE`, `de_AT`, `DE` → `de`; None stays None."""
    if not code:
        return None
    return code.replace("_", "-").split("-")[0].lower() or None


class _Filled(dict[str, Any]):
    """A text's parameters; a placeholder without one shows `UNFILLED` and is noted in `missing`."""

    def __init__(self, params: Mapping[str, Any]) -> None:
        super().__init__(params)
        self.missing: set[str] = set()

    def __missing__(self, name: str) -> str:
        self.missing.add(name)
        return UNFILLED


def _catalog_files(directory: Traversable) -> list[Traversable]:
    files = directory.iterdir() if directory.is_dir() else iter(())
    return sorted((p for p in files if p.name.endswith(".toml")), key=lambda p: p.name)


def languages(directory: Traversable = DEFAULT_DIR) -> list[str]:
    """The languages there are catalogs of, from their file names: what `Catalogs(directory).languages` says,
    without parsing them (the command line's help lists them before the App loads the catalogs once)."""
    return sorted(p.name.removesuffix(".toml") for p in _catalog_files(directory))


def _load(path: Traversable) -> dict[str, Any]:
    with path.open("rb") as f:
        return _flatten(tomllib.load(f))


class Catalogs:
    """`directory`: the shared catalogs (one file per language; its file names say the languages);
    `owners`: the folders merged into them (None: every one the package ships, `shipped_owners`; the App
    passes those of its registered games, `text_folders`)."""

    def __init__(self, directory: Traversable = DEFAULT_DIR, fallback: str = "en",
                 owners: Sequence[Traversable] | None = None) -> None:
        self.fallback = fallback
        self.catalogs: dict[str, dict[str, Any]] = {}
        self.owners = list(shipped_owners() if owners is None else owners)
        source: dict[str, dict[str, str]] = {}  # language → key → the file that defines it
        for folder in (directory, *self.owners):
            for path in _catalog_files(folder):
                lang = path.name.removesuffix(".toml")
                if folder is not directory and lang not in self.catalogs:
                    raise RuntimeError(f"{path} is a catalog of {lang!r}, which {directory} has none of")
                merged, seen, loaded = self.catalogs.setdefault(lang, {}), source.setdefault(lang, {}), _load(path)
                for key in sorted(merged.keys() & loaded.keys())[:1]:
                    raise DuplicateKey(f"{key} is defined twice: in {seen[key]} and in {path}")
                merged.update(loaded)
                seen.update(dict.fromkeys(loaded, str(path)))
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

    def render(self, text: Text | str, lang: str, mark: bool = False) -> str:
        """`mark`: string parameters between `USER_TEXT` markers, multi-line ones between `BLOCK`
        markers (see `Outbound.marked`); the catalog text itself is never marked."""
        if isinstance(text, str):
            return text
        entry = self.catalogs.get(lang, {}).get(text.key)
        if entry is None:
            entry = self.catalogs[self.fallback].get(text.key)
        if entry is None:
            log.error("no catalog text for %s", text.key)
            return text.key
        if text.lang and text.lang != lang and text.lang in self.catalogs:
            plain = Text(text.key, text.params)
            return self.render(Text("lang.gloss", {"original": self.render(plain, text.lang, mark),
                                                   "translation": self.render(plain, lang, mark)}), lang, mark)
        params = {k: self._param(v, lang, mark) for k, v in text.params.items()}
        if isinstance(entry, dict):
            entry = self._plural(entry, text.params.get("n", 0), lang)
        filled = _Filled(params)
        try:
            out = str(entry).format_map(filled)
        except (IndexError, ValueError, AttributeError):
            log.error("catalog text %s (%s) is malformed", text.key, lang)
            return UNFILLED
        if filled.missing:  # a bug of the caller: never show the raw `{name}` to a reader
            log.error("catalog text %s (%s) was given no %s", text.key, lang, ", ".join(sorted(filled.missing)))
        return out

    def _param(self, value: Any, lang: str, mark: bool = False) -> Any:
        """A parameter as the reader of `lang` sees it (a plural `n` stays a number for the plural choice)."""
        if isinstance(value, Text):
            return self.render(value, lang, mark)
        if isinstance(value, Money):  # a NamedTuple: before the tuples
            return _minus(format_currency(Decimal(value.amount).scaleb(-get_currency_precision(value.currency)),
                                          value.currency, locale=lang))
        if isinstance(value, (list, tuple)):
            joined = "\n".join(str(self._param(v, lang, mark)) for v in value)
            return BLOCK[0] + joined + BLOCK[1] if mark and joined else joined
        if isinstance(value, str) and FORMER in value:  # a forgotten player, named in the reader's language
            value = value.replace(FORMER, self.render(Text("forget.former"), lang))
        if mark and isinstance(value, str) and value:
            plain = value.translate(_UNMARK)
            opening, closing = BLOCK if "\n" in plain else USER_TEXT
            return opening + plain + closing
        if isinstance(value, float):
            return _decimal(value, lang)
        if isinstance(value, datetime):  # before `date`, whose subclass it is
            return wall_clock(value, lang)
        if isinstance(value, date):
            return format_date(value, format="medium", locale=lang)
        if isinstance(value, DayMonth):  # a leap year, so that 29 February is a day too
            return format_skeleton("MMMMd", date(2000, value.month, value.day), locale=lang)
        return value

    @staticmethod
    def day_month(value: date, lang: str) -> str:
        """A chart axis label: day and month in digits, in the reader's order ("11/29", "29.11.")."""
        return format_skeleton("Md", value, locale=lang)

    @staticmethod
    def date_axis(days: Sequence[date], lang: str, twins: bool = True) -> list[str]:
        """A chart's x labels for `days` (oldest first): day and month (`day_month`), and under the
        first drawn label and the first drawn one of each new year the year on a second line
        ("29.11.\n2026"), in the reader's format, so that a season across New Year and a chart read
        years later say when. Drawn labels: every core/club/chart.py `label_step`-th.
        `twins=False`: a day repeated from the label before is left empty (two games of one day)."""
        step = label_step(len(days))
        labels: list[str] = []
        year_shown: int | None = None
        for i, day in enumerate(days):
            if not twins and i > 0 and day == days[i - 1]:
                labels.append("")
                continue
            label = format_skeleton("Md", day, locale=lang)
            if i % step == 0 and day.year != year_shown:
                label += "\n" + format_skeleton("y", day, locale=lang)
                year_shown = day.year
            labels.append(label)
        return labels

    @staticmethod
    def _plural(forms: Mapping[str, str], n: Any, lang: str) -> str:
        """The form for the number `n` by CLDR rules, with its real value: a fraction (a `float` counts with the
        one decimal it is shown with, so 1.5 and 2.0 both have a visible decimal) takes its own category."""
        try:
            category = _plural_rule(lang)(abs(_plural_number(n)))
        except (UnknownLocaleError, ValueError, TypeError, InvalidOperation):
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


def wall_clock(value: datetime, lang: str) -> str:
    """A moment as its zone's wall clock in the reader's language: weekday, date, 24-hour time, joined
    the way the locale joins a date and a time (CLDR's medium date-time pattern)."""
    tz = value.tzinfo
    day = format_skeleton("yMMMEd", value, tzinfo=tz, locale=lang)
    clock = format_skeleton("Hm", value, tzinfo=tz, locale=lang)
    return str(get_datetime_format("medium", locale=lang)).replace("{1}", day).replace("{0}", clock)
