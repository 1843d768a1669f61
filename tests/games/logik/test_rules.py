"""Logik as a state machine: docs/rules.md §2 — pegs, the simultaneous reveal, every end, sides."""

from __future__ import annotations

import json

import pytest

from bot.texts.i18n import Catalogs
from bot.texts.option_words import option_vocabulary
from core import pegs, serial
from core.errors import GameError
from core.games import challenge, challenge_events
from core.games.actions import Accept, Cancel, Decline, Guess, Resign, SetSecret, Timeout
from core.games.logik import GAME as LOGIK_GAME
from core.games.logik import events as logik_events
from core.games.logik import presenter as logik_presenter
from core.games.logik import rules as logik
from core.messages import Actor
from core.scoring import bulls_cows
from tests.games.logik.common import CHAT, LETTERS, A, B, ctx, playing, round_

OPTION_WORDS = option_vocabulary(Catalogs())  # every catalog's option words, as the App reads them


@pytest.mark.parametrize(("secret", "guess", "black", "white"), [
    ("12345", "12345", 5, 0),
    ("12345", "54321", 1, 4),
    ("12345", "66666", 0, 0),
    ("11223", "22111", 0, 4),  # multiset: each peg matched at most once
    ("11111", "11222", 2, 0),  # surplus copies earn nothing
    ("12222", "21111", 0, 2),
    ("66221", "26668", 1, 2),  # the 1A2B example 6622/2666 extended: 1 black, 2 white, not 3
    ("81818", "18181", 0, 4),
    ("12312", "32121", 1, 4),
    ("77777", "77778", 4, 0),
])
def test_pegs_table(secret: str, guess: str, black: int, white: int) -> None:
    assert bulls_cows(secret, guess) == (black, white)


@pytest.mark.parametrize(("text", "code"), [
    ("12345", "12345"), ("rgbyo", "12345"), ("R G B Y O", "12345"), ("r,g,b,y,o", "12345"),
    ("KSWLP", "88766"), ("ee4y1", "44441"), ("1r2g3", "11223"), ("  88888 ", "88888"),
])
def test_rows_as_digits_and_initials_of_every_language(text: str, code: str) -> None:
    assert pegs.parse_row(text, LETTERS) == code


@pytest.mark.parametrize(("text", "error"), [
    ("1234", "logik.row_length"), ("123456", "logik.row_length"), ("12390", "logik.bad_symbol"),
    ("rgbxz", "logik.bad_symbol"), ("", "logik.row_length"), ("1234ä", "logik.bad_symbol"),
])
def test_bad_rows_say_why(text: str, error: str) -> None:
    with pytest.raises(GameError) as err:
        pegs.parse_row(text, LETTERS)
    assert err.value.code == error


def test_accepts_text_only_rows_of_colours() -> None:
    s = playing()
    assert logik.accepts_text(s, "RGBYK") and logik.accepts_text(s, "r g b y k") and logik.accepts_text(s, "1r2g3")
    assert not logik.accepts_text(s, "12345")  # a digit run is routed anyway
    assert not logik.accepts_text(s, "hello there")
    assert not logik.accepts_text(s, "ok!") and not logik.accepts_text(s, "hallo")  # chatter, not a row
    # near-rows are taken, to be refused with the reason: a wrong count, one symbol that is no colour
    assert logik.accepts_text(s, "rgby") and logik.accepts_text(s, "rgbyx") and logik.accepts_text(s, "1 2 3 4 9")
    assert logik.accepts_text(s, "r2g4x") and not logik.accepts_text(s, "haha") and not logik.accepts_text(s, "a b")


@pytest.mark.parametrize(("args", "expected"), [
    ((), (None, 10)), (("bob",), ("bob", 10)), (("bob", "rows", "12"), ("bob", 12)), (("rows=8",), (None, 8)),
    (("9", "<@7>"), ("<@7>", 9)), (("reihen", "11", "anna"), ("anna", 11)),
])
def test_options(args: tuple[str, ...], expected: tuple[str | None, int]) -> None:
    assert logik.parse_options(args, OPTION_WORDS) == expected


@pytest.mark.parametrize("args", [("rows", "7"), ("13",), ("bob", "carol"), ("rows",)])
def test_bad_options(args: tuple[str, ...]) -> None:
    with pytest.raises(GameError):
        logik.parse_options(args, OPTION_WORDS)


def test_challenge_accept_secrets_start_and_sides() -> None:
    s, ev = logik.new(A, B, 10, LETTERS, ctx())
    assert s.phase is challenge.Phase.CHALLENGE and s.white == "a"
    assert [p.user_id for p in LOGIK_GAME.seated(s)] == ["a"]
    s, ev = logik.apply(s, Accept("Bob"), "b", ctx())
    assert [e.type for e in ev] == ["accepted", "secrets_wanted"]
    s, ev = logik.apply(s, SetSecret("rgbyo"), "a", ctx())
    assert s.secrets["a"] == "12345" and "12345" not in json.dumps(serial.dump(ev))
    with pytest.raises(GameError) as err:
        logik.apply(s, SetSecret("11111"), "a", ctx())
    assert err.value.code == "secret_locked"
    s, ev = logik.apply(s, SetSecret(None), "b", ctx(5))
    assert len(s.secrets["b"]) == 5 and set(s.secrets["b"]) <= set("12345678")
    assert s.phase is challenge.Phase.PLAYING and [e.type for e in ev] == ["secret_set", "started"]
    assert logik.side(s, "a") == "white" and logik.side(s, "b") == "black"


def test_a_round_is_revealed_only_when_both_rows_are_in() -> None:
    s = playing("12345", "54321")
    s1, ev = logik.apply(s, Guess("54321"), "a", ctx())  # Alice's row cracks Bob's code …
    assert [e.type for e in ev] == ["submitted"] and s1.rows == {"a": [], "b": []}
    assert ev == [logik_events.Submitted(by="a", round=1)]  # … but nothing shows
    out = logik_presenter.present(1, s1, ev, CHAT)
    assert [m.text.key for m in out] == ["logik.submitted"] and not any(isinstance(m.to, Actor) for m in out)
    assert "54321" not in json.dumps(serial.dump([m.text for m in out]), ensure_ascii=False)
    with pytest.raises(GameError) as err:  # a second row in the same round
        logik.apply(s1, Guess("11111"), "a", ctx())
    assert err.value.code == "logik.already_submitted"
    s2, ev = logik.apply(s1, Guess("11111"), "b", ctx())
    assert [e.type for e in ev] == ["submitted", "revealed", "solved", "finished"]
    assert s2.rows["a"][0] == logik.Row("54321", 5, 0) and s2.rows["b"][0] == logik.Row("11111", 1, 0)
    assert s2.outcome == "win" and s2.winner == "a" and s2.solved_round == 1
    out = logik_presenter.present(1, s2, ev, CHAT)
    assert [m.text.key for m in out] == ["logik.revealed", "logik.final"]
    assert out[-1].image and out[-1].image.startswith(b"\x89PNG")


def test_order_of_submission_does_not_matter() -> None:
    s = playing("12345", "54321")
    s_ab, _ = round_(s, "11111", "22222")
    s_ba, _ = logik.apply(s, Guess("22222"), "b", ctx())
    s_ba, _ = logik.apply(s_ba, Guess("11111"), "a", ctx())
    assert s_ab.rows == s_ba.rows


def test_both_solve_in_the_same_round_draw() -> None:
    s = playing("12345", "54321")
    s, _ = round_(s, "11111", "22222")
    s, types = round_(s, "54321", "12345")
    assert types[-2:] == ["both_solved", "finished"] and s.outcome == "draw" and s.winner is None
    assert s.match.draws == 1 and {r.outcome for r in logik.results(s)} == {"draw"}


def test_black_solves_black_wins() -> None:
    s = playing("12345", "54321")
    s, _ = round_(s, "11111", "12345")
    assert s.winner == "b"
    rows = {r.user_id: (r.outcome, r.side, r.attempts) for r in logik.results(s)}
    assert rows == {"a": ("loss", "white", 1), "b": ("win", "black", 1)}


def test_all_rows_used_draw() -> None:
    s = playing("12345", "54321", rows=8)
    for i in range(8):
        assert s.phase is challenge.Phase.PLAYING and logik.round_no(s) == i + 1
        s, types = round_(s, "66666", "77777")
    assert types[-2:] == ["rows_used", "finished"] and s.outcome == "draw" and len(s.rows["a"]) == 8
    with pytest.raises(GameError) as err:
        logik.apply(s, Guess("12345"), "a", ctx())
    assert err.value.code == "game_over"


def test_resign_and_timeout() -> None:
    s = playing()
    s1, _ = logik.apply(s, Resign(), "b", ctx())
    assert s1.winner == "a" and s1.outcome == "resigned" and s1.match.wins == {"a": 1}
    s0, ev = logik.apply(s, Timeout(), None, ctx())  # both rows missing: nobody alone owed it
    assert ev[0] == challenge_events.TimedOut(idle=["a", "b"])
    assert {r.outcome for r in logik.results(s0)} == {"abandoned"}
    assert s0.match.wins == {} and s0.match.draws == 0 and s0.winner is None
    s, _ = logik.apply(s, Guess("11111"), "a", ctx())
    s2, ev = logik.apply(s, Timeout(), None, ctx())  # b's row was missing: b loses
    assert ev[0] == challenge_events.TimedOut(idle=["b"]) and s2.winner == "a" and s2.outcome == "timeout"
    assert {r.user_id: r.outcome for r in logik.results(s2)} == {"a": "win", "b": "loss"}
    assert s2.match.wins == {"a": 1}


def test_decline_cancel_and_who_may_act() -> None:
    s, _ = logik.new(A, B, 10, LETTERS, ctx())
    with pytest.raises(GameError):
        logik.apply(s, Accept("Alice"), "a", ctx())
    with pytest.raises(GameError):
        logik.apply(s, Accept("Carol"), "c", ctx())
    with pytest.raises(GameError):
        logik.apply(s, Guess("12345"), "a", ctx())
    d, _ = logik.apply(s, Decline(), "b", ctx())
    assert d.outcome == "declined" and logik.results(d) == []
    c, _ = logik.apply(s, Cancel(), "a", ctx())
    assert c.outcome == "cancelled"
    with pytest.raises(GameError):
        logik.new(A, A, 10, LETTERS, ctx())
    with pytest.raises(GameError):
        logik.new(A, B, 13, LETTERS, ctx())
    p = playing()
    with pytest.raises(GameError) as err:
        logik.apply(p, Guess("12345"), "c", ctx())
    assert err.value.code == "not_a_player"
    with pytest.raises(GameError) as err:
        logik.cancel_action(p, "a")
    assert err.value.code == "logik.cancel_running"


def test_open_challenge_anyone_accepts_and_plays_black() -> None:
    s, _ = logik.new(A, None, 10, LETTERS, ctx())
    assert LOGIK_GAME.can_answer(s, "c") == "open" and LOGIK_GAME.can_answer(s, "a") is None
    s, _ = logik.apply(s, Accept("Carol"), "c", ctx())
    assert s.opponent and s.opponent.name == "Carol" and logik.side(s, "c") == "black"


def test_rematch_swaps_colours_and_keeps_the_score() -> None:
    s = playing("12345", "54321")
    s, _ = round_(s, "54321", "11111")  # Alice (white) wins
    r, _ = logik.rematch(s, "b", ctx())
    assert r.white == "b" and r.offered_by == "b" and r.match.wins == {"a": 1} and r.rows_max == s.rows_max
    assert LOGIK_GAME.can_answer(r, "a") == "targeted" and LOGIK_GAME.can_answer(r, "b") is None
    r, _ = logik.apply(r, Accept("Alice"), "a", ctx())
    r, _ = logik.apply(r, SetSecret("11111"), "a", ctx())
    r, _ = logik.apply(r, SetSecret("22222"), "b", ctx())
    r, _ = round_(r, "22222", "11111")
    assert r.outcome == "draw" and r.match.wins == {"a": 1} and r.match.draws == 1
    sides = {x.user_id: x.side for x in logik.results(r)}
    assert sides == {"a": "black", "b": "white"}
    again, _ = logik.rematch(r, "a", ctx())
    assert again.white == "a"
    with pytest.raises(GameError):
        logik.rematch(playing(), "a", ctx())


def test_feedback_in_words_and_symbols() -> None:
    from bot.texts.i18n import Catalogs

    cats = Catalogs()
    t = logik_presenter.row_line("Alice", 3, logik.Row("11235", 2, 1))
    en, de = cats.render(t, "en"), cats.render(t, "de")
    assert en == "Alice #3: 🟥1R 🟥1R 🟩2G 🟦3B 🟧5O → ⚫⚫⚪ (2 black, 1 white)"
    assert de.endswith("(2 schwarze, 1 weißer)")
    # every peg carries the reader's colour initial beside its number (issue 5)
    assert cats.render(t, "ru").startswith("Alice #3: 🟥1К 🟥1К 🟩2З 🟦3С 🟧5О → ")
    assert de.startswith("Alice #3: 🟥1R 🟥1R 🟩2G 🟦3B 🟧5O → ")
    assert "🟨4E" in cats.render(logik_presenter.pegs("48888"), "de")
    one = cats.render(logik_presenter.feedback(logik.Row("11111", 1, 0)), "de")
    assert one == "⚫ (1 schwarzer, 0 weiße)"
    assert cats.render(logik_presenter.feedback(logik.Row("11111", 0, 0)), "en") == "– (0 black, 0 white)"
