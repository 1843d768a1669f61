"""Hypothesis: any sequence of actions, valid or not, never crashes, never breaks the invariants,
refusals change nothing, and every state round-trips through JSON."""

from __future__ import annotations

import json
import random

from hypothesis import given, settings
from hypothesis import strategies as st

from core import serial
from core.errors import GameError
from core.games.base import Ctx, Player
from core.games.kegeln import actions, options, presenter, rules
from core.games.kegeln.state import Phase, State
from core.messages import Chat

CHAT = Chat("console", "#t", False)
actors = st.sampled_from(["s", "x", None])
moves = st.one_of(
    st.builds(actions.Pins, st.one_of(st.integers(-3, 12).map(str), st.text(max_size=3)),
              st.one_of(st.none(), st.integers(-1, 6))),
    st.builds(actions.Place, st.integers(-1, 6)),
    st.builds(actions.Undo),
    st.builds(actions.Decide, st.integers(-1, 5)),
    st.builds(actions.HandOver, st.sampled_from([Player("s", "S"), Player("t", "T")])),
)
setups = st.one_of(
    st.tuples(st.sampled_from(["high", "low"]), st.integers(2, 6).map(str), st.just("A"), st.just("B"),
              st.just("C")),
    st.just(("low", "2", "teams", "A", "B", "/", "C")),
    st.just(("high", "3", "teams", "A", "/", "B", "/", "C", "D", "/", "E")),
)


@settings(max_examples=150, deadline=None)
@given(setup=setups, steps=st.lists(st.tuples(moves, actors), max_size=60))
def test_arbitrary_actions(setup: tuple[str, ...], steps: list[tuple[object, str | None]]) -> None:
    ctx = Ctx(1.0, random.Random(0))
    s, ev = rules.new(options.parse_setup(setup), Player("s", "S"), ctx)
    presenter.present(1, s, ev, CHAT)
    for action, actor in steps:
        before = serial.dump(s)
        try:
            s, ev = rules.apply(s, action, actor, ctx)
        except GameError:
            assert serial.dump(s) == before
            continue
        presenter.present(1, s, ev, CHAT)
        presenter.board(1, s, CHAT)
        assert serial.load(State, json.loads(json.dumps(serial.dump(s)))) == s
        counts = [sum(t.member == i for t in s.throws) for i in range(len(s.members))]
        assert max(counts) - min(counts) <= 1 and max(counts) <= s.digits
        for i in range(len(s.members)):
            positions = [t.position for t in s.throws if t.member == i]
            assert len(positions) == len(set(positions))
        if s.phase is Phase.FINISHED:
            break
