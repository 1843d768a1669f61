"""core/serial.py (msgspec) against the walker it replaced (bench/serial.py keeps it): on states of
every game built by random moves, the JSON is the same text, either implementation loads the
other's JSON to the same state (value and types), and a clone is equal and shares nothing mutable.
Stored games hold the walker's JSON, so a row written before the switch is loaded too."""

from __future__ import annotations

import dataclasses
import enum
import json
import random
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from bench.serial import GAMES, random_state, walker_dump, walker_load
from core import serial
from core.codes import Attempt, CodeRules
from core.games import challenge
from core.games.base import MatchScore, Player
from core.games.duel import rules as duel
from core.games.kegeln.state import Member


def typed(obj: Any) -> Any:
    """The value with every type spelt out, so 1 is not 1.0 and Phase.PLAYING is not "playing"."""
    if dataclasses.is_dataclass(obj) and not isinstance(obj, type):
        return (type(obj), tuple((f.name, typed(getattr(obj, f.name))) for f in dataclasses.fields(obj)))
    if isinstance(obj, list | tuple):
        return (type(obj), tuple(typed(v) for v in obj))
    if isinstance(obj, dict):
        return (dict, tuple((typed(k), typed(v)) for k, v in obj.items()))
    return (type(obj), obj)


def mutable_parts(obj: Any) -> dict[int, Any]:
    """Every list, dict and mutable dataclass instance reachable from `obj`, by id."""
    found: dict[int, Any] = {}

    def walk(o: Any) -> None:
        if dataclasses.is_dataclass(o) and not isinstance(o, type):
            if not type(o).__dataclass_params__.frozen:  # type: ignore[attr-defined]
                found[id(o)] = o
            for f in dataclasses.fields(o):
                walk(getattr(o, f.name))
        elif isinstance(o, list | dict):
            found[id(o)] = o
            for v in (o.values() if isinstance(o, dict) else o):
                walk(v)
        elif isinstance(o, tuple):
            for v in o:
                walk(v)

    walk(obj)
    return found


@settings(max_examples=300, deadline=None)
@given(st.sampled_from(GAMES), st.randoms(use_true_random=False), st.integers(0, 150))
def test_every_state_round_trips_as_before(game: str, rng: random.Random, moves: int) -> None:
    state = random_state(game, rng, moves)
    tp = type(state)
    text = json.dumps(serial.dump(state))
    assert text == json.dumps(walker_dump(state))  # byte for byte the JSON stored until now
    data = json.loads(text)
    for loaded in (serial.load(tp, data), walker_load(tp, data)):
        assert typed(loaded) == typed(state)
    twin = serial.clone(state)
    assert typed(twin) == typed(state)
    assert twin is not state
    assert not set(mutable_parts(twin)) & set(mutable_parts(state))  # a deep copy: nothing shared


def test_a_row_written_before_the_switch_loads() -> None:
    """A duel as the walker stored it, from before `disguise` and `next_game` existed and with a
    key no field has any more: the missing fields take their defaults, the stray key is ignored."""
    row = {"rules": {"length": 4, "repeats": False}, "challenger": {"user_id": "a", "name": "Ann"},
           "opponent": {"user_id": "b", "name": "Bob"}, "phase": "playing",
           "secrets": {"a": "1234", "b": "5678"}, "starter": None, "offered_by": None, "turn": "a",
           "attempts": {"a": [{"code": "5670", "a": 3, "b": 0}], "b": []}, "last_chance": False,
           "outcome": None, "winner": None, "match": {"wins": {"a": 2}, "draws": 1}, "updated": 1700000000,
           "retired_field": [1, 2]}
    state = serial.load(duel.State, row)
    want = duel.State(rules=CodeRules(4, False), challenger=Player("a", "Ann"), opponent=Player("b", "Bob"),
                      phase=challenge.Phase.PLAYING, secrets={"a": "1234", "b": "5678"}, turn="a",
                      attempts={"a": [Attempt("5670", 3, 0)], "b": []}, match=MatchScore({"a": 2}, 1),
                      updated=1700000000.0)
    assert state == want
    assert state.phase is challenge.Phase.PLAYING and state.disguise is None and state.next_game is None
    assert walker_load(duel.State, row) == want


class Colour(enum.Enum):
    RED = 1


@dataclasses.dataclass
class Box:
    colour: Colour
    pair: tuple[int, str]
    by_number: dict[int, str]


def test_dump_writes_enums_as_values_and_keys_as_text() -> None:
    box = Box(Colour.RED, (1, "x"), {7: "seven"})
    assert json.dumps(serial.dump(box)) == json.dumps(walker_dump(box)) == \
        '{"colour": 1, "pair": [1, "x"], "by_number": {"7": "seven"}}'
    assert serial.load(Box, json.loads(json.dumps(serial.dump(box)))) == box
    assert serial.dump([Member("Ute", None)]) == [{"name": "Ute", "team": None}]
