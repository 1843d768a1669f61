"""Benchmark: dump, load and clone of real game states — the hand-written dataclass walker against
msgspec.

States of every game are built by random moves through the core functions (`random_state`,
also used by the round-trip property test, tests/core/test_serial.py): a random action among
plausible ones is tried, kept when the game accepts it. Per game, several states from the
start to the end of a game are timed; printed per game and implementation: microseconds per
dump (state → JSON-ready value), load (that value → state) and clone (a deep copy, which every
move makes), and the JSON size.

    python -m bench.serial [--states 40] [--repeat 2000]

`walker` is the implementation core/serial.py had before msgspec (kept here as the reference:
databases hold its JSON); `msgspec` is core/serial.py as it is.
"""

from __future__ import annotations

import argparse
import dataclasses
import enum
import functools
import json
import pickle
import random
import statistics
import time
import types
import typing
from collections.abc import Callable
from functools import cache
from typing import Any, TypeVar

import msgspec

from core import serial
from core.codes import CodeRules
from core.errors import GameError
from core.games import kegeln, words
from core.games.actions import Accept, Cancel, Decline, GiveUp, Guess, Resign, SetSecret, Timeout
from core.games.base import Ctx, Player
from core.games.duel import GAME as DUEL_GAME
from core.games.duel import rules as duel
from core.games.kegeln import actions, options
from core.games.kegeln import rules as kegeln_rules
from core.games.kegeln.state import Member, Mode, State
from core.games.logik import GAME as LOGIK_GAME
from core.games.logik import rules as logik
from core.games.practice import GAME as PRACTICE_GAME
from core.games.practice import rules as practice
from core.games.words import actions as words_actions
from core.games.words import rules as words_rules
from core.games.words.state import Mode as WordsMode
from core.games.words.state import Options as WordsOptions
from core.games.words.state import State as WordsState
from core.lexicon import Lexicon

T = TypeVar("T")


# ---------------------------------------------------------------- the reference: the walker

def walker_dump(obj: Any) -> Any:
    """A JSON-ready value for a dataclass instance (recursively)."""
    if dataclasses.is_dataclass(obj) and not isinstance(obj, type):
        return {f.name: walker_dump(getattr(obj, f.name)) for f in dataclasses.fields(obj)}
    if isinstance(obj, enum.Enum):
        return obj.value
    if isinstance(obj, list | tuple):
        return [walker_dump(v) for v in obj]
    if isinstance(obj, dict):
        return {str(k): walker_dump(v) for k, v in obj.items()}
    return obj


@cache
def _hints(cls: type) -> dict[str, Any]:
    return typing.get_type_hints(cls)


def walker_load(tp: Any, data: Any) -> Any:
    return _loader(tp)(data)


def _identity(data: Any) -> Any:
    return data


@cache
def _loader(tp: Any) -> Callable[[Any], Any]:
    origin = typing.get_origin(tp)
    if origin is typing.Union or origin is types.UnionType:
        inner = _loader(next(a for a in typing.get_args(tp) if a is not type(None)))
        return lambda data: None if data is None else inner(data)
    if origin is list:
        item = _loader(typing.get_args(tp)[0])
        return lambda data: [item(v) for v in data]
    if origin is tuple:
        args = typing.get_args(tp)
        if len(args) == 2 and args[1] is Ellipsis:
            each = _loader(args[0])
            return lambda data: tuple(each(v) for v in data)
        parts = [_loader(a) for a in args]
        return lambda data: tuple(f(v) for f, v in zip(parts, data, strict=True))
    if origin is dict:
        value = _loader(typing.get_args(tp)[1])
        return lambda data: {k: value(v) for k, v in data.items()}
    if isinstance(tp, type) and dataclasses.is_dataclass(tp):
        hints = _hints(tp)
        fields = [(f.name, _loader(hints[f.name])) for f in dataclasses.fields(tp)]
        return lambda data: tp(**{name: f(data[name]) for name, f in fields if name in data})
    if isinstance(tp, type) and issubclass(tp, enum.Enum):
        return tp
    return _identity


def walker_clone(obj: T) -> T:
    copy: T = pickle.loads(pickle.dumps(obj, pickle.HIGHEST_PROTOCOL))
    return copy


# ---------------------------------------------------------------- real states by random moves

A, B, C = Player("a", "Ann"), Player("b", "Bob"), Player("c", "Cy")
WORDS = ["crane", "slate", "plant", "crate", "trace", "cater", "react", "stone", "notes", "onset", "lemon",
         "melon", "apple", "paper", "hello", "world", "about", "house", "mouse", "tiger", "zebra", "sheep"]
LEXICON = Lexicon("en", frozenset(WORDS), tuple(sorted(WORDS)))
LOGIK_LETTERS = {"r": "1", "g": "2", "b": "3", "y": "4", "o": "5", "p": "6", "w": "7", "k": "8"}
GAMES = ("practice", "duel", "logik", "words", "kegeln")


def _code(rng: random.Random, length: int, alphabet: str = "0123456789", repeats: bool = False) -> str:
    if repeats:
        return "".join(rng.choice(alphabet) for _ in range(length))
    return "".join(rng.sample(alphabet, length))


def _secret_of(state: Any, actor: str | None) -> str | None:
    """The code `actor` is cracking (so random play also reaches the end of a game)."""
    secrets: dict[str, str] = getattr(state, "secrets", {})
    return next((code for owner, code in secrets.items() if owner != actor), None)


def _rarely(rng: random.Random, ending: list[object], playing: list[object]) -> object:
    """Mostly an action that plays on; now and then (2 %) one that may end the game."""
    return rng.choice(ending if rng.random() < 0.02 else playing)


def _duel_action(s: duel.State, actor: str | None, rng: random.Random) -> object:
    n, rep = s.rules.length, s.rules.repeats
    secret = _secret_of(s, actor)
    return _rarely(rng, [Decline(), Cancel(), Resign(), Timeout()], [
        Accept(rng.choice(["Bob", "Cy"])), SetSecret(_code(rng, n, repeats=rep)), SetSecret(None),
        *[Guess(_code(rng, n, repeats=rep))] * 8, *([Guess(secret)] if secret else [])])


def _logik_action(s: logik.State, actor: str | None, rng: random.Random) -> object:
    secret = _secret_of(s, actor)
    return _rarely(rng, [Decline(), Cancel(), Resign(), Timeout()], [
        Accept(rng.choice(["Bob", "Cy"])), SetSecret(_code(rng, 5, "12345678", repeats=True)), SetSecret(None),
        *[Guess(_code(rng, 5, "12345678", repeats=True))] * 8, *([Guess(secret)] if secret else [])])


def _practice_action(s: practice.State, actor: str | None, rng: random.Random) -> object:
    n, rep = s.rules.length, s.rules.repeats
    return _rarely(rng, [GiveUp(), Timeout(), Guess(s.secret)], [Guess(_code(rng, n, repeats=rep))])


def _words_action(s: WordsState, actor: str | None, rng: random.Random) -> object:
    a = words_actions
    return _rarely(rng, [Cancel(), Timeout(), GiveUp(), a.Leave()], [
        a.Join(rng.choice(["Bob", "Cy"])), a.Begin(), a.Vote(), a.Skip(),
        a.SetWord(rng.choice(WORDS)), a.SetWord(None),
        *[a.GuessWord(rng.choice(WORDS))] * 6, *([a.GuessWord(s.secret)] if s.secret else [])])


def _kegeln_action(s: State, actor: str | None, rng: random.Random) -> object:
    return _rarely(rng, [actions.Cancel(), actions.Undo()], [
        *[actions.Pins(str(rng.randrange(10)), rng.choice([None, *range(s.digits)]))] * 6,
        *[actions.Place(rng.randrange(s.digits))] * 2,
        actions.HandOver(rng.choice([A, B])), actions.Decide(rng.randrange(len(s.members)))])


def _start(game: str, rng: random.Random, ctx: Ctx) -> tuple[Any, Any, Callable[..., object]]:
    """A new game of the kind: its state, its game object (core/games/<kind>/: `GAME`) and random-action maker."""
    if game == "practice":
        rules = CodeRules(rng.choice([3, 4, 5]), rng.random() < 0.3)
        return practice.new(rules, A, ctx)[0], PRACTICE_GAME, _practice_action
    if game == "duel":
        rules = CodeRules(rng.choice([3, 4, 5]), rng.random() < 0.3)
        return duel.new(rules, A, rng.choice([B, None]), ctx)[0], DUEL_GAME, _duel_action
    if game == "logik":
        state = logik.new(A, rng.choice([B, None]), rng.choice([8, 10, 12]), LOGIK_LETTERS, ctx)[0]
        return state, LOGIK_GAME, _logik_action
    if game == "words":
        opts = WordsOptions(length=5, mode=rng.choice(list(WordsMode)), goal=rng.choice([1, 2, 3]),
                         counts=rng.random() < 0.5, turn_seconds=60)
        return words_rules.new(opts, A, ctx)[0], words.GAME, _words_action
    if game == "kegeln":
        teams = rng.choice([0, 0, 2])
        names = ["Ute", "Jens", "Kai", "Mia"][:rng.choice([2, 3, 4]) if not teams else 4]
        members = [Member(n, i % 2 if teams else None) for i, n in enumerate(names)]
        setup = options.Setup(rng.choice(list(Mode)), rng.choice([2, 3]), members, teams)
        return kegeln_rules.new(setup, A, ctx)[0], kegeln.GAME, _kegeln_action
    raise ValueError(game)


def random_state(game: str, rng: random.Random, moves: int) -> Any:
    """The state after `moves` random tries at an action (each kept when the game accepts it)."""
    now = 1_700_000_000.0
    state, game_object, action = _start(game, rng, Ctx(now, random.Random(rng.getrandbits(32)), lambda _lang: LEXICON))
    for _ in range(moves):
        now += rng.choice([1.0, 2.5, 30.0])  # a move now and then comes late (timeouts)
        ctx = Ctx(now, random.Random(rng.getrandbits(32)), lambda _lang: LEXICON)
        actor = rng.choice(["a", "b", "c", None] if game != "kegeln" else ["a", "a", "b"])
        try:
            state, _ = game_object.apply(state, action(state, actor, rng), actor, ctx)
        except GameError:
            continue
    return state


# ---------------------------------------------------------------- timing

def _per_call_us(fn: Callable[[], object], repeat: int) -> float:
    """Median of five runs of `repeat` calls, in microseconds per call."""
    runs = []
    for _ in range(5):
        t0 = time.perf_counter()
        for _ in range(repeat):
            fn()
        runs.append((time.perf_counter() - t0) / repeat * 1e6)
    return statistics.median(runs)


def _time_one(states: list[Any], tp: type, dump: Callable[[Any], Any], load: Callable[[Any, Any], Any],
              clone: Callable[[Any], Any], repeat: int) -> tuple[float, float, float]:
    """Mean µs per dump, load (from JSON text parsed again) and clone over the states."""
    data = [json.loads(json.dumps(dump(s))) for s in states]
    d = statistics.mean(_per_call_us(functools.partial(dump, s), repeat) for s in states)
    lo = statistics.mean(_per_call_us(functools.partial(load, tp, x), repeat) for x in data)
    c = statistics.mean(_per_call_us(functools.partial(clone, s), repeat) for s in states)
    return d, lo, c


IMPLEMENTATIONS: dict[str, tuple[Callable[[Any], Any], Callable[[Any, Any], Any], Callable[[Any], Any]]] = {
    "walker": (walker_dump, walker_load, walker_clone),
    "msgspec": (serial.dump, serial.load, serial.clone),
}


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--states", type=int, default=40, help="states per game (each after 0…120 random tries)")
    p.add_argument("--repeat", type=int, default=300, help="calls per timing run, per state")
    args = p.parse_args()
    print(f"msgspec {msgspec.__version__}; µs per call, mean over {args.states} states per game "
          f"(median of 5 runs of {args.repeat} calls each)\n")
    head = f"{'game':<9} {'impl':<8} {'dump':>8} {'load':>8} {'clone':>8} {'JSON bytes':>11}"
    print(head)
    print("-" * len(head))
    totals: dict[str, list[float]] = {name: [0.0, 0.0, 0.0] for name in IMPLEMENTATIONS}
    for game in GAMES:
        states = [random_state(game, random.Random(seed), moves=seed * 120 // max(1, args.states - 1))
                  for seed in range(args.states)]
        tp = type(states[0])
        size = statistics.mean(len(json.dumps(walker_dump(s))) for s in states)
        for name, (dump, load, clone) in IMPLEMENTATIONS.items():
            d, lo, c = _time_one(states, tp, dump, load, clone, args.repeat)
            for i, v in enumerate((d, lo, c)):
                totals[name][i] += v / len(GAMES)
            print(f"{game:<9} {name:<8} {d:8.1f} {lo:8.1f} {c:8.1f} {size:11.0f}")
    print("-" * len(head))
    for name, (d, lo, c) in totals.items():
        print(f"{'all':<9} {name:<8} {d:8.1f} {lo:8.1f} {c:8.1f}")
    base, new = totals["walker"], totals["msgspec"]
    print("\nwalker / msgspec: dump ×{:.1f}, load ×{:.1f}, clone ×{:.1f}".format(
        *(b / n for b, n in zip(base, new, strict=True))))


if __name__ == "__main__":
    main()
