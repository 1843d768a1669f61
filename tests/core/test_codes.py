"""Code options and validation with coded errors."""

import contextlib
import random

import pytest
from hypothesis import given
from hypothesis import strategies as st

from core.codes import CodeRules, looks_like_code
from core.errors import GameError


@pytest.mark.parametrize(("length", "repeats", "space"), [
    (3, False, 720), (4, False, 5040), (5, False, 30240), (3, True, 1000), (4, True, 10000), (5, True, 100000)])
def test_code_spaces(length: int, repeats: bool, space: int) -> None:
    assert CodeRules(length, repeats).space == space


@pytest.mark.parametrize(("rules", "text", "code"), [
    (CodeRules(4), "12a4", "code_not_digits"),
    (CodeRules(4), "123", "code_length"),
    (CodeRules(4), "12345", "code_length"),
    (CodeRules(4), "1123", "code_repeats"),
    (CodeRules(4), "١٢٣٤", "code_not_digits"),  # non-ASCII digits are not digits 0–9
    (CodeRules(4), "", "code_not_digits"),
])
def test_invalid_codes(rules: CodeRules, text: str, code: str) -> None:
    with pytest.raises(GameError) as err:
        rules.validate(text)
    assert err.value.code == code


def test_valid_codes() -> None:
    assert CodeRules(4).validate(" 0123 ") == "0123"  # a leading 0 is allowed
    assert CodeRules(4, repeats=True).validate("1123") == "1123"


@pytest.mark.parametrize("length", [0, 2, 6, 10])
def test_bad_length(length: int) -> None:
    with pytest.raises(GameError) as err:
        CodeRules(length)
    assert err.value.code == "bad_length"


@given(st.integers(3, 5), st.booleans(), st.integers(0, 2**32))
def test_random_codes_are_valid(length: int, repeats: bool, seed: int) -> None:
    rules = CodeRules(length, repeats)
    code = rules.random_code(random.Random(seed))
    assert rules.validate(code) == code


def test_random_codes_are_deterministic_per_seed() -> None:
    rules = CodeRules(5)
    assert rules.random_code(random.Random(7)) == rules.random_code(random.Random(7))


@given(st.text())
def test_validate_never_crashes(text: str) -> None:
    with contextlib.suppress(GameError):
        CodeRules(4).validate(text)


def test_looks_like_code() -> None:
    assert looks_like_code("0123") and looks_like_code(" 012 ")
    assert looks_like_code("12")  # a player's mistyped guess gets a reason, not silence
    assert not looks_like_code("7") and not looks_like_code("hello") and not looks_like_code("123456789")
