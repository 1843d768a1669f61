"""The events of seeded games of every kind, made through the core functions: the same calls give the
same events, so `tests/app/events_recorded.json` — these events as the event log held them before
events were typed (type and `json.dumps` of the data dict, written by that code) — is what the typed
events must still be stored as (tests/app/test_event_log.py)."""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from bench.events import GAMES, play
from bench.serial import LEXICON
from core.codes import CodeRules
from core.errors import GameError
from core.games.actions import GiveUp, Guess, Timeout
from core.games.base import Ctx, Player
from core.games.daily import rules as daily
from core.games.duel import rules as duel
from core.games.kegeln import options, rules
from core.games.kegeln.state import Member, Mode
from core.games.logik import rules as logik
from core.games.practice import rules as practice
from core.games.words import rules as words
from core.games.words.state import Options as WordsOptions
from tests.solver import views as solver_games

RECORDED = Path(__file__).with_name("events_recorded.json")
ANN, BOB = Player("a", "Ann"), Player("b", "Bob")
LETTERS = {"r": "1", "g": "2", "b": "3", "y": "4"}
PER_KIND = 3  # the first events of each type in each game kept (the log would be long)


def _all() -> Iterator[tuple[str, Any]]:
    """(game kind, event) for every event of the seeded games, in order."""
    ctx = Ctx(100.0, random.Random(2), lambda _lang: LEXICON)
    yield from (("practice", e) for e in practice.new(CodeRules(4, True), ANN, ctx)[1])
    yield from (("duel", e) for e in duel.new(CodeRules(4, False), ANN, BOB, ctx)[1])
    yield from (("duel", e) for e in duel.new(CodeRules(3, False), ANN, None, ctx)[1])
    yield from (("logik", e) for e in logik.new(ANN, BOB, 10, LETTERS, ctx)[1])
    yield from (("logik", e) for e in logik.new(ANN, None, 8, LETTERS, ctx)[1])
    yield from (("words", e) for e in words.new(WordsOptions(length=5), ANN, ctx)[1])
    yield from (("words", e) for e in words.new_solo(WordsOptions(length=5), ANN, ctx)[1])
    setup = options.Setup(Mode.HIGH, 2, [Member("Ute", None), Member("Kai", None)], 0)
    yield from (("kegeln", e) for e in rules.new(setup, ANN, ctx)[1])
    for game in GAMES:
        for seed in range(40):
            _, made, played = play(game, random.Random(1000 + seed), 80)
            for _, events in made:
                yield from ((game, e) for e in events)
            if made and played.is_over(made[-1][0]):
                for who in ("a", "b"):
                    try:
                        again = played.follow_up(made[-1][0], "rematch", who, ctx)
                    except GameError:
                        continue
                    if again is not None:
                        yield from ((game, e) for e in again[1])
    for puzzle, secret, guesses, end in (("1a2b", "1234", ["5678", "1243", "1234"], None),
                                         ("logik", "11233", ["11111", "22222"], GiveUp()),
                                         ("1a2b", "9876", ["1234"], Timeout())):
        s, ev = daily.new(puzzle, "2026-11-30", ANN, secret, ctx, "en", LETTERS)
        yield from (("daily", e) for e in ev)
        for g in guesses:
            s, ev = daily.apply(s, Guess(g), "a", ctx)
            yield from (("daily", e) for e in ev)
        if end is not None:
            yield from (("daily", e) for e in daily.apply(s, end, "a", ctx)[1])
    p = practice.new(CodeRules(4, False), ANN, ctx)[0]
    for _ in range(2):
        p, ev = solver_games.take_hint(p, 5040, "1234", ctx)
        yield from (("practice", e) for e in ev)
    yield from (("duel", e) for e in solver_games.new_bot_duel(CodeRules(4, False), ANN, "Bot", ctx)[1])
    yield from (("logik", e) for e in solver_games.new_bot_logik(ANN, "Bot", 10, LETTERS, ctx)[1])


def seeded_events() -> list[tuple[str, Any]]:
    """The first `PER_KIND` events of each type per game kind, in order."""
    seen: Counter[tuple[str, str]] = Counter()
    kept = []
    for kind, e in _all():
        seen[kind, e.type] += 1
        if seen[kind, e.type] <= PER_KIND:
            kept.append((kind, e))
    return kept
