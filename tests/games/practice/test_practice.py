"""Practice ("Allein üben"): random code, guesses, give up, rating bands."""

import contextlib
import random

import pytest
from hypothesis import given
from hypothesis import strategies as st

from core import serial
from core.codes import CodeRules
from core.errors import GameError
from core.games.actions import GiveUp, Guess
from core.games.base import Ctx, Player
from core.games.practice import GAME as PRACTICE_GAME
from core.games.practice import events as practice_events
from core.games.practice import presenter as practice_presenter
from core.games.practice import rules as practice
from core.messages import Chat

ALICE = Player("a", "Alice")
CTX = Ctx(now=100.0, rng=random.Random(1))


def game(secret: str = "4271", rules: CodeRules | None = None) -> practice.State:
    return practice.State(rules=rules or CodeRules(4), player=ALICE, secret=secret)


@pytest.mark.parametrize(("length", "repeats", "attempts", "rating"), [
    (3, False, 1, "Genie"), (3, False, 4, "Genie"), (3, False, 5, "Profi"), (3, False, 6, "Profi"),
    (3, False, 7, "Solide"), (3, False, 9, "Solide"), (3, False, 10, "Geknackt"),
    (4, False, 5, "Genie"), (4, False, 6, "Profi"), (4, False, 7, "Profi"), (4, False, 8, "Solide"),
    (4, False, 10, "Solide"), (4, False, 11, "Geknackt"),
    (5, False, 6, "Genie"), (5, False, 7, "Profi"), (5, False, 8, "Profi"), (5, False, 12, "Solide"),
    (5, False, 13, "Geknackt"),
    # repeats allowed: one attempt more in each band
    (3, True, 5, "Genie"), (3, True, 7, "Profi"), (3, True, 10, "Solide"), (3, True, 11, "Geknackt"),
    (4, True, 6, "Genie"), (4, True, 8, "Profi"), (4, True, 11, "Solide"), (4, True, 12, "Geknackt"),
    (5, True, 7, "Genie"), (5, True, 9, "Profi"), (5, True, 13, "Solide"), (5, True, 14, "Geknackt"),
])
def test_rating_bands(length: int, repeats: bool, attempts: int, rating: str) -> None:
    assert practice.rating(CodeRules(length, repeats), attempts) == rating


def test_new_game_uses_the_injected_rng() -> None:
    a, _ = practice.new(CodeRules(5), ALICE, Ctx(0, random.Random(3)))
    b, _ = practice.new(CodeRules(5), ALICE, Ctx(0, random.Random(3)))
    assert a.secret == b.secret and CodeRules(5).validate(a.secret) == a.secret


def test_guess_and_crack() -> None:
    s, ev = practice.apply(game(), Guess("1234"), "a", CTX)
    assert ev == [practice_events.Guessed(code="1234", a=1, b=2, n=1)]
    s, ev = practice.apply(s, Guess("4271"), "a", CTX)
    assert PRACTICE_GAME.is_over(s) and s.outcome == "cracked"
    assert ev[-1] == practice_events.Cracked(n=2, rating="Genie")
    assert practice.results(s)[0].outcome == "win" and practice.results(s)[0].rating == "Genie"


@pytest.mark.parametrize(("text", "code"), [
    ("123", "code_length"), ("1123", "code_repeats"), ("12x4", "code_not_digits"), ("1234", "already_guessed")])
def test_invalid_guesses_change_nothing(text: str, code: str) -> None:
    s, _ = practice.apply(game(), Guess("1234"), "a", CTX)
    before = serial.dump(s)
    with pytest.raises(GameError) as err:
        practice.apply(s, Guess(text), "a", CTX)
    assert err.value.code == code
    assert serial.dump(s) == before and len(s.attempts) == 1


def test_give_up_reveals() -> None:
    s, ev = practice.apply(game(), GiveUp(), "a", CTX)
    assert ev == [practice_events.GaveUp(secret="4271", n=0)] and s.outcome == "gave_up"
    assert practice.results(s)[0].outcome == "gave_up"
    with pytest.raises(GameError):
        practice.apply(s, Guess("1234"), "a", CTX)


def test_only_the_player_guesses() -> None:
    with pytest.raises(GameError) as err:
        practice.apply(game(), Guess("1234"), "someone", CTX)
    assert err.value.code == "not_a_player"


def test_presenter_reveals_only_at_the_end() -> None:
    chat = Chat("console", "#t", False)
    s, ev = practice.apply(game(), Guess("1234"), "a", CTX)
    assert "4271" not in repr(practice_presenter.present(1, s, ev, chat))
    s, ev = practice.apply(s, GiveUp(), "a", CTX)
    assert "4271" in repr(practice_presenter.present(1, s, ev, chat))


def test_json_round_trip() -> None:
    s, _ = practice.apply(game(), Guess("1234"), "a", CTX)
    assert serial.load(practice.State, serial.dump(s)) == s


def test_a_game_with_hints_earns_no_rating() -> None:
    s = game()
    s.assisted = True
    s, ev = practice.apply(s, Guess("4271"), "a", CTX)
    assert ev[-1] == practice_events.Cracked(n=1, rating=None) and practice.results(s)[0].rating is None
    cracked = practice_presenter.present(1, s, ev, Chat("console", "#t", False))[-1]
    assert cracked.text.params["rating"].key == "rating.assisted"


@given(st.lists(st.text("0123456789", min_size=4, max_size=4), max_size=12), st.booleans())
def test_states_round_trip_through_json(codes: list[str], give_up: bool) -> None:
    import json
    s = game("9876")
    for code in codes:
        with contextlib.suppress(GameError):
            s, _ = practice.apply(s, Guess(code), "a", CTX)
    if give_up and not PRACTICE_GAME.is_over(s):
        s, _ = practice.apply(s, GiveUp(), "a", CTX)
    assert serial.load(practice.State, json.loads(json.dumps(serial.dump(s)))) == s
