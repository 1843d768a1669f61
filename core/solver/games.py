"""The solver meets the games: hints in 1A2B practice, the computer opponent in a 1A2B duel and in
Logik, the material for coaching. Pure rules (the App only carries them out); the engine itself
knows no game."""

from __future__ import annotations

import copy
import random
from collections.abc import Sequence
from functools import lru_cache
from typing import TYPE_CHECKING, Any, TypeVar

from core.codes import CodeRules
from core.errors import GameError
from core.games.actions import Accept, Guess, SetSecret
from core.games.base import Ctx, Event, Player
from core.games.challenge import Phase, can_answer, other, player, players
from core.games.duel import GAME as DUEL_GAME
from core.games.duel import rules as duel
from core.games.logik import GAME as LOGIK_GAME
from core.games.logik import rules as logik
from core.games.practice import rules as practice
from core.games.practice.events import Hinted
from core.games.words import state as words
from core.lexicon import ALPHABETS, Lexicon
from core.options import Vocabulary, meaning
from core.solver.levels import EASY, LEVELS, PERFECT, STRONG
from core.solver.spaces import LOGIK, Spec, digits

if TYPE_CHECKING:  # the solvers themselves are loaded in the worker processes that run them
    from core.solver.strategy import Solver
    from core.solver.words import WordSolver

BOT = "bot"  # the computer opponent's user id in a duel


class Think:
    """The bot's next action is a guess, which the solver must think of first (`bot_action`)."""

    __slots__ = ()

    def __repr__(self) -> str:
        return "THINK"


THINK = Think()


def spec_for(rules: CodeRules) -> Spec:
    return digits(rules.length, rules.repeats)


def spec_of(state: object) -> Spec:
    """The code space of a 1A2B practice game or duel, or of a Logik game."""
    return LOGIK if isinstance(state, logik.State) else spec_for(state.rules)  # type: ignore[attr-defined]


def parse_level(args: tuple[str, ...], vocab: Vocabulary | None = None,
                levels: tuple[str, ...] = (EASY, STRONG, PERFECT)) -> tuple[str, tuple[str, ...]]:
    """The level word among `args` (default strong; `easy`/`strong`/`perfect` or a catalog's word for
    them, core/options.py) and the other words (the code options). `perfect` plays the space's optimal
    tree, strong where the space has none (Logik, 4 and 5 digits, with repeats)."""
    level, rest = STRONG, []
    for word in args:
        said = meaning(word, vocab, levels)
        if said:
            level = said
        else:
            rest.append(word)
    assert level in LEVELS
    return level, tuple(rest)


# ---------------------------------------------------------------- practice: hints

def hint(solver: Solver, state: practice.State) -> tuple[int, str]:
    """How many codes are still possible, and a strong next guess — the perfect one where the space
    has a tree and the game follows it (runs in a worker thread)."""
    history = [(a.code, a.a, a.b) for a in state.attempts]
    count = solver.count(history)
    return count, "".join(perfect_hint(solver, history))


def perfect_hint(solver: Solver, history: Sequence[tuple[str, int, int]]) -> tuple[str, ...]:
    """The perfect next guess for the player's `history`, under the renaming of the symbols that /analyse
    uses (core/solver/coach.py `renamed`): a game the player opened with 1234 is the tree's 0123 game, so
    the hint stays on the tree after the player's own first guess (feedback does not change under a
    renaming); off the tree, the strong guess, in the player's own symbols."""
    from core.solver.coach import renamed  # in the worker that runs the solver (see TYPE_CHECKING above)

    if solver.tree is None:
        return solver.perfect(history)
    codes, to_tree = renamed(solver, history)
    back = {t: c for c, t in to_tree.items()}
    guess = solver.perfect([(code, a, b) for code, (_own, a, b) in zip(codes, history, strict=True)])
    return tuple(back[x] for x in guess)


def take_hint(state: practice.State, count: int, guess: str, ctx: Ctx) -> tuple[practice.State, list[Event]]:
    """A hint was given: the game is assisted from now on (no rating, no personal best)."""
    if state.phase is not practice.Phase.PLAYING:
        raise GameError("solver.hint_no_game")
    s = copy.deepcopy(state)
    first = not s.assisted
    s.assisted, s.updated = True, ctx.now
    return s, [Hinted(count, guess, first, len(s.attempts))]


# ---------------------------------------------------------------- duels: the computer opponent

Duelish = duel.State | logik.State
D = TypeVar("D", duel.State, logik.State)  # one of the two, the same one in and out


def has_bot(state: Duelish) -> bool:
    return any(p.user_id == BOT for p in players(state))


def bot_action(state: Duelish) -> object | None:
    """What the bot does now without thinking: accept a challenge or rematch aimed at it, set a
    random secret; `THINK` when the bot has to guess (its turn in a 1A2B duel; in Logik, whenever
    its row of the round is not in yet), which needs the solver. Else None."""
    if state.phase is Phase.FINISHED or not has_bot(state):
        return None
    if state.phase is Phase.CHALLENGE:
        return Accept(player(state, BOT).name) if can_answer(state, BOT) else None
    if state.phase is Phase.SECRETS:
        return SetSecret(None) if BOT not in state.secrets else None
    if state.phase is Phase.PLAYING:
        if isinstance(state, logik.State):
            return THINK if BOT not in state.pending else None
        return THINK if state.turn == BOT else None
    return None


def bot_history(state: Duelish) -> list[tuple[str, int, int]]:
    """The bot's own guesses and their feedback so far."""
    if isinstance(state, logik.State):
        return [(r.code, r.black, r.white) for r in state.rows.get(BOT, [])]
    return [(a.code, a.a, a.b) for a in state.attempts.get(BOT, [])]


def last_guess(state: Duelish) -> bool:
    """Whether the bot's next guess is its last: its last chance after the human cracked first, or
    the duel's guess limit (in Logik: the last row). Then only a hit counts."""
    if isinstance(state, logik.State):
        return len(state.rows.get(BOT, [])) >= state.rows_max - 1
    return state.last_chance or len(state.attempts.get(BOT, [])) >= duel.MAX_GUESSES - 1


def bot_guess(solver: Solver, state: Duelish, level: str, rng: random.Random) -> Guess:
    """The bot's next guess at the human's secret, from its own attempts (runs in a worker thread).

    Nothing of the bot's own secret goes into its play: only its attempts and their feedback, the
    injected `rng` (easy) and the game's `disguise` (strong). The strong strategy is a fixed tree
    (it would always open with 0123). Feedback does not change when the symbols are renamed, so the
    bot plays it under a renaming seeded by `disguise` — a random number drawn when the bot set its
    secret (`bot_apply`) and stored with the game: just as strong, not predictable, the same after a
    restart, and independent of the secret. `perfect` plays the space's optimal tree under the same
    renaming (strong off the tree). On its last guess only a hit counts: it plays a code that can
    still be the secret."""
    history = bot_history(state)
    last = last_guess(state)
    if level == EASY:  # always a code that can still be the secret
        return Guess("".join(solver.guess(history, level, rng)))
    alphabet = list(solver.spec.alphabet)
    renamed = alphabet[:]
    # a game saved before the disguise existed plays under one fixed renaming (still no secret in it)
    random.Random(f"disguise:{state.disguise or 0}").shuffle(renamed)
    to_plain = dict(zip(renamed, alphabet, strict=True))
    to_game = dict(zip(alphabet, renamed, strict=True))
    plain = [("".join(to_plain[c] for c in code), a, b) for code, a, b in history]
    chosen = solver.last_chance(plain, level) if last else solver.guess(plain, level)
    return Guess("".join(to_game[c] for c in chosen))


def bot_apply(state: D, action: object, ctx: Ctx) -> tuple[D, list[Event]]:
    """Apply the bot's move. When it sets its secret, the game also gets its `disguise`: a fresh draw
    from the injected generator, never derived from the secret (so the bot's moves tell nothing of it)."""
    game: Any = LOGIK_GAME if isinstance(state, logik.State) else DUEL_GAME  # the App's game interface
    new, events = game.apply(state, action, BOT, ctx)
    if isinstance(action, SetSecret) and new.disguise is None:
        new.disguise = ctx.rng.getrandbits(63)
    return new, events


def _bot_accepts(state: D, bot_name: str, ctx: Ctx) -> tuple[D, list[Event]]:
    accepted, said = bot_apply(state, Accept(bot_name), ctx)
    ready, secret = bot_apply(accepted, SetSecret(None), ctx)
    return ready, said + secret


def new_bot_duel(rules: CodeRules, human: Player, bot_name: str, ctx: Ctx) -> tuple[duel.State, list[Event]]:
    """A 1A2B duel against the bot: challenged, accepted at once, the bot's random secret set; the
    human's secret is awaited. Returns the state and the events from the acceptance on."""
    state, _ = duel.new(rules, human, Player(BOT, bot_name), ctx)
    return _bot_accepts(state, bot_name, ctx)


def new_bot_logik(human: Player, bot_name: str, rows_max: int, letters: dict[str, str],
                  ctx: Ctx) -> tuple[logik.State, list[Event]]:
    """A Logik game against the bot (the human challenges, so plays white), set up like `new_bot_duel`."""
    state, _ = logik.new(human, Player(BOT, bot_name), rows_max, letters, ctx)
    return _bot_accepts(state, bot_name, ctx)


# ---------------------------------------------------------------- coaching

def analysis_input(state: object, user_id: str) -> tuple[Spec, list[tuple[str, int, int]], str | None]:
    """From a finished practice game, duel or Logik game (told apart by their states): the code space,
    the player's (code, A, B) and the secret they aimed at."""
    if isinstance(state, practice.State) and state.phase is practice.Phase.FINISHED:
        return spec_of(state), [(a.code, a.a, a.b) for a in state.attempts], state.secret
    if isinstance(state, duel.State) and state.phase is Phase.FINISHED:
        mine = state.attempts.get(user_id)
        if mine:
            target = state.secrets.get(other(state, user_id).user_id)
            return spec_of(state), [(a.code, a.a, a.b) for a in mine], target
    if isinstance(state, logik.State) and state.phase is Phase.FINISHED:
        rows = state.rows.get(user_id)
        if rows:
            target = state.secrets.get(other(state, user_id).user_id)
            return LOGIK, [(r.code, r.black, r.white) for r in rows], target
    raise GameError("solver.analyse_none")


# ---------------------------------------------------------------- the word game: hints in solo practice

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
