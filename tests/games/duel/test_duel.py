"""The 1A2B duel as a state machine: every phase and end condition of docs/rules.md §1."""

import contextlib
import json
import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from core import serial
from core.codes import CodeRules
from core.errors import GameError
from core.games import challenge
from core.games.actions import Accept, Cancel, Decline, Guess, Resign, SetSecret, Timeout
from core.games.base import Ctx, Event, Player
from core.games.duel import GAME as DUEL_GAME
from core.games.duel import events as duel_events
from core.games.duel import presenter as duel_presenter
from core.games.duel import rules as duel
from core.messages import Actor, Chat

A, B = Player("a", "Alice"), Player("b", "Bob")
CHAT = Chat("console", "#t", False)


def ctx(seed: int = 0) -> Ctx:
    return Ctx(now=1.0, rng=random.Random(seed))


def playing(secret_a: str = "1234", secret_b: str = "5678", starter: str = "a", length: int = 4) -> duel.State:
    """A duel after both secrets: Alice's secret is what Bob cracks and vice versa."""
    s, _ = duel.new(CodeRules(length), A, B, ctx())
    s, _ = duel.apply(s, Accept("Bob"), "b", ctx())
    s.starter = starter
    s, _ = duel.apply(s, SetSecret(secret_a), "a", ctx())
    s, _ = duel.apply(s, SetSecret(secret_b), "b", ctx())
    return s


def types(events: list[Event]) -> list[str]:
    return [e.type for e in events]


def test_challenge_accept_secrets_start() -> None:
    s, ev = duel.new(CodeRules(4), A, B, ctx())
    assert s.phase is challenge.Phase.CHALLENGE and types(ev) == ["challenged"]
    s, ev = duel.apply(s, Accept("Bob"), "b", ctx())
    assert s.phase is challenge.Phase.SECRETS and types(ev) == ["accepted", "secrets_wanted"]
    s, ev = duel.apply(s, SetSecret("0123"), "a", ctx())
    assert types(ev) == ["secret_set"] and "0123" not in json.dumps(serial.dump(ev))
    with pytest.raises(GameError) as err:
        duel.apply(s, SetSecret("4567"), "a", ctx())
    assert err.value.code == "secret_locked"
    s, ev = duel.apply(s, SetSecret(None), "b", ctx())  # random
    assert CodeRules(4).validate(s.secrets["b"]) and s.phase is challenge.Phase.PLAYING
    assert types(ev) == ["secret_set", "started"] and s.turn == s.starter in ("a", "b")


def test_the_lot_is_drawn_with_the_injected_rng() -> None:
    starters = set()
    for seed in range(20):
        s, _ = duel.new(CodeRules(4), A, B, ctx())
        s, _ = duel.apply(s, Accept("Bob"), "b", ctx())
        s, _ = duel.apply(s, SetSecret("0123"), "a", ctx(seed))
        s, _ = duel.apply(s, SetSecret("0123"), "b", ctx(seed))
        starters.add(s.starter)
    assert starters == {"a", "b"}


def test_open_challenge_anyone_accepts_but_not_the_challenger() -> None:
    s, _ = duel.new(CodeRules(3), A, None, ctx())
    with pytest.raises(GameError):
        duel.apply(s, Accept("Alice"), "a", ctx())
    s, _ = duel.apply(s, Accept("Carol"), "c", ctx())
    assert s.opponent == Player("c", "Carol")


def test_targeted_challenge_only_the_opponent_answers() -> None:
    s, _ = duel.new(CodeRules(4), A, B, ctx())
    for action in (Accept("Carol"), Decline()):
        with pytest.raises(GameError) as err:
            duel.apply(s, action, "c", ctx())
        assert err.value.code == "not_challenged"
    s2, _ev = duel.apply(s, Decline(), "b", ctx())
    assert s2.outcome == "declined" and duel.results(s2) == []
    s3, _ = duel.apply(s, Cancel(), "a", ctx())
    assert s3.outcome == "cancelled"


def test_alternation_and_not_your_turn() -> None:
    s = playing(starter="a")
    with pytest.raises(GameError) as err:
        duel.apply(s, Guess("1234"), "b", ctx())
    assert err.value.code == "not_your_turn"
    s, ev = duel.apply(s, Guess("5612"), "a", ctx())
    assert ev[0] == duel_events.Guessed(by="a", code="5612", a=2, b=0, n=1) and s.turn == "b"
    s, _ = duel.apply(s, Guess("1243"), "b", ctx())
    assert s.turn == "a"


@pytest.mark.parametrize(("text", "code"), [
    ("123", "code_length"), ("1123", "code_repeats"), ("abcd", "code_not_digits"), ("9012", "already_guessed")])
def test_invalid_guess_changes_nothing(text: str, code: str) -> None:
    s = playing(starter="a")
    s, _ = duel.apply(s, Guess("9012"), "a", ctx())
    s, _ = duel.apply(s, Guess("9012"), "b", ctx())  # the same code as the opponent: allowed
    before = serial.dump(s)
    with pytest.raises(GameError) as err:
        duel.apply(s, Guess(text), "a", ctx())
    assert err.value.code == code and serial.dump(s) == before


def test_starter_cracks_second_misses_starter_wins() -> None:
    s = playing(starter="a")
    s, ev = duel.apply(s, Guess("5678"), "a", ctx())
    assert types(ev) == ["guessed", "last_chance"] and not DUEL_GAME.is_over(s) and s.turn == "b"
    s, ev = duel.apply(s, Guess("4321"), "b", ctx())
    assert DUEL_GAME.is_over(s) and s.outcome == "win" and s.winner == "a"
    assert {r.user_id: r.outcome for r in duel.results(s)} == {"a": "win", "b": "loss"}


def test_starter_cracks_second_cracks_too_draw() -> None:
    s = playing(starter="b")
    s, _ = duel.apply(s, Guess("1234"), "b", ctx())
    s, _ev = duel.apply(s, Guess("5678"), "a", ctx())
    assert s.outcome == "draw" and s.winner is None and s.match.draws == 1
    assert {r.outcome for r in duel.results(s)} == {"draw"}


def test_second_cracks_first_wins_at_once() -> None:
    s = playing(starter="a")
    s, _ = duel.apply(s, Guess("0123"), "a", ctx())
    s, _ev = duel.apply(s, Guess("1234"), "b", ctx())
    assert s.outcome == "win" and s.winner == "b" and s.match.wins == {"b": 1}


def test_thirty_guesses_each_is_a_draw() -> None:
    s = playing(secret_a="9876", secret_b="9875", starter="a")
    codes = [f"{i:04d}" for i in range(1000, 1200) if len(set(f"{i:04d}")) == 4][:30]
    assert len(codes) == 30
    for i, code in enumerate(codes):
        s, _ = duel.apply(s, Guess(code), "a", ctx())
        s, ev = duel.apply(s, Guess(code), "b", ctx())
        if i < 29:
            assert not DUEL_GAME.is_over(s)
    assert s.outcome == "draw" and ev[-2] == duel_events.Draw(both_cracked=False)


def test_resign_and_timeout() -> None:
    s, _ = duel.apply(playing(), Resign(), "b", ctx())
    assert s.outcome == "resigned" and s.winner == "a"
    t, _ev = duel.apply(playing(), Timeout(), None, ctx())  # the starter owed the guess: the other wins
    winner = challenge.other(t, t.starter or "").user_id
    assert t.outcome == "timeout" and t.winner == winner
    assert {r.user_id: r.outcome for r in duel.results(t)} == {t.starter: "loss", winner: "win"}
    with pytest.raises(GameError):
        duel.apply(t, Guess("1111"), "a", ctx())


def test_rematch_swaps_starter_and_keeps_the_score() -> None:
    s = playing(starter="a")
    s, _ = duel.apply(s, Guess("0123"), "a", ctx())
    s, _ = duel.apply(s, Guess("1234"), "b", ctx())  # Bob wins
    r, _ev = duel.rematch(s, "b", ctx())
    assert r.starter == "b" and r.match.wins == {"b": 1} and r.phase is challenge.Phase.CHALLENGE
    with pytest.raises(GameError):
        duel.apply(r, Accept("Bob"), "b", ctx())  # the offerer cannot accept their own offer
    r, _ = duel.apply(r, Accept("Alice"), "a", ctx())
    r, _ = duel.apply(r, SetSecret("2345"), "a", ctx())
    r, _ = duel.apply(r, SetSecret("6789"), "b", ctx())
    assert r.turn == "b"


def test_reveal_shows_both_secrets_and_marks_only_at_the_end() -> None:
    s = playing(secret_a="1234", secret_b="5678", starter="a")
    s, ev = duel.apply(s, Guess("8765"), "a", ctx())
    msgs = duel_presenter.present(1, s, ev, CHAT)
    assert all(m.to == CHAT for m in msgs) and "5678" not in repr(msgs) and "1234" not in repr(msgs)
    s, _ = duel.apply(s, Guess("4321"), "b", ctx())
    s, _ = duel.apply(s, Guess("5678"), "a", ctx())
    s, ev = duel.apply(s, Guess("1243"), "b", ctx())
    reveal = duel_presenter.present(1, s, ev, CHAT)[-1]
    assert reveal.text.key == "duel.reveal"
    assert "Alice: 1234" in reveal.text.params["secrets"] and "Bob: 5678" in reveal.text.params["secrets"]
    lines = reveal.text.params["lines"]
    assert "8765 🟨🟨🟨🟨 0A4B" in lines and "1243 🟩🟩🟨🟨 2A2B" in lines


def test_secrets_only_go_to_their_owner_privately() -> None:
    s, _ = duel.new(CodeRules(4), A, B, ctx())
    s, ev = duel.apply(s, Accept("Bob"), "b", ctx())
    prompts = [m for m in duel_presenter.present(1, s, ev, CHAT) if isinstance(m.to, Actor)]
    assert {m.to.user_id for m in prompts if isinstance(m.to, Actor)} == {"a", "b"}
    assert all(m.fallback and m.fallback.to == CHAT for m in prompts)
    s, ev = duel.apply(s, SetSecret("0123"), "a", ctx())
    for m in duel_presenter.present(1, s, ev, CHAT):
        if "0123" in repr(m):
            assert isinstance(m.to, Actor) and m.to.user_id == "a"


actions = st.one_of(
    st.builds(Guess, st.text(max_size=8)), st.builds(SetSecret, st.none() | st.text(max_size=8)),
    st.builds(Accept, st.text(max_size=5)), st.just(Decline()), st.just(Cancel()),
    st.just(Resign()))


@settings(max_examples=200, deadline=None)
@given(st.lists(st.tuples(actions, st.sampled_from(["a", "b", "c", None])), max_size=40), st.integers(0, 99))
def test_arbitrary_moves_never_crash_and_states_round_trip(moves: list[tuple[object, str | None]], seed: int) -> None:
    s, _ = duel.new(CodeRules(4), A, None if seed % 2 else B, ctx(seed))
    for action, who in moves:
        with contextlib.suppress(GameError):
            s, _ = duel.apply(s, action, who, ctx(seed))
        assert serial.load(duel.State, json.loads(json.dumps(serial.dump(s)))) == s


def test_an_unanswered_challenge_lapses_without_statistics() -> None:
    s, _ = duel.new(CodeRules(4), A, B, ctx())
    s, ev = duel.apply(s, Timeout(), None, ctx())
    assert s.outcome == "expired" and duel.results(s) == []
    assert [m.text.key for m in duel_presenter.present(1, s, ev, CHAT)] == ["duel.timed_out"]  # no reveal, no rematch
