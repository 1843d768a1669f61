"""The word game as the solver sees it: /hint in solo practice — how many of the bot's words still fit the answers
so far, and a strong next guess (core/solver/words.py's solver, over the dictionary passed in)."""

from __future__ import annotations

from functools import lru_cache
from typing import TYPE_CHECKING

from core.errors import GameError
from core.games.words import state as words
from core.lexicon import ALPHABETS, Lexicon

if TYPE_CHECKING:  # the solver is loaded in the worker processes that run it
    from core.solver.words import WordSolver


@lru_cache(maxsize=16)
def word_solver(lex: Lexicon, length: int, counts: bool) -> WordSolver:
    """The solver for solo word practice: the bot's secrets are the common words of the length, so
    those are the candidates (and the suggested guesses: words the player knows)."""
    from core.solver.words import WordSolver

    common = sorted(w for w in lex.common if len(w) == length)
    return WordSolver(common, ALPHABETS[lex.lang], counts)


def word_hint_allowed(state: words.State) -> bool:
    """Hints only in running solo practice (which is not recorded, so a hint changes nothing in it)."""
    return state.mode is words.Mode.SOLO and state.phase is words.Phase.GUESSING


def word_hint(solver: WordSolver, state: words.State) -> tuple[int, str]:
    """How many words still fit the answers so far, and a strong next guess (runs in a worker thread)."""
    if state.opts.counts:
        history = [(t.word, solver.pack_counts(t.bulls, t.cows)) for t in state.tries]
    else:
        history = [(t.word, solver.pack_classic(t.answer.value)) for t in state.tries]
    count = solver.count(history)
    if count == 0:  # cannot happen for the bot's own word; never suggest nonsense
        raise GameError("solver.hint_no_game")
    return count, solver.strong(history)
