"""Numbers, dates, lists and words of another language, as the renderer shows them per reader (issue 9)."""

from __future__ import annotations

from datetime import date

import pytest

from bot.texts.i18n import Catalogs
from core import pegs
from core.games.base import Player
from core.games.logik import presenter as logik_presenter
from core.games.words.events import ClassicAnswer
from core.games.words.presenter import answer_text
from core.games.words.state import Options, State, Try
from core.messages import Text

CATS = Catalogs()
SCHNITT = Text("kegeln.abend.schnitt", {"names": "Hanne", "schnitt": 4.5})


@pytest.mark.parametrize(("lang", "shown"), [("en", "4.5"), ("de", "4,5"), ("ru", "4,5"), ("bg", "4,5"),
                                             ("sv", "4,5")])
def test_the_same_message_shows_a_decimal_per_language(lang: str, shown: str) -> None:
    out = CATS.render(SCHNITT, lang)
    assert f"Hanne — {shown} " in out
    assert "4.5" not in out or lang == "en"


def test_floats_get_one_decimal_ints_and_strings_stay() -> None:
    assert "— 6.0 " in CATS.render(Text("kegeln.abend.schnitt", {"names": "A", "schnitt": 6.0}), "en")
    assert "— 0,3 " in CATS.render(Text("kegeln.abend.schnitt", {"names": "A", "schnitt": 1 / 3}), "de")
    assert "— 1,234.5 " in CATS.render(Text("kegeln.abend.schnitt", {"names": "A", "schnitt": 1234.5}), "en")
    # ints (counts, game numbers) and strings (codes, the "–" of no throws) are not touched
    practice = CATS.render(Text("practice.guess", {"name": "A", "n": 1234, "code": "0123", "a": 1, "b": 2}), "de")
    assert "#1234: 0123 → 1A2B" in practice
    assert "— – " in CATS.render(Text("kegeln.abend.schnitt", {"names": "A", "schnitt": "–"}), "sv")


def test_percent_shares_are_localised_decimals() -> None:
    t = Text("logik.stats_sides", {"n": 3, "white": 1, "black": 1, "draws": 1, "wp": 100 / 3, "bp": 100 / 3,
                                   "dp": 100 / 3, "abandoned": 0})
    assert "(33.3 %)" in CATS.render(t, "en") and "(33,3 %)" in CATS.render(t, "de")


@pytest.mark.parametrize(("lang", "shown"), [("en", "Mar 7, 2026"), ("de", "07.03.2026"), ("sv", "7 mars 2026")])
def test_dates_in_the_medium_format_of_the_reader(lang: str, shown: str) -> None:
    head = CATS.render(Text("kegeln.abend.head", {"n": 2, "date": date(2026, 3, 7)}), lang)
    assert shown in head


def test_dates_in_russian_and_bulgarian_are_not_english() -> None:
    for lang in ("ru", "bg"):
        head = CATS.render(Text("kegeln.abend.head", {"n": 2, "date": date(2026, 3, 7)}), lang)
        assert "2026" in head and "Mar" not in head


def test_a_list_parameter_is_one_line_per_item_each_rendered() -> None:
    table = [Text("kegeln.club_line", {"i": 1, "name": "Sven", "games": 3, "wh": 2, "wl": 0, "nines": 4,
                                       "pumpen": 1, "schnitt": 5.25}), "2. Ute — …"]
    out = CATS.render(Text("kegeln.club", {"table": table}), "de")
    assert out.endswith("\n1. Sven — 3 · 2/0 · 9×4 · P×1 · ⌀ 5,2\n2. Ute — …")


@pytest.mark.parametrize(("reader", "game", "shown"), [
    ("ru", "ru", "🐄 корова"), ("en", "ru", "🐄 корова (cow)"), ("de", "sv", "🐂 tjur (Bulle)"),
    ("en", "en", "⚪ miss"), ("bg", "bg", "🎯 позна!"), ("sv", "de", "🎯 Treffer! (rätt!)")])
def test_word_game_answer_once_in_the_same_language_else_with_the_translation(reader: str, game: str,
                                                                              shown: str) -> None:
    state = State(opts=Options(lang=game), opener=Player("a", "A"))
    answer = {"🐄": ClassicAnswer.COW, "🐂": ClassicAnswer.BULL, "⚪": ClassicAnswer.MISS,
              "🎯": ClassicAnswer.GOT}[shown[0]]
    tr = Try(by="a", word="x", answer=answer, bulls=0, cows=0)
    assert CATS.render(answer_text(state, tr), reader) == shown


def test_logik_pegs_carry_number_and_the_readers_initial() -> None:
    row = logik_presenter.pegs("12348")
    assert CATS.render(row, "en") == "🟥1R 🟩2G 🟦3B 🟨4Y ⬛8K"
    assert CATS.render(row, "ru") == "🟥1К 🟩2З 🟦3С 🟨4Ж ⬛8Ч"
    for lang in CATS.languages:  # the initial shown is the one the parser accepts in that language
        initials = {c.number: CATS.render(Text(c.initial_key), lang) for c in pegs.COLOURS}
        assert CATS.render(logik_presenter.pegs("15678"), lang).split() == [
            f"{pegs.BY_NUMBER[n].symbol}{n}{initials[n]}" for n in (1, 5, 6, 7, 8)]


@pytest.mark.parametrize("lang", CATS.languages)
def test_every_game_has_a_name_in_every_language(lang: str) -> None:
    names = {k: CATS.render(Text(f"game.{k}"), lang) for k in ("practice", "duel", "logik", "words", "kegeln")}
    assert all(v and not v.startswith("game.") for v in names.values())
    assert names["duel"] != names["practice"]
