"""The solver meets the games, naming none: what a game shows the solver (`SolverView`: its code space, and
the material /analyse coaches from) and what the computer opponent of a two-player challenge game does
(`ComputerView`: accept, set its secret, guess from its own feedback under a disguise). Each game declares its
view in its own folder (core/games/<kind>/solver.py) and its plugin carries it (`GamePlugin.solver`), as
python-chess's variants do. Pure rules (the App only carries them out); the engine itself knows no game."""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any, Generic, TypeVar

from core.codes import CodeRules
from core.errors import GameError
from core.games.actions import Accept, Guess, SetSecret
from core.games.base import Ctx, Event, Game
from core.games.challenge import ChallengeState, Phase, can_answer, player, players
from core.options import Vocabulary, meaning
from core.solver.levels import EASY, LEVELS, PERFECT, STRONG
from core.solver.spaces import Spec, digits

if TYPE_CHECKING:  # the solvers themselves are loaded in the worker processes that run them
    from core.solver.strategy import Solver

BOT = "bot"  # the computer opponent's user id in a duel


class Think:
    """The bot's next action is a guess, which the solver must think of first (`bot_action`)."""

    __slots__ = ()

    def __repr__(self) -> str:
        return "THINK"


THINK = Think()


def spec_for(rules: CodeRules) -> Spec:
    return digits(rules.length, rules.repeats)


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


# ---------------------------------------------------------------- a game's view for the solver

S = TypeVar("S")
History = list[tuple[str, int, int]]  # (code, A, B), or (code, black, white) in Logik


class SolverView(Generic[S]):
    """What a game shows the solver (core/games/<kind>/solver.py declares one, its plugin carries it): its code
    space, and for /analyse the material of a finished game. By default: nothing to analyse."""

    analysable: bool = False  # /analyse replays its finished games (`analysis`)

    def spec(self, state: S) -> Spec:
        """The code space the game is played in."""
        raise NotImplementedError

    def analysis(self, state: S, user_id: str) -> tuple[Spec, History, str | None]:
        """From a finished game: the code space, the player's (code, A, B) and the secret they aimed at."""
        raise GameError("solver.analyse_none")


# ---------------------------------------------------------------- the computer opponent

C = TypeVar("C", bound=ChallengeState)


def has_bot(state: Any) -> bool:
    return any(p.user_id == BOT for p in players(state))


class ComputerView(SolverView[C]):
    """A two-player challenge game the computer opponent plays (its plugin is a `ComputerOpponent`): the game
    tells its own guesses, when its guess is the last, and when it must think; the rest is the same for all."""

    game: Game[Any]  # the game's object, through which the bot's moves are applied

    def history(self, state: C) -> History:
        """The bot's own guesses and their feedback so far."""
        raise NotImplementedError

    def last_guess(self, state: C) -> bool:
        """Whether the bot's next guess is its last (then only a hit counts)."""
        raise NotImplementedError

    def to_think(self, state: C) -> bool:
        """While playing: whether the bot has to guess now."""
        raise NotImplementedError

    def action(self, state: C) -> object | None:
        """What the bot does now without thinking: accept a challenge or rematch aimed at it, set a
        random secret; `THINK` when the bot has to guess, which needs the solver. Else None."""
        if state.phase is Phase.FINISHED or not has_bot(state):
            return None
        if state.phase is Phase.CHALLENGE:
            return Accept(player(state, BOT).name) if can_answer(state, BOT) else None
        if state.phase is Phase.SECRETS:
            return SetSecret(None) if BOT not in state.secrets else None
        if state.phase is Phase.PLAYING:
            return THINK if self.to_think(state) else None
        return None

    def guess(self, solver: Solver, state: C, level: str, rng: random.Random) -> Guess:
        """The bot's next guess at the human's secret (runs in a worker: `bot_guess`)."""
        return bot_guess(solver, self.history(state), self.last_guess(state), state.disguise, level, rng)

    def apply(self, state: C, action: object, ctx: Ctx) -> tuple[C, list[Event]]:
        """Apply the bot's move. When it sets its secret, the game also gets its `disguise`: a fresh draw
        from the injected generator, never derived from the secret (so the bot's moves tell nothing of it)."""
        new, events = self.game.apply(state, action, BOT, ctx)
        if isinstance(action, SetSecret) and new.disguise is None:
            new.disguise = ctx.rng.getrandbits(63)
        return new, events

    def accepts(self, state: C, bot_name: str, ctx: Ctx) -> tuple[C, list[Event]]:
        """A new game against the bot: accepted at once, the bot's random secret set; the human's secret is
        awaited. The events from the acceptance on."""
        accepted, said = self.apply(state, Accept(bot_name), ctx)
        ready, secret = self.apply(accepted, SetSecret(None), ctx)
        return ready, said + secret


def bot_guess(solver: Solver, history: History, last: bool, disguise: int | None, level: str,
              rng: random.Random) -> Guess:
    """The bot's next guess at the human's secret, from its own attempts (runs in a worker thread).

    Nothing of the bot's own secret goes into its play: only its attempts and their feedback, the
    injected `rng` (easy) and the game's `disguise` (strong). The strong strategy is a fixed tree
    (it would always open with 0123). Feedback does not change when the symbols are renamed, so the
    bot plays it under a renaming seeded by `disguise` — a random number drawn when the bot set its
    secret (`ComputerView.apply`) and stored with the game: just as strong, not predictable, the same after a
    restart, and independent of the secret. `perfect` plays the space's optimal tree under the same
    renaming (strong off the tree). On its `last` guess only a hit counts: it plays a code that can
    still be the secret."""
    if level == EASY:  # always a code that can still be the secret
        return Guess("".join(solver.guess(history, level, rng)))
    alphabet = list(solver.spec.alphabet)
    renamed = alphabet[:]
    # a game saved before the disguise existed plays under one fixed renaming (still no secret in it)
    random.Random(f"disguise:{disguise or 0}").shuffle(renamed)
    to_plain = dict(zip(renamed, alphabet, strict=True))
    to_game = dict(zip(alphabet, renamed, strict=True))
    plain = [("".join(to_plain[c] for c in code), a, b) for code, a, b in history]
    chosen = solver.last_chance(plain, level) if last else solver.guess(plain, level)
    return Guess("".join(to_game[c] for c in chosen))
