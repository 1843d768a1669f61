"""The message catalogs: complete in every language, same placeholders, no dead keys."""

from __future__ import annotations

import random
import re
import string
from datetime import date
from pathlib import Path

import pytest
from babel import Locale

from bot.games.registry import GAMES, commands
from bot.texts.i18n import Catalogs, shipped_owners
from bot.texts.option_words import OPTION_WORDS
from core.codes import CodeRules
from core.errors import GameError
from core.games.base import Ctx, Player
from core.games.challenge import ChallengeGame
from core.games.challenge_presenter import FLOW_TEXTS
from core.games.kegeln import actions, options, rules
from core.games.practice.rules import RATINGS
from core.messages import DayMonth, Text
from tests.example_game import plugin as example

ROOT = Path(__file__).resolve().parents[1]
EXAMPLE_GAME = ROOT / "tests" / "example_game"  # checked like a shipped game: its own catalogs, its keys used
CATALOGS = Catalogs(owners=[*shipped_owners(), EXAMPLE_GAME / "texts"])


def catalog_files(lang: str) -> list[Path]:
    """The files a language's catalog is merged from: the shared one, then its owners' (bot/texts/i18n.py)."""
    folders = [ROOT / "bot" / "data" / "locales", *(Path(str(d)) for d in CATALOGS.owners)]
    return [f / f"{lang}.toml" for f in folders if (f / f"{lang}.toml").exists()]


def placeholders(entry: object) -> set[str]:
    texts = entry.values() if isinstance(entry, dict) else [entry]
    return {name for t in texts for _, name, _, _ in string.Formatter().parse(str(t)) if name}


def used_keys() -> set[str]:
    """Keys named in code: literal keys, GameError codes, and the key families built from names."""
    source = "\n".join(p.read_text() for d in (ROOT / "core", ROOT / "bot", EXAMPLE_GAME) for p in d.rglob("*.py"))
    known = set(CATALOGS.catalogs["en"])
    literal = {k for k in re.findall(r"""["']([a-z_]+(?:\.[A-Za-z_]+)+)["']""", source) if k in known}
    errors = {f"error.{c}" for c in re.findall(r"""GameError\(\s*["']([a-z_.]+)["']""", source)}
    registered = (*commands(), *example.PLUGIN.commands)
    families = {f"cmd.{c.name}" for c in registered} | {f"help.cmd.{c.name}" for c in registered}
    families |= {f"game.{kind}" for kind in (*GAMES, example.PLUGIN.kind)}  # a game's name (/help, /stats)
    families |= {f"opt.{o}" for c in registered for o in c.options}
    families |= {f"opt.{c.name}.{o}" for c in registered for o in c.options} & known  # a command's own meaning
    families |= {k for k in known if k.startswith(OPTION_WORDS)}  # the option vocabulary reads every one
    families |= {f"rating.{r}" for r in RATINGS} | {f"lang.name.{lang}" for lang in CATALOGS.languages}
    families |= {f"{kind}.{t}" for kind, game in GAMES.items() if isinstance(game, ChallengeGame) for t in FLOW_TEXTS}
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
    """A GameError as the App says it (bot/app/app.py renders `error.<code>` with the error's params)."""
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
    state, _ = rules.new(options.parse_setup(["high", "3", "Birgit", "Klaus"]), Player("s", "S"), ctx)
    state, _ = rules.apply(state, actions.Pins("0", None), "s", ctx)
    assert state.pending == 0
    with pytest.raises(GameError) as err:
        rules.apply(state, actions.Pins("7", None), "s", ctx)
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


# ---------------------------------------------------------------- guards for the native review (issue 18)

def _texts(lang: str) -> dict[str, str]:
    """Every output text of a catalog, one entry per key and plural form (word lists are input, not output)."""
    out: dict[str, str] = {}
    for key, entry in CATALOGS.catalogs[lang].items():
        if isinstance(entry, dict):
            out.update({f"{key}[{form}]": str(text) for form, text in entry.items()})
        elif not isinstance(entry, list):
            out[key] = str(entry)
    return out


# Placeholders filled with a number: "{seconds}s" is a unit, no genitive (the check fired on it, issue 38).
NUMBERS = {"n", "seconds", "minutes", "hours", "days", "number", "guess", "low", "high", "length", "max", "min",
           "tries", "points", "rows", "games", "wins"}
GLUED_S = re.compile(r"\{(\w+)\}(?:s\b|'s?\b|s')")


def glued_genitive(text: str) -> list[str]:
    """The placeholders of `text` with a genitive s glued on, numbers left out."""
    return [name for name in GLUED_S.findall(text) if name not in NUMBERS]


def test_the_genitive_check_finds_names_not_numbers() -> None:
    assert glued_genitive("{name}s Zug · {player}'s turn · {winner}s' seger") == ["name", "player", "winner"]
    assert glued_genitive("noch {seconds}s · {n}s kvar · {name} står på tur · von {name}") == []


@pytest.mark.parametrize("lang", ["de", "sv"])
def test_no_genitive_s_glued_to_a_placeholder(lang: str) -> None:
    """"{name}s" breaks on names ending in s ("Larss slag", "Klauss"): use "von {name}" / "{name} står på tur"."""
    glued = {key: text for key, text in _texts(lang).items() if glued_genitive(text)}
    assert glued == {}


# One word per concept: the words a catalog must not use (left) because it says the concept another way (right).
GLOSSARY: dict[str, list[tuple[str, str]]] = {
    "de": [(r"\bTipps?\b", "a guess is a Versuch, a hint a Hinweis"), (r"\bNochmal\b(?! spielen)", "Revanche"),
           (r"\bRemis\b", "Unentschieden"), (r"\bClub", "Verein"), (r"\bTeam", "Mannschaft"),
           (r"\b9er\b", "Neuner"), (r"Knopf|Knöpfe", "Button"), (r"Bulle &", "Bullen und Kühe"),
           (r"angenommen\?", "nimmst du an?"), (r"„random“", "„zufall“"),
           (r"\btiefe[nmrs]?\b|Siege tief|hoch/tief", "niedrig (tief only as a typed word)"),
           (r"Versuch pro Tag|beendet deinen Versuch", "a Versuch is one guess: the daily is played einmal am Tag"),
           (r"heutige \{game\}-Tagesrätsel|heutige Tagesrätsel", "heute + Tages- says it twice: das heutige Rätsel"),
           (r"Tagespuzzle|Tagesaufgabe|Strähne", "Tagesrätsel, Serie"), (r"\bDrück\b", "Tippe auf den Button"),
           # review 3 (issue 23)
           (r"(hohen?|niedrigen?) Zahlen", "the mode is hohe/niedrige Nummern"),
           (r"vorsichtige Wertung", "konservative Schätzung"), (r"(^|: |— )[Ww]arte (noch )?auf", "Ich warte noch auf"),
           (r"Spiele? (mit \{name\} )?geschrieben|mitgeschrieben", "angeschrieben (Schreiber/anschreiben)"),
           (r"Noch \{left\} von", "Übrig: {left} von {max}"), (r"nimmt nur", "lässt nur … zu"),
           (r"Du spielst in diesem Chat schon", "an einem Spiel beteiligt (a scorer does not play)")],
    "ru": [(r"Делёж", "равенство"), (r"Бык-корова на словах", "быки и коровы на словах"),
           (r"Жребий брошен", "Жребий решил"), (r"счётчик", "записывающий"),
           (r"= \"(легко|сильно)\"", "лёгкий/сильный"),
           (r"[Оо]дна попытка в день", "попытка is one guess: сыграть можно раз в день"),
           (r"\bсдача\b", "сдаётся после {n} попытки"), (r"[Ии]грать загадку", "разгадать загадку"),
           (r"\bстрик", "серия"), (r"ни одного Pumpe\b", "ни одного промаха"),
           # review 3 (issue 23)
           (r"осторожн", "консервативная оценка"), (r"Рейтинг дуэлей", "Таблица дуэлей"),
           (r"Первое место в клубе", "Чемпион клуба"), (r"Сильному решателю", "Сильный решатель (ходов: …)"),
           (r"если это случайно", "если это ошибка"), (r"Ты уже играешь в этом чате", "участвуешь (a scorer)")],
    "bg": [(r"Равен\b", "Равенство"),
           (r"(?<!\(\{length\} букви, \{lang\}\) или напиши )„случайно“", "„случаен“ (a word: „случайно“)"),
           (r"\bРазбит\b", "Разбито"),
           (r"десетките", "десетиците"), (r"= \"(лесно|силно)\"", "лесен/силен"),
           (r"Един опит на ден", "опит is one guess: играе се веднъж на ден"),
           (r"нито една Pumpe", "нито едно празно"), (r"[Ии]грай днешната загадка", "реши днешната загадка"),
           (r"пъзел на деня|\bстрийк", "загадка на деня, серия"),
           # review 3 (issue 23)
           (r"предпазлив", "консервативна оценка"), (r"рейтинг(ът)? на играта", "рейтинг на играчите"),
           (r"Първо място в клуба", "Шампион на клуба"), (r"мастърмайнд", "Мастърмайнд"),
           (r"Вече имаш игра", "участваш (a scorer does not play)")],
    "sv": [(r"[Kk]astordning", "turordning"), (r"Protokoll:", "Protokollförare:"),
           (r"gissningslekar", "gissningsspel"),
           (r"[Ee]tt försök per dag|avslutar ditt försök", "ett försök is one guess: man spelar en gång per dag"),
           (r"Pumpen-kung", "Pumpenkung"), (r"\brankning", "rating"),
           (r"\bIdag\b|(?<!/daily )(?<!\[)\bidag\b", "i dag (idag only as a typed word)"),
           (r"dagens pussel|(?<!\{)\bstreak", "dagens gåta, svit"),
           # review 3 (issue 23)
           (r"gå med med", "gå med via"), (r"för \{day\}", "den {day}"), (r"assisterat", "spelat med hjälp"),
           (r"försiktig", "konservativ rating"), (r"(?<!\{)\bratings\b", "spelstyrka"),
           (r"(?<!god)tar bara", "godtar bara"), (r"Vill du också\?", "Vill du också vara med?")],
}


@pytest.mark.parametrize("lang", sorted(GLOSSARY))
def test_one_word_per_concept(lang: str) -> None:
    raw = "\n".join(p.read_text() for p in catalog_files(lang))
    texts = _texts(lang)
    found: list[tuple[str, ...]] = []
    for pattern, instead in GLOSSARY[lang]:
        if pattern.startswith("= "):
            found += [(pattern, instead)] if re.search(pattern, raw) else []
            continue
        found += [(key, pattern, instead) for key, text in texts.items() if re.search(pattern, text)]
    assert found == []


# Gendered forms in ru/bg that would be wrong for half the players: verbs and pronouns about a named player.
GENDERED = {
    "ru": [r"\{\w+\} (вышел|загадал|задал|открыл)\b", r"вместо него", r"упомяни его", r"\bПервым загадывает",
           r"\b(сыграть одному|играешь один)\b", r"самого себя", r"\{name\}, кто\b"],
    "bg": [r"не е задал\b", r"е посочен\b", r"\bПръв\b", r"\bсам\b", r"спомени го", r"\{name\}, който\b",
           r"Задаващият \{"],
}


@pytest.mark.parametrize("lang", sorted(GENDERED))
def test_no_masculine_forms_for_any_player(lang: str) -> None:
    found = [(key, p) for key, text in _texts(lang).items() for p in GENDERED[lang] if re.search(p, text)]
    assert found == []


QUOTES = {"de": ("„", "“"), "ru": ("«", "»"), "bg": ("„", "“"), "sv": ("”", "”"), "en": ("“", "”")}


@pytest.mark.parametrize("lang", sorted(QUOTES))
def test_quotation_marks_of_the_language(lang: str) -> None:
    """Only the language's own quotation marks, in pairs, and no straight double quotes inside a text."""
    opening, closing = QUOTES[lang]
    foreign = set("„“”«»\"") - {opening, closing}
    bad = {key: text for key, text in _texts(lang).items()
           if foreign & set(text) or (opening != closing and text.count(opening) != text.count(closing))}
    assert bad == {}


@pytest.mark.parametrize("lang", ["de", "ru", "bg", "sv"])
def test_informal_address_throughout(lang: str) -> None:
    formal = {"de": r"\b(Sie|Ihnen|Ihr(e[nmrs]?)?)\b", "ru": r"\b(Вы|Вас|Вам|Ваш\w*)\b",
              "bg": r"\b(Вие|Вас|Вам|Ваш\w*)\b", "sv": r"\bNi\b"}[lang]
    assert {k: t for k, t in _texts(lang).items() if re.search(formal, t)} == {}


def test_every_plural_text_reads_right_for_one_and_many() -> None:
    """Render each plural entry for 1, 2, 5 and 1.5 in every language: no leftover placeholder, no fallback."""
    for lang in CATALOGS.languages:
        for key, entry in CATALOGS.catalogs[lang].items():
            if not isinstance(entry, dict):
                continue
            names = placeholders(entry) - {"n"}
            for n in (1, 2, 5, 1.5):
                text = CATALOGS.render(Text(key, {"n": n, **{p: "X" for p in names}}), lang)
                assert "{" not in text and key not in text, (lang, key, n, text)


# The `one` form agrees with one thing: no plural or neuter-of-many predicate right before the count
# (bg "нужни са 1 игра" → "нужна е 1 игра"; ru "нужно 1 игра" → "нужна 1 игра").
ONE_FORM_PLURAL = {"bg": r"\b(са|нужни|\w+ени) \{n\} \w", "ru": r"\b(нужно|нужны|\w+ено|\w+ены) \{n\} \w"}


@pytest.mark.parametrize("lang", sorted(ONE_FORM_PLURAL))
def test_the_one_form_agrees_with_one(lang: str) -> None:
    bad = {key: entry["one"] for key, entry in CATALOGS.catalogs[lang].items()
           if isinstance(entry, dict) and "one" in entry and re.search(ONE_FORM_PLURAL[lang], entry["one"])}
    assert bad == {}


# ---------------------------------------------------------------- guards for the native review 3 (issue 23)

# ru: a name placeholder is always in the nominative, so it may never stand where Russian needs another case
# (after a preposition or a verb that governs one, or as a genitive after a noun): "против Бот", "реванш с Маша",
# "У Маша", "ждём Маша", "вызывает Маша", "Тренировка Маша". The sentence is built so the name stays the subject,
# an address, or follows a colon or a dash.
NAME_PLACEHOLDERS = ("name|player|opponent|other|challenger|offerer|bot|new|old|setter|starter|winner|cracker|scorer|"
                     "second|next|white|black|names|asker|last|most|candidates|opener")
RU_OBLIQUE = (r"(?i)(?<!\w)(против|с|со|у|от|до|для|без|к|ко|о|об|при|после|вместо|кроме|перед|между|через|за|над|под|"
              r"ждём|ждем|подожди|вызывает|знаю|поздравляю|[Тт]ренировка|[Рр]екорд|[Дд]уэль|[Ии]гра|игрока|игроку|"
              r"игроком)\s+\{(" + NAME_PLACEHOLDERS + r")\}")


def test_russian_names_stay_in_the_nominative() -> None:
    bad = {key: text for key, text in _texts("ru").items() if re.search(RU_OBLIQUE, text)}
    assert bad == {}


def test_the_russian_case_guard_catches_the_reported_sentences() -> None:
    for said in ("🔒 Logik #{game} против {opponent}: …", "🔁 {name} хочет реванш с {other} ({score}).",
                 "У {name} {position} уже заняты", "ряд {round}: {name} ✓ — ждём {other}", "Рекорд {name} для"):
        assert re.search(RU_OBLIQUE, said), said


@pytest.mark.parametrize("lang", ["ru", "bg", "sv"])
def test_no_english_mode_names(lang: str) -> None:
    """"high"/"low" are words a player may type (the one key that lists them says so), never the mode's name."""
    typed_words = {"error.kegeln.bad_mode"}
    bad = {key: text for key, text in _texts(lang).items()
           if key not in typed_words and re.search(r"(?<![{_\w])(high|low)(?![}_\w])", text)}
    assert bad == {}


@pytest.mark.parametrize("lang", sorted(QUOTES))
def test_a_pumpe_never_meets_another_bracket(lang: str) -> None:
    """kegeln.pumpe carries its own brackets ("Pumpe (промах, 0 кеглей)"): no text puts another right after it."""
    for key, entry in CATALOGS.catalogs[lang].items():
        if "pins" not in placeholders(entry):
            continue
        params = {p: "X" for p in placeholders(entry)} | {"pins": Text("kegeln.pumpe"), "n": 1}
        shown = CATALOGS.render(Text(key, params), lang)
        assert not re.search(r"\)\s*\(", shown), (key, shown)


@pytest.mark.parametrize("lang", sorted(QUOTES))
def test_dates_never_meet_a_second_full_stop(lang: str) -> None:
    """ru and bg dates end in "г." and bg ones in digits with dots: a text never closes with a full stop after one."""
    for key, entry in CATALOGS.catalogs[lang].items():
        dated = placeholders(entry) & {"until", "from", "day", "date"}
        if not dated:
            continue
        params: dict[str, object] = {p: "X" for p in placeholders(entry)} | {"n": 2, "start": DayMonth(9, 1)}
        params |= {p: date(2027, 8, 31) for p in dated}
        shown = CATALOGS.render(Text(key, params), lang)
        assert ".." not in shown, (key, shown)


def test_the_season_start_is_a_day_of_the_year_without_a_year() -> None:
    said = {lang: CATALOGS.render(Text("kegeln.season.set", {"start": DayMonth(9, 1), "season": "2026/27",
                                                             "until": date(2027, 8, 31)}), lang)
            for lang in CATALOGS.languages}
    assert "start on September 1:" in said["en"]
    assert "am 1. September:" in said["de"]
    assert "начинаются 1 сентября (" in said["ru"]
    assert "започват на 1 септември (" in said["bg"]
    assert "den 1 september:" in said["sv"]
    assert all(text.count("2026") == 1 for text in said.values()), said  # only in the season's name


# Each game names its own secret: a word game has a word, Logik a row; only 1A2B has a code.
CODE_WORD = {"en": r"\bcodes?\b", "de": r"Code", "ru": r"\bкод", "bg": r"\bкод", "sv": r"\bkod"}


@pytest.mark.parametrize("lang", sorted(CODE_WORD))
def test_a_word_or_a_row_is_never_called_a_code(lang: str) -> None:
    keys = [GAMES["logik"].secret_in_group, GAMES["words"].secret_in_group, "solver.bot_logik",
            "daily.secret.logik", "daily.secret.words"]
    said = {key: CATALOGS.render(Text(key, {"name": "Ann", "bot": "Bot", "level": "x", "code": "X", "game": "G",
                                            "day": "D"}), lang)
            for key in keys}
    assert {k: t for k, t in said.items() if re.search(CODE_WORD[lang], t, re.IGNORECASE)} == {}
    assert all(key not in text for key, text in said.items())  # every one of them is in the catalog
    assert len(set(said.values())) == len(keys)  # and none of them falls back to another key's text


def test_logik_counts_omgangar_in_swedish() -> None:
    """sv: a Logik round is an "omgång", as in the original rules and in Kegeln (the word game keeps "runda")."""
    logik = {k: t for k, t in _texts("sv").items() if k.startswith(("logik.", "error.logik.", "help.cmd.logik"))}
    assert {k: t for k, t in logik.items() if re.search(r"\b[Rr]und(a|an|or|orna)\b", t)} == {}


def test_bulgarian_word_prompts_say_random_without_a_gender() -> None:
    """bg: „случаен“ agrees with код/ред, not with дума: the word game's prompts say „случайно“."""
    for key in ("words.word_prompt", "words.word_prompt_again"):
        assert "„случайно“" in CATALOGS.catalogs["bg"][key]


def test_english_source_wording() -> None:
    en = _texts("en")
    assert not [k for k, t in en.items() if re.search(r"Practice of \{name\}|played today's .* already|"
                                                      r"Guess the word of \{length\}|needs \{solver\} guesses", t)]
