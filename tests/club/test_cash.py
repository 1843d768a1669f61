"""The cash box's pure core (core/club/cash/ledger.py): fines follow from the throws and are taken
back exactly by /undo, /cancel and a merge; money never goes fractional or overflows; and any sequence
of throws, undos, merges, fines and payments leaves the cash book's sum equal to the balances' sum."""

from __future__ import annotations

import random
from dataclasses import replace

import pytest
from hypothesis import given, note, settings
from hypothesis import strategies as st

from core.club.cash import ledger as cash
from core.club.cash.ledger import Catalogue, Fine, Kind, Line, Trigger
from core.errors import GameError
from core.games.base import Ctx, Player
from core.games.kegeln.actions import Cancel, Decide, Pins, Place, Undo
from core.games.kegeln.options import parse_setup
from core.games.kegeln.records import played
from core.games.kegeln.rules import apply, new
from core.games.kegeln.state import Phase, State

CTX = Ctx(1.0, random.Random(0))
SCORER = Player("s", "S")
CAT = Catalogue((Fine("pumpe", "🕳", 10, Trigger.PUMPE), Fine("lost", "🐢", 50, Trigger.LOST),
                 Fine("late", "⏰", 100)))


def game(*args: str) -> State:
    s, _ = new(parse_setup(args), SCORER, CTX)
    return s


def throw(s: State, pins: int, position: int | None = None) -> State:
    s, _ = apply(s, Pins(str(pins), position), "s", CTX)
    return s


def play(s: State, *numbers: int) -> State:
    """Two-place games: each member's two-digit number, thrown tens first, round by round."""
    for pins in [n // 10 for n in numbers]:
        s = throw(s, pins, 1)
    for pins in [n % 10 for n in numbers]:
        s = throw(s, pins)
    return s


class Book:
    """A cash book as the bot keeps it: after each move, the game's corrections are appended."""

    def __init__(self) -> None:
        self.lines: list[Line] = []

    def settle(self, s: State, game: int = 1) -> list[Line]:
        new_lines = cash.corrections(cash.booked(self.lines, game), cash.wanted(played(s), CAT), game, 0.0)
        self.lines += new_lines
        return new_lines


def test_a_pumpe_books_its_fine_and_undo_takes_it_back() -> None:
    book = Book()
    s = throw(game("high", "2", "Anna", "Ben"), 0, 0)
    assert [(ln.member, ln.code, ln.amount) for ln in book.settle(s)] == [("anna", "pumpe", 10)]
    assert book.settle(s) == []  # nothing new: booked once
    s, _ = apply(s, Undo(), "s", CTX)
    assert [(ln.member, ln.amount) for ln in book.settle(s)] == [("anna", -10)]
    assert cash.balances(book.lines) == {}
    assert [ln.kind for ln in book.lines] == [Kind.AUTO, Kind.AUTO]  # appended, never rewritten


def test_the_last_place_pays_lost_and_a_tie_for_first_pays_nothing_yet() -> None:
    book = Book()
    s = play(game("high", "2", "Anna", "Ben", "Cleo"), 91, 55, 23)
    assert s.phase is Phase.FINISHED
    book.settle(s)
    assert cash.balances(book.lines) == {"cleo": 50}
    t = play(game("high", "2", "Anna", "Ben", "Cleo"), 77, 77, 31)
    assert t.phase is Phase.TIE and cash.wanted(played(t), CAT) == {}  # not finished: no loser yet
    t, _ = apply(t, Decide(0), "s", CTX)
    assert cash.wanted(played(t), CAT) == {("cleo", "lost"): 50}


def test_a_decided_tie_places_the_other_second() -> None:
    s = play(game("high", "2", "Anna", "Ben"), 44, 44)
    s, _ = apply(s, Decide(1), "s", CTX)
    assert s.phase is Phase.FINISHED
    assert ("anna", "lost") in cash.wanted(played(s), CAT)  # the decided tie: Anna is placed second


def test_a_team_fine_is_spread_over_its_members_to_the_cent() -> None:
    s = play(game("high", "2", "teams", "A", "B", "C", "/", "D"), 11, 99, 11, 11)  # order A, D, B, C
    assert s.phase is Phase.FINISHED
    want = cash.wanted(played(s), CAT)
    assert {k: v for k, v in want.items() if k[1] == "lost"} == {("a", "lost"): 17, ("b", "lost"): 17,
                                                                 ("c", "lost"): 16}
    assert sum(v for k, v in want.items() if k[1] == "lost") == 50


def test_a_cancelled_game_takes_all_its_fines_back() -> None:
    book = Book()
    s = throw(throw(game("low", "2", "Anna", "Ben"), 0, 0), 0, 0)
    assert cash.total(book.settle(s)) == 20
    s, _ = apply(s, Cancel(), "s", CTX)
    book.settle(s)
    assert cash.total(book.lines) == 0 and len(book.lines) == 4


def test_a_merge_moves_the_fines_to_the_new_name() -> None:
    book = Book()
    s = throw(game("high", "2", "Klausi", "Ben"), 0, 0)
    book.settle(s)
    s.members[0] = replace(s.members[0], name="Klaus")  # what /kegelmerge does to the stored final state
    moved = book.settle(s)
    assert sorted((ln.member, ln.amount) for ln in moved) == [("klaus", 10), ("klausi", -10)]
    assert cash.balances(book.lines) == {"klaus": 10}


def test_merged_moves_each_games_fines_and_the_rest_of_the_balance() -> None:
    book = Book()
    s = throw(game("high", "2", "Klausi", "Ben"), 0, 0)
    book.settle(s)
    book.lines += [Line(Kind.FINE, "klausi", 100, "late", by="t"), Line(Kind.PAYMENT, "klausi", -30, by="t")]
    moved = cash.merged(book.lines, "klausi", "klaus", 5.0, "t")
    assert [(ln.kind, ln.member, ln.amount, ln.game) for ln in moved] == [
        (Kind.AUTO, "klausi", -10, 1), (Kind.AUTO, "klaus", 10, 1), (Kind.MERGED, "klausi", -70, None),
        (Kind.MERGED, "klaus", 70, None)]
    book.lines += moved
    assert cash.balances(book.lines) == {"klaus": 80}
    assert cash.merged(book.lines, "klausi", "klaus", 6.0) == []  # nothing left to move


def test_the_years_carry_closes_the_old_seasons_and_opens_the_new_one_once() -> None:
    lines = [Line(Kind.AUTO, "a", 60, "pumpe", 1, season=2025), Line(Kind.PAYMENT, "a", -20, season=2025),
             Line(Kind.FINE, "b", 100, "late", season=2024), Line(Kind.PAYMENT, "b", -100, season=2025),
             Line(Kind.FINE, "c", 10, "late", season=2026)]
    carry = cash.carried(lines, 2026, 9.0, "t")
    assert [(ln.member, ln.amount, ln.season) for ln in carry] == [("a", -40, 2025), ("a", 40, 2026)]
    lines += carry
    assert cash.carried(lines, 2026, 10.0) == []
    assert sum(ln.amount for ln in lines if ln.season < 2026) == 0
    assert cash.balances(lines) == {"a": 40, "c": 10}


def test_the_absent_pay_the_average_of_those_who_were_there() -> None:
    charged = cash.absent_charges({"a": 70, "b": 50, "c": 0, "d": 0}, ["x", "y", "x"], 1.0, "t")
    assert [(ln.member, ln.amount, ln.kind) for ln in charged] == [("x", 30, Kind.ABSENT), ("y", 30, Kind.ABSENT)]
    with pytest.raises(GameError) as err:
        cash.absent_charges({"a": 70}, ["a"], 1.0)
    assert err.value.code == "kegeln.cash.was_there"
    with pytest.raises(GameError) as err:
        cash.absent_charges({"a": 0}, ["x"], 1.0)
    assert err.value.code == "kegeln.cash.no_average"


@pytest.mark.parametrize(("typed", "cents"), [("+1,50", 150), ("-0,50", -50), ("−2", -200)])
def test_a_correction_has_a_sign(typed: str, cents: int) -> None:
    assert cash.parse_signed(typed) == cents


@pytest.mark.parametrize("typed", ["1,50", "+", "-0", "+-1", "+99999999"])
def test_a_correction_without_a_sign_or_amount_is_refused(typed: str) -> None:
    with pytest.raises(GameError):
        cash.parse_signed(typed)


@pytest.mark.parametrize(("typed", "cents"), [("2", 200), ("1,50", 150), ("1.5", 150), ("0,10 €", 10),
                                              ("€3", 300), ("3 EUR", 300), ("0.05", 5), ("10000", 1_000_000)])
def test_typed_amounts(typed: str, cents: int) -> None:
    assert cash.parse_amount(typed) == cents


@pytest.mark.parametrize(("typed", "currency"), [("12 kr", "SEK"), ("12kr", "NOK"), ("5 лв.", "BGN"), ("5 ₽", "RUB"),
                                                 ("$5", "USD"), ("5 usd", "USD")])
def test_the_clubs_own_currency_may_be_written(typed: str, currency: str) -> None:
    assert cash.parse_amount(typed, currency, iso={"USD", "EUR"}) > 0


@pytest.mark.parametrize("typed", ["5 USD", "$5", "5 ₽", "12 kr", "5 лв", "£2", "3 chf"])
def test_an_amount_in_another_currency_is_refused_not_booked_at_face_value(typed: str) -> None:
    with pytest.raises(GameError) as err:
        cash.parse_amount(typed, "EUR", iso={"USD", "EUR", "CHF"})
    assert err.value.code == "kegeln.cash.other_currency" and err.value.params["currency"] == "EUR"


@pytest.mark.parametrize(("words", "member", "rest"), [
    ("Birgit 0,30 Handy am Tisch", "birgit", ["0,30", "Handy", "am", "Tisch"]),
    ("Anna Lena 2", "anna lena", ["2"]), ("Anna 2", "anna", ["2"]), ("anna lena", "anna lena", [])])
def test_the_member_is_the_longest_known_name(words: str, member: str, rest: list[str]) -> None:
    known = {"birgit": "Birgit", "anna": "Anna", "anna lena": "Anna Lena"}
    assert cash.member_words(words.split(), known) == (member, rest)


def test_an_unknown_member_is_named_as_typed_up_to_the_amount() -> None:
    with pytest.raises(GameError) as err:
        cash.member_words(["Birgitt", "0,30", "Handy", "am", "Tisch"], {"birgit": "Birgit"})
    assert err.value.params["name"] == "Birgitt"


@pytest.mark.parametrize("typed", ["-1", "0", "0,00", "1,505", "1.000,50", "1e3", "abc", "", "10000,01",
                                   "99999999", "1/2", "½", "٣"])
def test_amounts_that_are_refused(typed: str) -> None:
    with pytest.raises(GameError) as err:
        cash.parse_amount(typed)
    assert err.value.code == "kegeln.cash.bad_amount"


def test_a_currency_without_minor_units() -> None:
    assert cash.parse_amount("15", decimals=0) == 15
    with pytest.raises(GameError):
        cash.parse_amount("1,5", decimals=0)


def test_split_and_average_are_whole_and_exact() -> None:
    assert cash.split(100, 3) == [34, 33, 33]
    assert cash.evening_average({"a": 10, "b": 20}) == 15
    assert cash.evening_average({"a": 10, "b": 11}) == 11  # 10.5 rounds half up
    assert cash.evening_average({}) == 0


def test_a_catalogue_is_checked() -> None:
    with pytest.raises(GameError):
        cash.checked([Fine("a", "", 1), Fine("a", "", 2)])
    with pytest.raises(GameError):
        cash.checked([Fine(f"f{i}", "", 1) for i in range(cash.MAX_FINES + 1)])
    with pytest.raises(GameError):
        cash.checked([Fine("a", "", cash.MAX_AMOUNT + 1)])


ops = st.lists(st.one_of(
    st.tuples(st.just("throw"), st.integers(0, 9)),
    st.tuples(st.just("throw at"), st.integers(0, 19)),
    st.tuples(st.just("place"), st.integers(0, 1)),
    st.tuples(st.just("undo"), st.just(0)),
    st.tuples(st.just("cancel"), st.just(0)),
    st.tuples(st.just("merge"), st.integers(0, 2)),
    st.tuples(st.just("pay"), st.integers(1, 5000)),
    st.tuples(st.just("fine"), st.integers(1, 5000)),
    st.tuples(st.just("correct"), st.integers(-5000, 5000)),
), max_size=40)


@settings(max_examples=200, deadline=None)
@given(steps=ops, teams=st.booleans())
def test_money_adds_up_whatever_happens(steps: list[tuple[str, int]], teams: bool) -> None:
    """The cash book's sum is the balances' sum, every automatic line a game has booked sums to what
    its state calls for, and every amount is a whole number of minor units."""
    book = Book()
    s = game("high", "2", "teams", "A", "B", "/", "C") if teams else game("low", "2", "A", "B", "C")
    names = ["a", "b", "c"]
    thrown = 0
    for op, n in steps:
        try:
            if op == "throw":
                s = throw(s, n)
            elif op == "throw at":
                s = throw(s, n % 10, n // 10)
            elif op == "place":
                s, _ = apply(s, Place(n), "s", CTX)
            elif op == "undo":
                s, _ = apply(s, Undo(), "s", CTX)
            elif op == "cancel":
                s, _ = apply(s, Cancel(), "s", CTX)
            elif op == "merge" and s.phase is Phase.FINISHED:  # /kegelmerge: the stored state renamed, the
                old = s.members[n].name                              # book moved (cash.merged), nothing left to settle
                s.members[n] = replace(s.members[n], name=old + "x")
                book.lines += cash.merged(book.lines, old.casefold(), old.casefold() + "x", 0.0, "t")
                assert book.settle(s) == []
                names[names.index(old.casefold())] = old.casefold() + "x"
            elif op == "pay":
                book.lines.append(Line(Kind.PAYMENT, names[n % 3], -n, by="t"))
            elif op == "fine":
                book.lines.append(Line(Kind.FINE, names[n % 3], n, "late", by="t"))
            elif op == "correct" and n:
                book.lines.append(Line(Kind.CORRECTION, names[abs(n) % 3], n, by="t"))
        except GameError:
            pass
        book.settle(s)
        assert cash.total(book.lines) == sum(cash.balances(book.lines).values())
        assert cash.booked(book.lines, 1) == {k: v for k, v in cash.wanted(played(s), CAT).items() if v}
        assert all(isinstance(ln.amount, int) for ln in book.lines)
        thrown = max(thrown, len(s.throws))
    note(f"throws placed at most: {thrown}")
