"""Hypothesis: peg bounds and symmetry, JSON round-trips of every state, no crash on any input."""

from __future__ import annotations

import json

from hypothesis import given, settings
from hypothesis import strategies as st

from core import pegs, serial
from core.errors import GameError
from core.games import challenge
from core.games.actions import Accept, Cancel, Decline, Guess, Resign, SetSecret, Timeout
from core.games.logik import GAME as LOGIK_GAME
from core.games.logik import presenter as logik_presenter
from core.games.logik import rules as logik
from core.scoring import bulls_cows
from tests.games.logik.common import CHAT, LETTERS, A, B, ctx, playing

codes = st.text(alphabet="12345678", min_size=5, max_size=5)


@given(codes, codes)
def test_pegs_bounded_and_symmetric(secret: str, guess: str) -> None:
    black, white = bulls_cows(secret, guess)
    assert black >= 0 and white >= 0 and black + white <= 5
    assert bulls_cows(guess, secret) == (black, white)
    assert (black == 5) == (secret == guess)
    assert black != 4 or white == 0  # four in place, the fifth cannot be elsewhere


def roundtrip(s: logik.State) -> None:
    again = serial.load(logik.State, json.loads(json.dumps(serial.dump(s))))
    assert again == s


moves = st.lists(st.tuples(st.sampled_from(["a", "b", "c", None]),
                           st.one_of(st.builds(Accept, st.sampled_from(["Bob", "Carol"])),
                                     st.builds(Decline), st.builds(Cancel), st.builds(Resign),
                                     st.builds(Timeout),
                                     st.builds(SetSecret, st.one_of(st.none(), codes, st.text(max_size=8))),
                                     st.builds(Guess, st.one_of(codes, st.text(max_size=8))))),
                 max_size=40)


@settings(max_examples=150, deadline=None)
@given(moves, st.booleans())
def test_any_sequence_keeps_a_valid_state(seq: list[tuple[str | None, object]], open_: bool) -> None:
    s, _ = logik.new(A, None if open_ else B, 8, LETTERS, ctx())
    for actor, action in seq:
        before = serial.dump(s)
        try:
            s, events = logik.apply(s, action, actor, ctx())
        except GameError:
            assert serial.dump(s) == before  # refused: untouched
            continue
        roundtrip(s)
        logik_presenter.present(1, s, events, CHAT)
        assert len({len(v) for v in s.rows.values()}) <= 1  # both boards always have as many rows
        assert all(len(v) <= s.rows_max for v in s.rows.values())
        if s.phase is challenge.Phase.PLAYING:
            assert len(s.pending) < 2


@settings(max_examples=60, deadline=None)
@given(st.lists(st.tuples(codes, codes), min_size=1, max_size=12))
def test_playing_out_round_trips(rounds: list[tuple[str, str]]) -> None:
    s = playing("12345", "87654", rows=12)
    for ra, rb in rounds:
        if LOGIK_GAME.is_over(s):
            break
        s, _ = logik.apply(s, Guess(ra), "a", ctx())
        roundtrip(s)
        s, _ = logik.apply(s, Guess(rb), "b", ctx())
        roundtrip(s)


@given(st.text(max_size=20))
def test_parse_never_crashes(text: str) -> None:
    try:
        code = pegs.parse_row(text, LETTERS)
    except GameError as err:
        assert err.code in ("logik.row_length", "logik.bad_symbol")
    else:
        assert len(code) == 5 and set(code) <= set("12345678")
    logik.accepts_text(playing(), text)
