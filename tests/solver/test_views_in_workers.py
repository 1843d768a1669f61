"""The games' solver views in a real worker process (spawned, as the bot runs them, bot/solver/thinking.py): what
the bot sends there — a game's worker function, or its view's bound method with the state — is found again by
reference in the fresh interpreter, now that each game declares its view in its own folder (issue 38)."""

from __future__ import annotations

import random
from collections.abc import Iterator
from concurrent.futures import ProcessPoolExecutor

import pytest

from bot.games.words.hint import think_word_hint
from bot.solver import thinking
from bot.solver.book import solver, with_solver
from core.codes import CodeRules
from core.games.actions import Guess, SetSecret
from core.games.base import Ctx, Player
from core.games.duel import rules as duel
from core.games.duel.solver import VIEW as DUEL
from core.games.duel.solver import new_bot_duel
from core.games.practice import rules as practice
from core.games.practice.solver import hint
from core.games.words.rules import new_solo
from core.games.words.state import Options
from core.solver.games import BOT
from core.solver.spaces import digits


@pytest.fixture(scope="module")
def pool() -> Iterator[ProcessPoolExecutor]:
    workers = thinking.process_pool(1)
    yield workers
    workers.shutdown()


def test_a_practice_hint_and_a_bot_guess_are_thought_in_a_worker(pool: ProcessPoolExecutor) -> None:
    ctx = Ctx(0.0, random.Random(3))
    state, _ = practice.new(CodeRules(4, False), Player("ann", "Ann"), ctx)
    state, _ = practice.apply(state, Guess("0123"), "ann", ctx)
    left, guess = pool.submit(with_solver, digits(4, False), None, hint, state).result(timeout=120)
    assert (left, guess) == hint(solver(digits(4, False)), state)  # the same answer as thought in this process

    game, _ = new_bot_duel(CodeRules(4, False), Player("ann", "Ann"), "Bot", ctx)
    game, _ = duel.apply(game, SetSecret("9753"), "ann", ctx)
    while DUEL.action(game) is not None and game.turn != BOT:  # the lot may let ann start
        game, _ = duel.apply(game, Guess("4680"), "ann", ctx)
    bot = pool.submit(with_solver, digits(4, False), None, DUEL.guess, game, "strong", random.Random(1))
    assert bot.result(timeout=120) == DUEL.guess(solver(digits(4, False)), game, "strong", random.Random(1))


def test_a_word_hint_is_thought_in_a_worker(pool: ProcessPoolExecutor) -> None:
    state, _ = new_solo(Options(length=5, lang="en"), Player("ann", "Ann"), Ctx(0.0, random.Random(2),
                                                                                  _lexicon))
    left, word = pool.submit(think_word_hint, "en", 5, False, state).result(timeout=120)
    assert left > 1 and len(word) == 5


def _lexicon(lang: str) -> object:
    from bot.solver.dictionary import lexicon

    return lexicon(lang)
