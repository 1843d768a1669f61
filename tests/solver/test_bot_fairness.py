"""The computer opponent gives nothing of its own secret away: its moves are the same whatever its
secret is, so only the answers to the opponent's guesses narrow the secret down (issue 14).

Attacked as an outsider with the source code would: simulate the bot with every possible secret
and keep the secrets under which it would have played what it played. Here the attacker is even
given everything hidden except the secret (the stored state, with the bot's own random seed)."""

from __future__ import annotations

import functools
import itertools
import random

import pytest

from bot.solver.book import load_strong_tree, load_tree
from core import serial
from core.codes import CodeRules
from core.games import challenge
from core.games.actions import Guess, SetSecret
from core.games.base import Ctx, Player
from core.games.duel import rules as duel
from core.games.logik import rules as logik
from core.scoring import bulls_cows
from core.solver import EASY, PERFECT, STRONG, Solver
from tests.solver import views as sg

HUMAN = Player("ann", "Ann")
HUMAN_GUESSES = ("5678", "9012", "3456", "7890", "1357", "2468", "0246", "1397", "8642", "5310")


@functools.cache
def _solver(rules: CodeRules) -> Solver:  # one per space: its opening book is built once
    spec = sg.spec_for(rules)
    return Solver(spec, tree=load_tree(spec), strong_tree=load_strong_tree(spec))


def _all_codes(rules: CodeRules) -> list[str]:
    codes = ("".join(p) for p in itertools.product("0123456789", repeat=rules.length))
    return [c for c in codes if rules.repeats or len(set(c)) == rules.length]


def _duel(rules: CodeRules, bot_secret: str, human_secret: str, seed: int) -> duel.State:
    """A bot duel with everything drawn from one seeded generator, then the bot's secret replaced:
    the same game in every respect but the bot's secret."""
    ctx = Ctx(0.0, random.Random(seed))
    state, _ = sg.new_bot_duel(rules, HUMAN, "Bot", ctx)
    state.secrets[sg.BOT] = bot_secret
    state, _ = duel.apply(state, SetSecret(human_secret), "ann", ctx)
    return state


def _bot_line(rules: CodeRules, level: str, bot_secret: str, human_secret: str, seed: int) -> list[str]:
    """The bot's guesses in a duel where ann plays a fixed list of guesses (none cracks the bot)."""
    state = _duel(rules, bot_secret, human_secret, seed)
    solver = _solver(rules)
    rng = random.Random(seed + 1)  # the App's injected randomness, the same for every bot secret
    ctx = Ctx(0.0, random.Random(seed + 2))
    mine = iter(g[:rules.length] for g in HUMAN_GUESSES)
    while state.phase is challenge.Phase.PLAYING:
        if state.turn == sg.BOT:
            state, _ = duel.apply(state, sg.bot_guess(solver, state, level, rng), sg.BOT, ctx)
        else:
            state, _ = duel.apply(state, Guess(next(mine)), "ann", ctx)
    return [a.code for a in state.attempts[sg.BOT]]


@pytest.mark.parametrize("level", [STRONG, EASY])
def test_the_bots_duel_moves_are_the_same_whatever_its_secret(level: str) -> None:
    rules = CodeRules(4, False)
    secrets = [c for c in random.Random(3).sample(_all_codes(rules), 40) if c not in HUMAN_GUESSES]
    for seed in (1, 2):
        lines = {tuple(_bot_line(rules, level, s, "4071", seed)) for s in secrets}
        assert len(lines) == 1, f"the bot's moves depend on its secret: {len(lines)} different lines"
        assert next(iter(lines))[-1] == "4071"


@pytest.mark.parametrize("length, human", [(3, "407"), (4, "4071")])
def test_the_perfect_bots_moves_are_the_same_whatever_its_secret(length: int, human: str) -> None:
    """3 and 4 digits have a perfect tree: the bot plays it under the game's disguise, never under its secret."""
    rules = CodeRules(length, False)
    mine = {g[:length] for g in HUMAN_GUESSES}
    secrets = [c for c in random.Random(5).sample(_all_codes(rules), 30) if c not in mine]
    firsts = set()
    for seed in (1, 2, 3):
        lines = {tuple(_bot_line(rules, PERFECT, s, human, seed)) for s in secrets}
        assert len(lines) == 1, f"the bot's moves depend on its secret: {len(lines)} different lines"
        line = next(iter(lines))
        assert line[-1] == human
        firsts.add(line[0])
    assert len(firsts) > 1  # the disguise: not always the tree's own 012


def test_the_bots_moves_with_repeats_are_the_same_whatever_its_secret() -> None:
    rules = CodeRules(3, True)
    secrets = [c for c in random.Random(4).sample(_all_codes(rules), 30) if c not in {g[:3] for g in HUMAN_GUESSES}]
    lines = {tuple(_bot_line(rules, STRONG, s, "007", 5)) for s in secrets}
    assert len(lines) == 1


def _simulated_first(solver: Solver, state: duel.State | logik.State, secret: str, level: str) -> str:
    """What the bot would play now if its secret were `secret` (everything else as it is)."""
    probe = serial.clone(state)
    probe.secrets[sg.BOT] = secret
    return sg.bot_guess(solver, probe, level, random.Random(0)).code


def test_the_fingerprint_attack_no_longer_identifies_the_secret() -> None:
    """The attack of issue 14: from the bot's first and second guess, work out which of its possible
    secrets it holds. Before the fix 1–2 codes were left after two guesses in every game. Now its
    guesses rule out no secret: the candidates are exactly the codes that fit ann's answers."""
    rules = CodeRules(4, False)
    space = _all_codes(rules)
    solver = _solver(rules)
    for seed in range(4):
        real = rules.random_code(random.Random(100 + seed))
        state = _duel(rules, real, "4071", seed)
        if state.turn != sg.BOT:  # let ann open, so that the bot plays its first guess next
            state, _ = duel.apply(state, Guess("5678"), "ann", Ctx(0.0, random.Random(0)))
        seen = sg.bot_guess(solver, state, STRONG, random.Random(0)).code
        fits = [s for s in space if _simulated_first(solver, state, s, STRONG) == seen]
        assert len(fits) == len(space), f"the first guess {seen} leaves {len(fits)} of {len(space)} secrets"
        # one more round: ann's answer narrows the secret, the bot's second guess does not
        state, _ = duel.apply(state, Guess(seen), sg.BOT, Ctx(0.0, random.Random(0)))
        if state.turn == "ann":
            state, _ = duel.apply(state, Guess("9012"), "ann", Ctx(0.0, random.Random(0)))
        answers = [(a.code, a.a, a.b) for a in state.attempts["ann"]]
        by_answers = [s for s in space if all(bulls_cows(s, c) == (a, b) for c, a, b in answers)]
        second = sg.bot_guess(solver, state, STRONG, random.Random(0)).code
        left = [s for s in by_answers if _simulated_first(solver, state, s, STRONG) == second]
        assert left == by_answers and real in left


def test_the_bots_moves_on_a_shipped_strong_tree_are_the_same_whatever_its_secret() -> None:
    """4 digits with repeats ships a strong tree (no perfect one): strong and perfect play it under the
    game's disguise, exactly as the computed strong level was played, never under the bot's secret."""
    rules = CodeRules(4, True)
    assert _solver(rules).strong_tree is not None
    secrets = [c for c in random.Random(6).sample(_all_codes(rules), 30) if c not in HUMAN_GUESSES]
    for level in (STRONG, PERFECT):
        firsts = set()
        for seed in (1, 2, 3):
            lines = {tuple(_bot_line(rules, level, s, "4071", seed)) for s in secrets}
            assert len(lines) == 1, f"the bot's moves depend on its secret: {len(lines)} different lines"
            line = next(iter(lines))
            assert line[-1] == "4071"
            firsts.add(line[0])
        assert len(firsts) > 1  # the disguise: not always the tree's own first guess


@pytest.mark.parametrize(("level", "shipped"), [(STRONG, True), (PERFECT, True), (STRONG, False), (EASY, False)])
def test_the_logik_bot_gives_nothing_away(level: str, shipped: bool) -> None:
    """With the shipped strong tree (strong, and perfect, which plays it) and without (computed)."""
    spec = sg.spec_of(logik.State(HUMAN, None))
    tree = load_strong_tree(spec) if shipped else None
    assert tree is not None or not shipped
    solver = Solver(spec, strong_tree=tree)
    sample = sorted({logik.random_code(Ctx(0.0, random.Random(i))) for i in range(120)})
    firsts = set()
    for seed in (9, 11):
        lines = set()
        for s in sample:
            ctx = Ctx(0.0, random.Random(seed))
            state, _ = sg.new_bot_logik(HUMAN, "Bot", 10, {}, ctx)
            state.secrets[sg.BOT] = s
            state, _ = logik.apply(state, SetSecret("12345"), "ann", ctx)
            rng = random.Random(10)
            for row in ("11111", "22222", "33333"):  # three rounds: ann never cracks
                state, _ = logik.apply(state, sg.bot_guess(solver, state, level, rng), sg.BOT, ctx)
                if state.phase is not challenge.Phase.PLAYING:
                    break
                state, _ = logik.apply(state, Guess(row), "ann", ctx)
            lines.add(tuple(r.code for r in state.rows[sg.BOT]))
        assert len(lines) == 1, f"the Logik bot's rows depend on its secret: {len(lines)} different lines"
        firsts.add(next(iter(lines))[0])
    if level != EASY:  # (easy draws from the App's rng, the same here in both games)
        assert len(firsts) == 2  # a new disguise per game: another first row
    if shipped:
        assert not solver._memo  # the bot's rows came from the tree


def test_the_bots_disguise_is_random_per_game_and_survives_a_restart() -> None:
    """Different games open differently (the disguise is drawn at random), and a stored game read
    back (a restart) plays on exactly as before."""
    rules = CodeRules(4, False)
    solver = _solver(rules)
    openers = set()
    for seed in range(8):
        state = _duel(rules, "1234", "4071", seed)
        if state.turn != sg.BOT:
            state, _ = duel.apply(state, Guess("5678"), "ann", Ctx(0.0, random.Random(0)))
        first = sg.bot_guess(solver, state, STRONG, random.Random(0)).code
        openers.add(first)
        restored = serial.load(duel.State, serial.dump(state))
        assert sg.bot_guess(Solver(sg.spec_for(rules)), restored, STRONG, random.Random(1)).code == first
    assert len(openers) > 1
