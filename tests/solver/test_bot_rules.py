"""The computer opponent in core: accepts, sets a secret, guesses under the duel rules; never stuck."""

from __future__ import annotations

import copy
import dataclasses
import random

import pytest

from bot.solver.book import load_tree
from bot.texts.i18n import Catalogs
from bot.texts.option_words import option_vocabulary
from core import serial
from core.codes import Attempt, CodeRules
from core.errors import GameError
from core.games import challenge
from core.games.actions import Accept, GiveUp, Guess, SetSecret
from core.games.base import Ctx, Player
from core.games.duel import rules as duel
from core.games.logik import rules as logik
from core.games.practice import rules as practice
from core.games.practice.events import Hinted
from core.scoring import bulls_cows
from core.solver import EASY, PERFECT, STRONG, Solver, digits
from tests.solver import views as sg

OPTION_WORDS = option_vocabulary(Catalogs())  # every catalog's option words, as the App reads them
HUMAN = Player("ann", "Ann")


def bot_plays_out(rules: CodeRules, level: str, human_secret: str, seed: int) -> duel.State:
    rng = random.Random(seed)
    ctx = Ctx(0.0, rng)
    state, events = sg.new_bot_duel(rules, HUMAN, "Bot", ctx)
    assert [e.type for e in events] == ["accepted", "secrets_wanted", "secret_set"]
    state, _ = duel.apply(state, SetSecret(human_secret), "ann", ctx)
    solver = Solver(sg.spec_for(rules))
    human_guesses = iter(rules.random_code(random.Random(seed + 1000 * i)) for i in range(10_000))
    while state.phase is challenge.Phase.PLAYING:
        action = sg.bot_action(state)
        if state.turn == sg.BOT:
            assert action is sg.THINK
            state, _ = duel.apply(state, sg.bot_guess(solver, state, level, rng), sg.BOT, ctx)
        else:
            assert action is None
            mine = {a.code for a in state.attempts["ann"]}
            code = next(c for c in human_guesses if c not in mine and c != state.secrets[sg.BOT])
            state, _ = duel.apply(state, Guess(code), "ann", ctx)
    assert serial.load(duel.State, serial.dump(state)) == state
    return state


@pytest.mark.parametrize("level,bound", [(STRONG, 7), (EASY, 12)])
def test_bot_cracks_within_bound_on_a_seed_sample(level: str, bound: int) -> None:
    rules = CodeRules(4, False)
    for seed in range(25):
        secret = rules.random_code(random.Random(seed))
        st = bot_plays_out(rules, level, secret, seed)
        assert st.winner == sg.BOT or st.outcome == "draw"
        bot = st.attempts[sg.BOT]
        assert bot[-1].code == secret and len(bot) <= bound
        for i, x in enumerate(bot):  # every guess is scored against the human's secret like anyone's
            assert bulls_cows(secret, x.code) == (x.a, x.b)
            if level == EASY:
                assert all(bulls_cows(x.code, y.code) == (y.a, y.b) for y in bot[:i])


def test_strong_bot_is_not_predictable_but_as_strong() -> None:
    rules = CodeRules(4, False)
    openers = set()
    for seed in range(8):
        st = bot_plays_out(rules, STRONG, "4071", seed)
        openers.add(st.attempts[sg.BOT][0].code)
    assert len(openers) > 1


def test_repeats_and_five_digits() -> None:
    st = bot_plays_out(CodeRules(3, True), STRONG, "007", 1)
    assert st.attempts[sg.BOT][-1].code == "007" and len(st.attempts[sg.BOT]) <= 7


def test_bot_accepts_only_what_is_aimed_at_it() -> None:
    ctx = Ctx(0.0, random.Random(1))
    state, _ = duel.new(CodeRules(), HUMAN, Player(sg.BOT, "Bot"), ctx)
    assert isinstance(sg.bot_action(state), Accept)
    human_vs_human, _ = duel.new(CodeRules(), HUMAN, Player("bob", "Bob"), ctx)
    assert sg.bot_action(human_vs_human) is None
    assert sg.parse_level(("leicht", "3", "repeats"), OPTION_WORDS) == (EASY, ("3", "repeats"))
    assert sg.parse_level(()) == (STRONG, ())


def test_hint_rules() -> None:
    ctx = Ctx(5.0, random.Random(2))
    state, _ = practice.new(CodeRules(3), HUMAN, ctx)
    left, guess = sg.hint(Solver(digits(3, False)), state)
    assert (left, guess) == (720, "012")
    new, events = sg.take_hint(state, left, guess, ctx)
    assert new.assisted and not state.assisted and events == [Hinted(720, "012", first=True, n=0)]
    _again, events = sg.take_hint(new, left, guess, ctx)
    assert events == [Hinted(720, "012", first=False, n=0)]
    done, _ = practice.apply(new, GiveUp(), "ann", ctx)
    with pytest.raises(GameError):
        sg.take_hint(done, 1, "012", ctx)
    _rules, history, secret = sg.analysis_input(done, "ann")
    assert history == [] and secret == done.secret
    with pytest.raises(GameError):
        sg.analysis_input(state, "ann")  # still running: nothing to analyse


def test_logik_bot_plays_out_within_the_rows() -> None:

    for seed in range(6):
        rng = random.Random(seed)
        ctx = Ctx(0.0, rng)
        state, _events = sg.new_bot_logik(HUMAN, "Bot", 10, {}, ctx)
        assert state.phase is challenge.Phase.SECRETS and sg.BOT in state.secrets
        secret = logik.random_code(Ctx(0.0, random.Random(100 + seed)))
        state, _ = logik.apply(state, SetSecret(secret), "ann", ctx)
        solver = Solver(sg.spec_of(state))
        while state.phase is challenge.Phase.PLAYING:
            assert sg.bot_action(state) is sg.THINK  # a new round: the bot sends its row first
            state, _ = logik.apply(state, sg.bot_guess(solver, state, STRONG, rng), sg.BOT, ctx)
            assert sg.bot_action(state) is None  # its row is in: it waits for ann
            state, _ = logik.apply(state, Guess("11111"), "ann", ctx)
        rows = state.rows[sg.BOT]
        assert state.winner == sg.BOT or state.outcome == "draw"
        assert rows[-1].code == secret and len(rows) <= 7
        assert all(bulls_cows(secret, r.code) == (r.black, r.white) for r in rows)


@pytest.mark.parametrize("level", [STRONG, PERFECT])
def test_on_its_last_guess_the_bot_plays_a_code_that_can_still_be_the_secret(level: str) -> None:
    """Issue 23 item 11: `--seed 16`, `/duel bot strong 3`, secret 123 — on its last chance the strong
    bot played a code its own answers ruled out while 8 codes were possible. Along the bot's line, at
    every point where its usual guess could not be the secret, its last guess (the human cracked
    first, or the guess limit) is one that can."""
    rules = CodeRules(3, False)
    ctx = Ctx(0.0, random.Random(16))
    state, _ = sg.new_bot_duel(rules, HUMAN, "Bot", ctx)
    state, _ = duel.apply(state, SetSecret("123"), "ann", ctx)
    solver = Solver(sg.spec_for(rules), tree=load_tree(sg.spec_for(rules)))
    wasted = 0
    for _ in range(8):
        history = sg.bot_history(state)
        cands = {"".join(solver.eng.code(i)) for i in solver.candidates(history)}
        usual = copy.deepcopy(state)
        usual.turn, usual.last_chance = sg.BOT, False
        guess = sg.bot_guess(solver, usual, level, random.Random(0)).code
        if guess == "123":
            break
        last = dataclasses.replace(usual, last_chance=True)  # the human cracked first: one guess left
        assert sg.bot_guess(solver, last, level, random.Random(0)).code in cands
        if guess not in cands:
            wasted += 1
        a, b = bulls_cows("123", guess)
        state = copy.deepcopy(usual)
        state.attempts.setdefault(sg.BOT, []).append(Attempt(guess, a, b))
    assert wasted > 0  # the usual line does play such codes: the case is met


def test_the_guess_limit_counts_as_the_last_guess() -> None:
    state = duel.State(rules=CodeRules(3, False), challenger=HUMAN, opponent=Player(sg.BOT, "Bot"))
    state.attempts = {sg.BOT: [Attempt("012", 0, 0)] * (duel.MAX_GUESSES - 2)}
    assert not sg.last_guess(state)
    state.attempts[sg.BOT].append(Attempt("345", 0, 0))
    assert sg.last_guess(state)
    assert sg.last_guess(duel.State(rules=CodeRules(3, False), challenger=HUMAN, opponent=None, last_chance=True))
