"""The solver meets the 1A2B games: hints in practice, the computer opponent in a duel, the material
for coaching. Pure rules (the App only carries them out); the engine itself knows no game."""

from __future__ import annotations

import copy
import random

from core.codes import CodeRules
from core.errors import GameError
from core.games import duel, practice
from core.games.base import Ctx, Event
from core.solver.engine import Spec, digits
from core.solver.strategy import EASY, LEVELS, STRONG, Solver

BOT = "bot"  # the computer opponent's user id in a duel
LEVEL_WORDS = {"easy": EASY, "leicht": EASY, "einfach": EASY,
               "strong": STRONG, "hard": STRONG, "stark": STRONG, "schwer": STRONG}


def spec_for(rules: CodeRules) -> Spec:
    return digits(rules.length, rules.repeats)


def parse_level(args: tuple[str, ...]) -> tuple[str, tuple[str, ...]]:
    """The level word among `args` (default strong) and the other words (the code options)."""
    level, rest = STRONG, []
    for word in args:
        w = word.strip().lower()
        if w in LEVEL_WORDS:
            level = LEVEL_WORDS[w]
        else:
            rest.append(word)
    assert level in LEVELS
    return level, tuple(rest)


# ---------------------------------------------------------------- practice: hints

def hint(solver: Solver, state: practice.State) -> tuple[int, str]:
    """How many codes are still possible, and a strong next guess (runs in a worker thread)."""
    history = [(a.code, a.a, a.b) for a in state.attempts]
    count = solver.count(history)
    return count, "".join(solver.strong(history))


def take_hint(state: practice.State, count: int, guess: str, ctx: Ctx) -> tuple[practice.State, list[Event]]:
    """A hint was given: the game is assisted from now on (no rating, no personal best)."""
    if state.phase is not practice.Phase.PLAYING:
        raise GameError("solver.hint_no_game")
    s = copy.deepcopy(state)
    first = not s.assisted
    s.assisted, s.updated = True, ctx.now
    return s, [Event("hinted", {"left": count, "guess": guess, "first": first, "n": len(s.attempts)})]


# ---------------------------------------------------------------- duel: the computer opponent

def has_bot(state: duel.State) -> bool:
    return any(p.user_id == BOT for p in duel.players(state))


def bot_action(state: duel.State) -> object | None:
    """What the bot does now without thinking: accept a challenge or rematch aimed at it, set a
    random secret. "guess" when it is the bot's turn to guess (that needs the solver), else None."""
    if state.phase is duel.Phase.FINISHED or not has_bot(state):
        return None
    if state.phase is duel.Phase.CHALLENGE:
        return duel.Accept(duel.player(state, BOT).name) if duel.can_answer(state, BOT) else None
    if state.phase is duel.Phase.SECRETS:
        return duel.SetSecret(None) if BOT not in state.secrets else None
    if state.phase is duel.Phase.PLAYING and state.turn == BOT:
        return "guess"
    return None


def bot_guess(solver: Solver, state: duel.State, level: str, rng: random.Random) -> duel.Guess:
    """The bot's next guess at the human's secret, from its own attempts (runs in a worker thread).

    The strong strategy is a fixed tree (it would always open with 0123). Feedback does not change
    when the digits are renamed, so the bot plays it under a renaming of the digits that is fixed per
    game and hidden (derived from its own secret): just as strong, but not predictable."""
    history = [(a.code, a.a, a.b) for a in state.attempts.get(BOT, [])]
    if level != STRONG:
        return duel.Guess("".join(solver.guess(history, level, rng)))
    alphabet = list(solver.spec.alphabet)
    renamed = alphabet[:]
    random.Random("rename:" + state.secrets.get(BOT, "")).shuffle(renamed)
    to_plain = dict(zip(renamed, alphabet, strict=True))
    to_game = dict(zip(alphabet, renamed, strict=True))
    plain = [("".join(to_plain[c] for c in code), a, b) for code, a, b in history]
    return duel.Guess("".join(to_game[c] for c in solver.strong(plain)))


def new_bot_duel(rules: CodeRules, human: duel.Player, bot_name: str, ctx: Ctx) -> tuple[duel.State, list[Event]]:
    """A duel against the bot: challenged, accepted at once, the bot's random secret set; the human's
    secret is awaited. Returns the state and the events from the acceptance on."""
    state, _ = duel.new(rules, human, duel.Player(BOT, bot_name), ctx)
    state, accepted = duel.apply(state, duel.Accept(bot_name), BOT, ctx)
    state, secret = duel.apply(state, duel.SetSecret(None), BOT, ctx)
    return state, [*accepted, *secret]


# ---------------------------------------------------------------- coaching

def analysis_input(kind: str, state: object, user_id: str) -> tuple[CodeRules, list[tuple[str, int, int]], str | None]:
    """From a finished practice game or duel: the rules, the player's (code, A, B) and the secret they aimed at."""
    if kind == "practice" and isinstance(state, practice.State) and state.phase is practice.Phase.FINISHED:
        return state.rules, [(a.code, a.a, a.b) for a in state.attempts], state.secret
    if kind == "duel" and isinstance(state, duel.State) and state.phase is duel.Phase.FINISHED:
        mine = state.attempts.get(user_id)
        if mine:
            target = state.secrets.get(duel.other(state, user_id).user_id)
            return state.rules, [(a.code, a.a, a.b) for a in mine], target
    raise GameError("solver.analyse_none")
