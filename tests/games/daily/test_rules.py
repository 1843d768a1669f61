"""The daily puzzle's rules (core/games/daily/rules.py, through its game class): each rule of docs/daily.md the
core implements — the puzzles and their codes, the answers, what a guess may be, the ten attempts, the
endings, who may move, when an attempt closes — and what the group is shown of it (no code, counts only)."""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any

import pytest

from core import serial
from core.errors import GameError
from core.games.actions import GiveUp, Guess, Timeout
from core.games.base import Ctx, Player
from core.games.daily import GAME, presenter, rules
from core.games.daily.events import DailyGuessed, DailyOver, DailyStarted
from core.games.daily.rules import DailyOutcome, Phase, State
from core.lexicon import Lexicon
from core.messages import Chat, Message

ANN, BOB = Player("a", "Ann"), Player("b", "Bob")
GROUP = Chat("console", "table", private=False)
WORDS = ("crane", "slate", "apple", "mango", "lemon", "cats")
LEXICON = Lexicon("en", frozenset(WORDS), tuple(sorted(WORDS)))
LETTERS = {"r": "1", "g": "2", "b": "3", "y": "4", "o": "5", "p": "6", "w": "7", "k": "8"}


def ctx(now: float = 100.0, seed: int = 1, lexicon: Callable[[str], Any] | None = lambda _lang: LEXICON) -> Ctx:
    return Ctx(now, random.Random(seed), lexicon)


def attempt(puzzle: str = "1a2b", secret: str = "1234", closes: float = 0.0, lang: str = "en") -> State:
    state, events = rules.new(puzzle, "2026-11-30", ANN, secret, ctx(), lang, LETTERS, closes)
    assert events == [DailyStarted(puzzle, "2026-11-30")]
    return state


def guess(state: State, code: str, actor: str | None = "a", now: float = 101.0) -> tuple[State, list[Any]]:
    return GAME.apply(state, Guess(code), actor, ctx(now))


def refused(state: State, code: str) -> str:
    """The refusal's code; the attempt is left as it was (an invalid guess costs nothing)."""
    before = serial.dump(state)
    with pytest.raises(GameError) as err:
        guess(state, code)
    assert serial.dump(state) == before
    return err.value.code


# ---------------------------------------------------------------- the puzzles and their codes

def test_the_three_puzzles_with_1a2b_the_default_and_ten_attempts_each() -> None:
    assert rules.PUZZLES == ("1a2b", "logik", "words") and rules.DEFAULT_PUZZLE == "1a2b"
    for puzzle in rules.PUZZLES:
        assert attempt(puzzle, {"1a2b": "1234", "logik": "11233", "words": "crane"}[puzzle]).max_attempts == 10


def test_an_unknown_puzzle_is_refused() -> None:
    with pytest.raises(GameError) as err:
        rules.new("chess", "2026-11-30", ANN, "x", ctx())
    assert err.value.code == "daily.unknown"


def test_a_1a2b_code_is_four_different_digits() -> None:
    for seed in range(50):
        code = rules.draw("1a2b", "en", ctx(seed=seed))
        assert len(code) == 4 and code.isdigit() and len(set(code)) == 4


def test_a_logik_code_is_five_pegs_of_eight_colours_with_repeats() -> None:
    codes = [rules.draw("logik", "en", ctx(seed=seed)) for seed in range(50)]
    assert all(len(c) == 5 and set(c) <= set("12345678") for c in codes)
    assert any(len(set(c)) < 5 for c in codes)  # repeats allowed


def test_a_word_code_is_a_common_five_letter_word_of_the_language() -> None:
    codes = {rules.draw("words", "en", ctx(seed=seed)) for seed in range(30)}
    assert codes <= {w for w in LEXICON.common if len(w) == 5} and len(codes) > 1
    with pytest.raises(GameError) as err:  # no dictionary: no word puzzle
        rules.draw("words", "en", ctx(lexicon=None))
    assert err.value.code == "words.no_dictionary"


def test_the_code_comes_from_the_injected_random_source_not_the_day() -> None:
    assert rules.draw("1a2b", "en", ctx(seed=7)) == rules.draw("1a2b", "en", ctx(seed=7))
    assert len({rules.draw("1a2b", "en", ctx(seed=s)) for s in range(20)}) > 10


# ---------------------------------------------------------------- the answers

def test_a_1a2b_guess_is_answered_with_hits_and_near_digits() -> None:
    state, events = guess(attempt(secret="1234"), "1243")
    assert events == [DailyGuessed(1, 2, 2)] and (state.rows[0].a, state.rows[0].b) == (2, 2)
    assert state.phase is Phase.PLAYING and state.outcome is None


def test_a_logik_row_may_be_typed_as_colour_initials_or_digits() -> None:
    state, events = guess(attempt("logik", "11233"), "r r g b y")
    assert state.rows[0].code == "11234" and events == [DailyGuessed(1, 4, 0)]
    state, events = guess(attempt("logik", "11233"), "31125")
    assert events == [DailyGuessed(1, 1, 3)]  # repeats count once per peg of the code


def test_a_word_guess_is_answered_with_counts_of_letters_in_place_and_elsewhere() -> None:
    _state, events = guess(attempt("words", "crane"), "slate")
    assert events == [DailyGuessed(1, 2, 0)]  # a, e in place; nothing else shared
    _state, events = guess(attempt("words", "apple"), "lemon")
    assert events == [DailyGuessed(1, 0, 2)]  # l and e elsewhere (a multiset: one e, one l)


# ---------------------------------------------------------------- an invalid guess costs nothing

@pytest.mark.parametrize(("puzzle", "secret", "text", "code"), [
    ("1a2b", "1234", "123", "code_length"),
    ("1a2b", "1234", "1123", "code_repeats"),
    ("1a2b", "1234", "12a4", "code_not_digits"),
    ("logik", "11233", "1234", "logik.row_length"),
    ("logik", "11233", "1239x", "logik.bad_symbol"),
    ("words", "crane", "cats", "words.length"),
    ("words", "crane", "zzzzz", "daily.unknown_word"),
    ("words", "crane", "cr4ne", "words.not_a_word"),
])
def test_an_invalid_guess_is_refused_with_its_reason(puzzle: str, secret: str, text: str, code: str) -> None:
    assert refused(attempt(puzzle, secret), text) == code


def test_a_code_guessed_before_is_refused() -> None:
    state, _ = guess(attempt(secret="1234"), "5678")
    assert refused(state, "5678") == "already_guessed"
    assert len(state.rows) == 1


# ---------------------------------------------------------------- how an attempt ends

def test_all_hits_solve_the_attempt() -> None:
    state, _ = guess(attempt(secret="1234"), "5678")
    state, events = guess(state, "1234")
    assert events == [DailyGuessed(2, 4, 0), DailyOver(2)]
    assert state.outcome is DailyOutcome.SOLVED and GAME.is_over(state)


def test_the_tenth_miss_fails_the_attempt() -> None:
    state = attempt(secret="1234")
    misses = ["5678", "5679", "5689", "5789", "6789", "0567", "0568", "0569", "0578", "0579"]
    for n, code in enumerate(misses, 1):
        state, events = guess(state, code)
        assert GAME.is_over(state) == (n == 10)
    assert events[-1] == DailyOver(10) and state.outcome is DailyOutcome.FAILED


def test_giving_up_and_timing_out_end_the_attempt_unsolved() -> None:
    state, events = GAME.apply(attempt(), GiveUp(), "a", ctx())
    assert events == [DailyOver(0)] and state.outcome is DailyOutcome.GAVE_UP
    state, events = GAME.apply(attempt(), Timeout(), None, ctx())
    assert events == [DailyOver(0)] and state.outcome is DailyOutcome.ABANDONED


def test_giveup_and_resign_are_the_quit_commands() -> None:
    assert isinstance(GAME.quit_action(attempt(), "a", "giveup"), GiveUp)
    assert isinstance(GAME.quit_action(attempt(), "a", "resign"), GiveUp)
    assert GAME.quit_action(attempt(), "a", "cancel") is None


def test_a_finished_attempt_takes_no_more_moves() -> None:
    state, _ = GAME.apply(attempt(), GiveUp(), "a", ctx())
    with pytest.raises(GameError) as err:
        guess(state, "1234")
    assert err.value.code == "game_over"


def test_the_outcomes_keep_their_stored_values() -> None:
    assert [o.value for o in DailyOutcome] == ["solved", "failed", "gave_up", "abandoned"]
    state, _ = guess(attempt(secret="1234"), "1234")
    assert serial.dump(state)["outcome"] == "solved"
    assert serial.load(State, serial.dump(state)).outcome is DailyOutcome.SOLVED


# ---------------------------------------------------------------- one player, privately

def test_only_its_player_plays_an_attempt() -> None:
    with pytest.raises(GameError) as err:
        guess(attempt(), "5678", actor="b")
    assert err.value.code == "not_a_player"
    assert GAME.players(attempt()) == GAME.seated(attempt()) == [ANN]


def test_the_attempt_waits_for_its_players_private_guess_while_it_runs() -> None:
    state = attempt()
    assert GAME.secret_prompt(1, state, "a") is not None and GAME.secret_prompt(1, state, "b") is None
    assert GAME.secret_action("0123") == Guess("0123") and GAME.secret_action(None) is None
    over, _ = GAME.apply(state, GiveUp(), "a", ctx())
    assert GAME.secret_prompt(1, over, "a") is None


def test_what_counts_as_a_guess_typed_in_the_group() -> None:
    """Digit runs are routed anyway; a Logik daily also takes a row of colour initials, a word daily any
    single word of five letters."""
    logik, words = attempt("logik", "11233"), attempt("words", "crane")
    assert GAME.accepts_text(logik, "rrgbb") and GAME.accepts_text(logik, "r g b y o")
    assert not GAME.accepts_text(logik, "hello") and not GAME.accepts_text(logik, "rrgb")
    assert GAME.accepts_text(words, "Slate") and not GAME.accepts_text(words, "two words")
    assert not GAME.accepts_text(words, "cats") and not GAME.accepts_text(attempt("1a2b"), "slate")


def test_daily_results_stay_out_of_the_general_statistics() -> None:
    state, _ = guess(attempt(secret="1234"), "1234")
    assert GAME.results(state) == []


# ---------------------------------------------------------------- the attempt closes after its day

def test_an_attempt_past_its_closing_time_times_out_before_any_move() -> None:
    state = attempt(closes=500.0)
    assert GAME.due_action(state, 499.0) is None
    assert isinstance(GAME.due_action(state, 500.0), Timeout)
    assert GAME.due_action(attempt(closes=0.0), 10**12) is None  # older attempts kept no closing time
    over, _ = GAME.apply(state, GiveUp(), "a", ctx())
    assert GAME.due_action(over, 10**12) is None


# ---------------------------------------------------------------- what the group sees

def _group_messages(messages: list[Message]) -> list[Message]:
    return [m for m in messages if m.to == GROUP]


def test_the_group_sees_only_a_spoiler_free_result_at_the_end() -> None:
    state = attempt(secret="1234")
    made = []
    for code in ("5614", "1324", "1234"):
        state, events = guess(state, code)
        made.append(GAME.present(7, state, events, GROUP))
    assert [_group_messages(m) for m in made[:2]] == [[], []]  # while it runs: nothing in the group
    (result,) = _group_messages(made[2])
    assert result.text.key == "daily.result_solved"
    assert result.text.params["score"] == "3/10"
    assert result.text.params["grid"].split("\n") == ["🟩🟨⬛⬛", "🟩🟩🟨🟨", "🟩🟩🟩🟩"]
    shown = repr(result.text.params)
    assert not any(code in shown for code in ("1234", "5614", "1324"))
    assert all(m.only_for_actor for m in made[2] if m.to != GROUP)


def test_an_unsolved_result_scores_x() -> None:
    state, events = GAME.apply(guess(attempt(secret="1234"), "5678")[0], GiveUp(), "a", ctx())
    (result,) = _group_messages(GAME.present(7, state, events, GROUP))
    assert result.text.key == "daily.result_failed" and result.text.params["score"] == "X/10"
    assert presenter.grid_row(4, 1, 2) == "🟩🟨🟨⬛"  # hits first, then near, then misses
