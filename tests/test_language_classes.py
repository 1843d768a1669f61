"""Classes of translation defect kept out of every catalog (native review 4): counts that do not agree with
their noun, formal and informal address mixed, one thing named several ways, Latin words inside Cyrillic.

Each check is a function from catalogs to a list of findings, run on the shipped catalogs (which must have
none) and on the defects the review found (which it must report), so that every check can fail."""

from __future__ import annotations

import re
import string
from collections.abc import Iterator, Mapping
from pathlib import Path
from typing import Any

import pytest
from babel import Locale

from bot.texts.i18n import Catalogs, shipped_owners
from bot.yourdata.forget import CONFIRM_SECONDS
from core.club.cash.ledger import DEFAULT_FINES
from core.club.roster import MAX_AT_ONCE
from core.club.termin import MAX_AHEAD_DAYS, MAX_NOTE
from core.codes import LENGTHS as CODE_LENGTHS
from core.games.daily.rules import MAX_ATTEMPTS
from core.games.kegeln.state import MAX_PLAYERS as KEGEL_MAX_PLAYERS
from core.games.kegeln.state import MAX_TEAMS, MIN_DIGITS, MIN_PLAYERS, MIN_TEAMS
from core.games.words.state import LENGTHS as WORD_LENGTHS
from core.games.words.state import MAX_PLAYERS as WORD_MAX_PLAYERS
from core.pegs import PEGS

Catalog = Mapping[str, Any]
EXAMPLE_GAME_TEXTS = Path(__file__).resolve().parent / "example_game" / "texts"  # checked like a shipped game's
SHIPPED = Catalogs(owners=[*shipped_owners(), EXAMPLE_GAME_TEXTS]).catalogs


def texts(catalog: Catalog) -> Iterator[tuple[str, str, str]]:
    """(key, plural form or "", literal text) of every output text; word lists are input, not output."""
    for key, entry in catalog.items():
        if isinstance(entry, list):
            continue
        for form, text in (entry.items() if isinstance(entry, dict) else [("", entry)]):
            yield key, form, str(text)


def literal(text: str) -> str:
    """The text without its placeholders (a name or a number filled in is not the catalog's wording)."""
    return " ".join(lit for lit, _, _, _ in string.Formatter().parse(text))


# ---------------------------------------------------------------------------------------------------------
# 1. A count agrees with its noun: it goes through the plural forms (the entry's `n`), or can only take
#    values that share one CLDR category in that language, or stands after a label ("побед: {wins}").

# The placeholders that carry a count of things, and the values each can take where the code bounds it.
UNBOUNDED = range(0, 1000)
COUNTS: dict[str, range | tuple[int, ...]] = {
    "wins": UNBOUNDED, "games": UNBOUNDED, "throws": UNBOUNDED, "nines": UNBOUNDED, "pumpen": UNBOUNDED,
    "solved": UNBOUNDED, "played": UNBOUNDED, "total": UNBOUNDED, "votes": UNBOUNDED, "days": UNBOUNDED,
    "minutes": UNBOUNDED, "seconds": UNBOUNDED, "left": UNBOUNDED, "space": UNBOUNDED, "attempts": UNBOUNDED,
    "n": UNBOUNDED, "held": UNBOUNDED, "points": UNBOUNDED, "rows": range(6, 13),
    "length": tuple(sorted({*CODE_LENGTHS, *WORD_LENGTHS})), "pegs": (PEGS,),
    "max": UNBOUNDED, "min": UNBOUNDED,
}
# Where the same name is bounded by the game it speaks of (the constant it is filled from).
BOUNDED_BY_KEY: dict[tuple[str, str], tuple[int, ...]] = {
    ("duel.started", "max"): (10,), ("duel.started_rematch", "max"): (10,),
    **{(f"daily.prompt_{p}", "max"): (MAX_ATTEMPTS[q],) for p, q in
       (("digits", "1a2b"), ("logik", "logik"), ("words", "words"))},
    ("daily.outcome.failed", "max"): tuple(sorted(set(MAX_ATTEMPTS.values()))),
    ("error.kegeln.bad_teams", "max"): (MAX_TEAMS,), ("error.kegeln.bad_teams", "min"): (MIN_TEAMS,),
    ("error.kegeln.too_few_players", "min"): (MIN_PLAYERS,),
    ("error.kegeln.too_many_players", "max"): (KEGEL_MAX_PLAYERS,),
    ("error.words.full", "max"): (WORD_MAX_PLAYERS,),
    ("error.kegeln.bad_digits", "min"): (MIN_DIGITS,), ("error.club.too_many", "max"): (MAX_AT_ONCE,),
    ("error.termin.too_far", "days"): (MAX_AHEAD_DAYS,), ("error.termin.note_long", "max"): (MAX_NOTE,),
    ("forget.ask", "minutes"): (int(CONFIRM_SECONDS // 60),),
    # how many codes are possible: 3 digits without repeats (720) up to 5 digits with (100 000)
    ("practice.started", "space"): (720, 100_000), ("practice.started_commands", "space"): (720, 100_000),
}
# Words a number may stand before without agreeing: abbreviations and nouns that do not change with the number.
INVARIANT = {
    "ru": {"с", "мин", "сек"},
    "bg": {"с", "мин", "сек"},
    "sv": {"s", "min", "sek", "slag", "kast", "försök", "spel"},
}
# Words after a number that are no noun of it ("{wins} из {n}", "{n} till", "{held} av {max}").
NOT_ITS_NOUN = {"ru": {"из", "до", "и", "уже", "на", "в"}, "bg": {"от", "до", "и", "на", "в"},
                "sv": {"av", "till", "och", "på", "i"}}
# Russian prepositions that put the numeral and its noun in the genitive: from 2 on, one form for every number.
RU_GENITIVE = {"из", "до", "от", "для", "больше", "меньше", "около", "течение"}
AGREEING = ("ru", "bg", "sv")
COUNT_BEFORE_WORD = re.compile(r"(?:(\w+)\s+)?\{(\w+)\}\s+([^\W\d_]+)")


def categories(lang: str, values: range | tuple[int, ...]) -> set[str]:
    rule = Locale.parse(lang).plural_form
    return {rule(v) for v in values}


def count_problems(catalogs: Mapping[str, Catalog]) -> list[str]:
    found = []
    for lang in AGREEING:
        for key, form, text in texts(catalogs.get(lang, {})):
            for before, name, word in COUNT_BEFORE_WORD.findall(text):
                if name not in COUNTS or word.lower() in INVARIANT[lang] | NOT_ITS_NOUN[lang]:
                    continue
                if name == "n" and form:  # the plural form was chosen by this very number
                    continue
                values = BOUNDED_BY_KEY.get((key, name), COUNTS[name])
                seen = categories(lang, values)
                if lang == "ru" and before.lower() in RU_GENITIVE and "one" not in seen:
                    continue  # "из {length} цифр": the genitive plural for every value from 2 on
                if len(seen) > 1:
                    found.append(f"{lang} {key}{'[' + form + ']' if form else ''}: {{{name}}} {word}")
    return found


def test_every_count_agrees_with_its_noun() -> None:
    assert count_problems(SHIPPED) == []


def test_the_count_check_finds_the_reviews_defects() -> None:
    old: dict[str, Catalog] = {
        "ru": {"top.period_wins_line": {"one": "{i}. {name} — {wins} побед из {n} игры"}},
        "bg": {"top.period_wins_line": {"other": "{i}. {name} — {wins} победи от {n} игри"}},
        "sv": {"top.period_wins_line": {"one": "{i}. {name} — {wins} vunna av {n} parti"},
               "x.plain": "{name} har {games} partier"},
    }
    assert count_problems(old) == ["ru top.period_wins_line[one]: {wins} побед",
                                   "bg top.period_wins_line[other]: {wins} победи",
                                   "sv top.period_wins_line[one]: {wins} vunna", "sv x.plain: {games} partier"]
    assert count_problems({"ru": {"ok": {"few": "{n} игры", "one": "побед: {wins} из {n} игры"}}}) == []


# ---------------------------------------------------------------------------------------------------------
# 2. One register: a player is addressed with ты / ти / du, never with the formal or plural forms; those are
#    right only in the texts that speak to several people at once, listed here with whom they address.

TO_SEVERAL = {
    "duel.accepted": "both players", "duel.accepted_rematch": "both players", "logik.accepted": "both players",
    "logik.accepted_rematch": "both players", "logik.started": "both players",
    "logik.started_commands": "both players", "help.cmd.duel": "both players (they take turns)",
    "termin.moved_asked": "the whole club", "termin.remind_day": "the whole club",
    "kegeln.tie": "the table decides (plural), the scorer presses (ты/ти)",
}
FORMAL = {
    # the courtesy capital is formal wherever it stands; the lower-case plural and the plural imperative
    # (напишите, пишете, довършете) address several people
    "ru": (re.compile(r"\b(?:Вы|Вас|Вам|Вами|Ваш\w*)\b"),
           re.compile(r"\b(?:вы|вас|вам|вами|ваш\w*)\b|\b\w+(?:йте|ите|ьте)\b")),
    "bg": (re.compile(r"\b(?:Вие|Вас|Вам|Ви|Ваш\w*)\b"),
           # 2nd person plural; not the definite plural of nouns in -ове/-еве (цветовете) nor двете
           re.compile(r"\b(?:вие|ви|вас|ваш\w*)\b|\b(?!двете\b)\w+(?<!ов|ев)(?:ете|йте)\b")),
    "sv": (re.compile(r"(?<=[^\W\d_] )(?:Ni|Er|Ert|Era|Eder)\b"), None),  # mid-sentence: no capital otherwise
}


def register_problems(catalogs: Mapping[str, Catalog]) -> list[str]:
    found = []
    for lang, (courtesy, plural) in FORMAL.items():
        for key, _form, text in texts(catalogs.get(lang, {})):
            words = literal(text)
            hits = [m.group(0) for m in courtesy.finditer(words) if m.start() > 0]
            if plural is not None and key not in TO_SEVERAL:
                hits += [m.group(0) for m in plural.finditer(words)]
            if hits:
                found.append(f"{lang} {key}: {', '.join(sorted(set(hits)))}")
    return sorted(set(found))


def test_one_register_per_language() -> None:
    assert register_problems(SHIPPED) == []


def test_the_register_check_finds_the_reviews_defects() -> None:
    old: dict[str, Catalog] = {
        "ru": {"error.kegeln.cash.bad_amount": "«{amount}» — не сумма: напишите положительную сумму.",
               "error.kegeln.already_scoring": "Ты уже записываешь #{game}: доиграйте его (или /cancel).",
               "x.courtesy": "Спасибо, {name}! Ваш код принят."},
        "bg": {"error.kegeln.already_scoring": "Вече записваш #{game} тук: довършете я, преди да започнеш нова.",
               "error.kegeln.cash.usage": "Пишете така: /kasa плащане ИМЕ СУМА."},
        "sv": {"x.formal": "Tack {name}, nu är Er kod sparad."},
    }
    assert register_problems(old) == [
        "bg error.kegeln.already_scoring: довършете", "bg error.kegeln.cash.usage: Пишете",
        "ru error.kegeln.already_scoring: доиграйте", "ru error.kegeln.cash.bad_amount: напишите",
        "ru x.courtesy: Ваш", "sv x.formal: Er"]
    assert register_problems({"ru": {"duel.accepted": "Я написал вам обоим: пришлите код."},
                              "bg": {"x": "Цветовете и двете игри"}}) == []


# ---------------------------------------------------------------------------------------------------------
# 3. One name per term per language: the 0-pin throw (Pumpe) and the Kegeln round (Durchgang).

KEGELN = ("kegeln.", "tv.", "error.kegeln.", "error.tv.", "cash.", "help.cmd.kegeln", "help.cmd.wurf")
TERMS: dict[str, list[tuple[str, str, re.Pattern[str]]]] = {
    # (what, the one name, what must not be said instead); checked in every text, or only in Kegeln's
    "ru": [("the 0-pin throw", "промах (the German Pumpe only as a gloss beside it)", re.compile(r"(?i)пумп")),
           ("a Kegeln round", "раунд", re.compile(r"(?i)\bкруг\w*"))],
    "bg": [("the 0-pin throw", "празно (the German Pumpe only as a gloss beside it)", re.compile(r"(?i)пумп")),
           ("a Kegeln round", "рунд", re.compile(r"(?i)\bкръг\w*"))],
    "de": [("a Kegeln round", "Durchgang", re.compile(r"\bRunde\w*")),
           ("the evening's fines charged to the absent", "Strafenschnitt",
            re.compile(r"(?<!Strafen)(?<!Kegel-)Schnitt des Abends|(?<!Strafen)Schnitt von heute"))],
    "sv": [("a Kegeln round", "omgång", re.compile(r"(?i)\brund(?:a|an|or|orna)\b")),
           ("the evening's fines charged to the absent", "bötessnitt", re.compile(r"kvällens snitt"))],
}
GLOSS = {"ru": "промах", "bg": "празн"}  # Latin Pumpe only in a text that names the throw in the language too


def term_problems(catalogs: Mapping[str, Catalog]) -> list[str]:
    found = []
    for lang, terms in TERMS.items():
        for key, _form, text in texts(catalogs.get(lang, {})):
            words = literal(text)
            for what, name, other in terms:
                if "round" in what and not key.startswith(KEGELN):
                    continue  # the word game and Logik have their own rounds
                for m in other.finditer(words):
                    found.append(f"{lang} {key}: “{m.group(0)}” for {what}, say {name}")
            if lang in GLOSS and re.search(r"\bPumpen?\b", words) and GLOSS[lang] not in words.lower():
                found.append(f"{lang} {key}: Pumpe without {GLOSS[lang]}…")
    return sorted(set(found))


def test_one_name_per_term() -> None:
    assert term_problems(SHIPPED) == []


def test_the_term_check_finds_the_reviews_defects() -> None:
    old: dict[str, Catalog] = {
        "ru": {"tv.pumpe": "Пумпе!", "kegeln.stats": {"one": "девятки: {nines} · Pumpen: {pumpen}"},
               "tv.round": "Круг {round} из {rounds}"},
           "de": {"tv.round": "Runde {round} von {rounds}", "words.round": "Runde {round}",
                  "cash.kind.absent": "Schnitt des Abends"},
           "sv": {"cash.kind.absent": "kvällens snitt"}}
    assert [p.split(":")[0] for p in term_problems(old)] == [
        "de cash.kind.absent", "de tv.round", "ru kegeln.stats", "ru tv.pumpe", "ru tv.round",
        "sv cash.kind.absent"]


# ---------------------------------------------------------------------------------------------------------
# 4. No Latin words inside Cyrillic texts, except names, commands (/kegeln), placeholders and what a player
#    types: the fine codes a club starts with, and the English input words shown in brackets as an alternative.

NAMES = {
    # games, places and people of the examples, brands, formats, codes, the languages' own names
    "Logik", "Hausnummern", "Zahlenraten", "Pumpe", "Pumpen", "alle", "Neune", "Birgit", "Klaus", "Sven",
    "Hanne", "Bob", "Ute", "Anna", "Ben", "Gasthof", "Krone", "Discord", "Telegram", "CSV", "JSON", "ISO",
    "UTC", "EUR", "SEK", "BGN", "RUB", "WEB_PORT", "WEB_PUBLIC_URL", "English", "Deutsch", "Svenska", "Europe",
    "Excel", "XLSX", "Berlin", "Sofia", "Moscow", "Stockholm", "xAyB", "hoch", "tief", "vs", "tz", "Start",
    "bob", "verein",  # a username of the examples, the /help name of /verein
    "en", "de", "ru", "bg", "sv",  # language codes (/lang ru)
    "duel", "logik", "words", "kegeln", "daily", "kasse",  # games that are commands too (/top duel, /help kasse)
}
TYPED = {f.code for f in DEFAULT_FINES}  # the default catalogue's codes, typed as they are (/kasa глоба Клаус late)
CYRILLIC = ("ru", "bg")
LATIN_WORD = re.compile(r"(?<![\w/.#@<{-])[A-Za-z](?:[A-Za-z_'-]*[A-Za-z])?(?![\w.-])")


def input_words() -> set[str]:
    """Every word a player may type in any language (option words, Kegeln positions, game names)."""
    words: set[str] = set()
    for cat in SHIPPED.values():
        for entry in cat.values():
            if isinstance(entry, list):
                words.update(str(w).lower() for w in entry)
    return words | {"random", "high", "low"}


def latin_problems(catalogs: Mapping[str, Catalog]) -> list[str]:
    typed = input_words()
    found = []
    for lang in CYRILLIC:
        for key, _form, text in texts(catalogs.get(lang, {})):
            words = re.sub(r"/\w+|<\w+>|\S+\.(?:md|csv|json|png)\b|\bkegeln-\S+", " ", literal(text))
            for m in LATIN_WORD.finditer(words):
                word = m.group(0)
                if word in NAMES or word in TYPED or len(word) == 1:
                    continue  # a single letter is a symbol: 2A1B, teams A B / C D, N, P×
                if key.startswith("mydata.") and word in MYDATA_FIELDS:
                    continue
                bracketed = words.rfind("(", 0, m.start()) > words.rfind(")", 0, m.start())
                if bracketed and word.lower() in typed | CSV_COLUMNS:
                    continue  # "(или high, low)", "(random)": the English word is also accepted
                found.append(f"{lang} {key}: {word}")
    return sorted(set(found))


CSV_COLUMNS = {"date", "game", "member", "pins", "position", "digit", "season"}  # /kegelexport's file header
# the field names and stored values of the /mydata file that its explanations name (bot/yourdata/export.py):
# a program reads them, so they stay as they are in every language
MYDATA_FIELDS = {"id", "chat_id", "game_id", "active", "attempts", "rating", "rating_code", "locale", "code",
                 "title", "events", "amount", "mu", "sigma", "games", "yes", "win", "loss", "draw", "gave_up",
                 "OpenSkill"}


def test_no_latin_words_inside_cyrillic_texts() -> None:
    assert latin_problems(SHIPPED) == []


@pytest.mark.parametrize(("text", "word"), [
    ("Кегли: живое табло, лично тебе: [new]", "new"), ("и болтливость: [setting] [value]", "setting"),
    ("например teams Birgit Klaus / Sven Hanne.", "teams"), ("/tv new — новая ссылка.", "new")])
def test_the_latin_check_finds_the_reviews_defects(text: str, word: str) -> None:
    assert f"ru x: {word}" in latin_problems({"ru": {"x": text}})
