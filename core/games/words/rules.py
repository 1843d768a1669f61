"""The word game's state machine (Бык-корова, word Bulls & Cows for a group, docs/rules.md §3, seed 004,
plus solo practice): a new game, every move (`apply`), the answer to a guess, the results.

Phases: LOBBY → SETTING ⇄ GUESSING → FINISHED.

The dictionaries are reference data, not state: the App passes `ctx.lexicon(lang) -> Lexicon`
(see bot/solver/dictionary.py) and `apply` consults it to validate words and to pick the bot's words.
Only the current secret word and what was said are kept in the state.
"""

from __future__ import annotations

import re
from typing import Any

from core.errors import GameError
from core.games.actions import Cancel, GiveUp, Timeout
from core.games.base import Ctx, Event, Outcome, Player, ResultRow, Verb, moving
from core.games.words.actions import Begin, GuessWord, Join, Leave, SetWord, Skip, Vote
from core.games.words.events import (
    Abandoned,
    Begun,
    Cancelled,
    ClassicAnswer,
    Guessed,
    Guessing,
    Joined,
    Left,
    LimitReached,
    Lobby,
    MatchOver,
    NewRound,
    Reminded,
    SetterSkipped,
    Skipped,
    Solo,
    SoloGaveUp,
    SoloSolved,
    Solved,
    TimedOut,
    Voted,
    WordSet,
)
from core.games.words.options import check_options
from core.games.words.state import (
    AUTONYMS,
    GIVE_UP_PENALTY,
    MAX_PLAYERS,
    Mode,
    Options,
    Phase,
    Round,
    State,
    Try,
    WordsOutcome,
    active,
    guessers,
    is_pair,
    played,
    player,
)
from core.lexicon import Lexicon, is_word_of, normalise
from core.scoring import bulls_cows

LETTERS = re.compile(r"^[^\W\d_]+$")  # a word: letters only, no digit, hyphen, space or sign


def classic(secret: str, guess: str) -> ClassicAnswer:
    """Exactly one of miss / cow / bull / got it (RULES §3): рост/трос → cow, соль/соло → bull."""
    if secret == guess:
        return ClassicAnswer.GOT
    if any(s == g for s, g in zip(secret, guess, strict=True)):
        return ClassicAnswer.BULL
    if set(secret) & set(guess):
        return ClassicAnswer.COW
    return ClassicAnswer.MISS


# ---------------------------------------------------------------- creation

def new(opts: Options, opener: Player, ctx: Ctx) -> tuple[State, list[Event]]:
    """A lobby in a group; the opener has joined."""
    check_options(opts)
    state = State(opts=opts, opener=opener, players=[opener], mode=opts.mode, goal=opts.goal, updated=ctx.now)
    return state, [Lobby()]


def new_solo(opts: Options, player: Player, ctx: Ctx) -> tuple[State, list[Event]]:
    """Practice: the bot picks a common word of the language, one player guesses."""
    check_options(opts)
    state = State(opts=opts, opener=player, players=[player], phase=Phase.GUESSING, mode=Mode.SOLO, goal=0,
                  secret=_random_word(opts, ctx), turn=player.user_id, turn_since=ctx.now, updated=ctx.now)
    return state, [Solo()]



def follow_up(old: State, verb: str, user_id: str, ctx: Ctx) -> tuple[State, list[Event]] | None:
    """Solo: play again with a fresh word."""
    if verb != Verb.AGAIN or old.mode is not Mode.SOLO or user_id != old.opener.user_id:
        return None
    return new_solo(old.opts, old.opener, ctx)



def due_action(state: State, now: float) -> Skip | None:
    """A Skip when the current guesser (or setter) has run out of time and someone can take over.

    The App calls this whenever an inbound reaches the game and applies the Skip first."""
    if _overdue(state, now):
        return Skip()
    return None


def _overdue(s: State, now: float) -> bool:
    if s.mode is Mode.SOLO or is_pair(s) or now - s.turn_since < s.opts.turn_seconds:
        return False
    if s.phase is Phase.GUESSING:
        return len(guessers(s)) >= 2
    return s.phase is Phase.SETTING and len(active(s)) >= 3


# ---------------------------------------------------------------- rules

def apply(state: State, action: object, actor: str | None, ctx: Ctx) -> tuple[State, list[Event]]:
    """The one entry for every move; raises GameError and leaves `state` untouched when invalid."""
    s = moving(state, ctx)
    match action:
        case Join(name=name):
            return _join(s, actor, name)
        case Leave():
            return _leave(s, _seat(s, actor), ctx)
        case Begin():
            return _begin(s, _seat(s, actor), ctx)
        case Cancel():
            _need(s, Phase.LOBBY)
            if actor != s.opener.user_id:
                raise GameError("words.not_opener", name=s.opener.name)
            return _finish(s, WordsOutcome.CANCELLED, [Cancelled()])
        case SetWord(word=text):
            return _set_word(s, _seat(s, actor), text, ctx)
        case GuessWord(word=text):
            return _guess(s, _seat(s, actor), text, ctx)
        case Vote():
            return _vote(s, _seat(s, actor), ctx)
        case GiveUp():  # /giveup in solo
            if s.mode is not Mode.SOLO:
                raise GameError("not_now")
            _seat(s, actor)
            return _finish(s, WordsOutcome.GAVE_UP, [SoloGaveUp(s.secret, len(s.tries))])
        case Skip():
            if not _overdue(s, ctx.now):
                raise GameError("not_now")
            return _skip(s, ctx)
        case Timeout():
            return _time_out(s)
    raise GameError("not_now")


def _need(s: State, *phases: Phase) -> None:
    if s.phase in phases:
        return
    if s.phase is Phase.LOBBY:
        raise GameError("words.not_begun")
    raise GameError("words.wrong_phase")


def _seat(s: State, actor: str | None) -> str:
    if actor is None or actor not in active(s):
        raise GameError("not_a_player")
    return actor


def _join(s: State, actor: str | None, name: str) -> tuple[State, list[Event]]:
    if actor is None:
        raise GameError("not_a_player")
    if s.phase is not Phase.LOBBY:
        raise GameError("words.already_begun")
    if actor in active(s):
        raise GameError("words.already_joined")
    if len(s.players) >= MAX_PLAYERS:
        raise GameError("words.full", max=MAX_PLAYERS)
    s.players.append(Player(actor, name))
    return s, [Joined(actor, len(s.players))]


def _leave(s: State, seat: str, ctx: Ctx) -> tuple[State, list[Event]]:
    if s.phase is Phase.LOBBY:
        if seat == s.opener.user_id:
            return _finish(s, WordsOutcome.CANCELLED, [Cancelled()])
        gone = player(s, seat).name
        s.players = [p for p in s.players if p.user_id != seat]
        return s, [Left(seat, gone, len(s.players))]
    if s.mode is Mode.SOLO:
        return _finish(s, WordsOutcome.GAVE_UP, [SoloGaveUp(s.secret, len(s.tries))])
    s.left.append(seat)
    if seat in s.votes:
        s.votes.remove(seat)
    events: list[Event] = [Left(seat, player(s, seat).name, len(active(s)))]
    if len(active(s)) < 2:
        if (s.mode is Mode.PAIR_LIMIT or s.mode is Mode.PAIR_ROUNDS) and played(s):
            s.winners = active(s)
        return _end_match(s, events, reveal=True)
    if seat == s.setter:
        return _abandon(s, events, ctx, setter_left=True)
    if s.phase is Phase.GUESSING and s.turn == seat:
        s.turn = _next_guesser(s, seat)
        s.turn_since = ctx.now
    return s, events


def _begin(s: State, seat: str, ctx: Ctx) -> tuple[State, list[Event]]:
    _need(s, Phase.LOBBY)
    if seat != s.opener.user_id:
        raise GameError("words.not_opener", name=s.opener.name)
    if len(s.players) < 2:
        raise GameError("words.too_few")
    pair = len(s.players) == 2
    if pair:
        if s.opts.mode is Mode.PAIR_LIMIT:
            s.mode, s.goal = Mode.PAIR_LIMIT, s.opts.goal
        elif s.opts.mode is Mode.ROUNDS:  # an even number of rounds: an odd one is rounded up
            s.mode, s.goal = Mode.PAIR_ROUNDS, s.opts.goal + s.opts.goal % 2
        else:  # "first to N points": each player guesses N words
            s.mode, s.goal = Mode.PAIR_ROUNDS, 2 * s.opts.goal
    elif s.opts.mode is Mode.PAIR_LIMIT:
        raise GameError("words.limit_needs_two")
    order = list(s.players)
    ctx.rng.shuffle(order)
    s.players = order
    s.points = {p.user_id: 0 for p in order}
    s.counts = {p.user_id: 0 for p in order}
    setter = ctx.rng.choice(order).user_id
    events: list[Event] = [Begun(setter)]
    return _new_round(s, setter, events, ctx)


def _new_round(s: State, setter: str, events: list[Event], ctx: Ctx) -> tuple[State, list[Event]]:
    s.phase, s.setter, s.secret, s.turn = Phase.SETTING, setter, "", None
    s.tries, s.votes, s.turn_since = [], [], ctx.now
    return s, [*events, NewRound(len(s.rounds) + 1, setter)]


def validate(s: State, text: str, ctx: Ctx) -> str:
    lang = s.opts.lang
    word = normalise(text, lang)
    if not LETTERS.match(word):  # a digit, hyphen, space or sign: no word at all, whatever its length
        raise GameError("words.not_a_word", word=word[:20])
    if len(word) != s.opts.length:
        raise GameError("words.length", given=len(word), length=s.opts.length, n=s.opts.length)
    if not is_word_of(word, lang):
        raise GameError("words.letters", word=word[:20], lang=AUTONYMS[lang])
    if s.opts.strict and not _lexicon(ctx, lang).knows(word):
        raise GameError("words.unknown", word=word, lang=AUTONYMS[lang])
    return word


def _lexicon(ctx: Ctx, lang: str) -> Lexicon:
    source: Any = getattr(ctx, "lexicon", None)
    if source is None:
        raise GameError("words.no_dictionary")
    lex: Lexicon = source(lang)
    return lex


def _random_word(opts: Options, ctx: Ctx) -> str:
    pool = [w for w in _lexicon(ctx, opts.lang).common if len(w) == opts.length]
    if not pool:
        raise GameError("words.no_words", length=opts.length, lang=AUTONYMS[opts.lang])
    return ctx.rng.choice(pool)


def _set_word(s: State, seat: str, text: str | None, ctx: Ctx) -> tuple[State, list[Event]]:
    _need(s, Phase.SETTING)
    if seat != s.setter:
        raise GameError("words.not_setter", name=player(s, s.setter or "").name)
    s.secret = _random_word(s.opts, ctx) if text is None else validate(s, text, ctx)
    s.phase = Phase.GUESSING
    s.turn = _first_guesser(s)
    s.turn_since = ctx.now
    return s, [WordSet(seat, text is None), Guessing(s.turn)]


def _cycle_after(s: State, user_id: str, pool: list[str]) -> str:
    """The next id of `pool` after `user_id` in the lot's order, cyclically."""
    order = [p.user_id for p in s.players]
    start = order.index(user_id)
    for i in range(1, len(order) + 1):
        cand = order[(start + i) % len(order)]
        if cand in pool:
            return cand
    return pool[0]


def _first_guesser(s: State) -> str:
    return _cycle_after(s, s.setter or s.players[0].user_id, guessers(s))


def _next_guesser(s: State, after: str) -> str:
    return _cycle_after(s, after, guessers(s))


def _guess(s: State, seat: str, text: str, ctx: Ctx) -> tuple[State, list[Event]]:
    if s.phase is Phase.SETTING:
        raise GameError("words.no_word_yet", name=player(s, s.setter or "").name)
    _need(s, Phase.GUESSING)
    if seat == s.setter:
        raise GameError("words.you_set")
    if s.turn != seat:
        raise GameError("not_your_turn", name=player(s, s.turn or "").name)
    word = validate(s, text, ctx)
    if any(t.word == word for t in s.tries):
        raise GameError("words.already_said", word=word)
    bulls, cows = bulls_cows(s.secret, word)
    answer = classic(s.secret, word)
    s.tries.append(Try(seat, word, answer, bulls, cows))
    s.counts[seat] = s.counts.get(seat, 0) + 1
    events: list[Event] = [Guessed(seat, word, answer, bulls, cows, len(s.tries))]
    if s.mode is Mode.SOLO:
        if answer is ClassicAnswer.GOT:
            return _finish(s, WordsOutcome.SOLVED, [*events, SoloSolved(len(s.tries))])
        return s, events
    if s.mode is Mode.PAIR_LIMIT and s.counts[seat] >= s.goal:
        s.loser = seat
        s.winners = [u for u in active(s) if u != seat]
        s.rounds.append(Round(s.setter, s.secret, seat if answer is ClassicAnswer.GOT else None, len(s.tries), seat))
        return _end_match(s, [*events, LimitReached(seat, s.counts[seat])], reveal=True)
    if answer is ClassicAnswer.GOT:
        s.points[seat] = s.points.get(seat, 0) + 1
        s.rounds.append(Round(s.setter, s.secret, seat, len(s.tries), seat))
        events.append(Solved(seat, s.secret, len(s.tries)))
        if _match_done(s, seat):
            return _end_match(s, events, reveal=False)
        return _new_round(s, seat, events, ctx)  # the solver sets next (two players: roles alternate)
    s.turn = _next_guesser(s, seat)
    s.turn_since = ctx.now
    return s, events


def _other(s: State, user_id: str) -> str:
    return next((u for u in active(s) if u != user_id), user_id)


def _match_done(s: State, solver: str | None) -> bool:
    if s.mode is Mode.POINTS:
        return solver is not None and s.points.get(solver, 0) >= s.goal
    if s.mode in (Mode.ROUNDS, Mode.PAIR_ROUNDS):
        return len(s.rounds) >= s.goal
    return False


def _vote(s: State, seat: str, ctx: Ctx) -> tuple[State, list[Event]]:
    if s.mode is Mode.SOLO:
        return _finish(s, WordsOutcome.GAVE_UP, [SoloGaveUp(s.secret, len(s.tries))])
    _need(s, Phase.SETTING, Phase.GUESSING)
    if seat == s.setter:
        raise GameError("words.setter_cannot_vote")
    if is_pair(s) and s.phase is Phase.SETTING:
        raise GameError("words.no_word_yet", name=player(s, s.setter or "").name)
    if seat in s.votes:
        raise GameError("words.already_voted")
    s.votes.append(seat)
    needed = len(guessers(s)) // 2 + 1  # a strict majority of the guessers
    events: list[Event] = [Voted(seat, len(s.votes), needed)]
    if len(s.votes) < needed:
        return s, events
    return _abandon(s, events, ctx, setter_left=False)


def _abandon(s: State, events: list[Event], ctx: Ctx, setter_left: bool) -> tuple[State, list[Event]]:
    """No point; the word (if set) is revealed; the next player in order sets."""
    setter = s.setter or ""
    n = len(s.tries)
    guesser, penalty = None, 0
    if is_pair(s):
        guesser = _other(s, setter)
        if not setter_left:
            penalty = GIVE_UP_PENALTY
            s.counts[guesser] = s.counts.get(guesser, 0) + penalty
            n += penalty
    s.rounds.append(Round(setter, s.secret, None, n, guesser))
    events = [*events, Abandoned(s.secret, setter, setter_left, guesser, penalty)]
    if s.mode is Mode.PAIR_LIMIT and guesser is not None and s.counts[guesser] >= s.goal:
        s.loser, s.winners = guesser, [setter]
        return _end_match(s, [*events, LimitReached(guesser, s.counts[guesser])],
                          reveal=False)
    if _match_done(s, None):
        return _end_match(s, events, reveal=False)
    return _new_round(s, _cycle_after(s, setter, active(s)), events, ctx)


def _skip(s: State, ctx: Ctx) -> tuple[State, list[Event]]:
    late = s.turn if s.phase is Phase.GUESSING else s.setter
    if s.phase is Phase.GUESSING and not ctx.typed and s.reminded != s.turn_since and late:
        s.turn_since = s.reminded = ctx.now  # the plain word may have gone unheard: told, and timed once more
        return s, [Reminded(late)]
    if s.phase is Phase.GUESSING:
        s.turn = _next_guesser(s, late or "")
        s.turn_since = ctx.now
        return s, [Skipped(late, s.turn)]
    nxt = _cycle_after(s, late or "", [u for u in active(s) if u != late])
    return _new_round(s, nxt, [SetterSkipped(late, nxt)], ctx)


def _time_out(s: State) -> tuple[State, list[Event]]:
    """The game's time ran out. In a begun match the player who owed the move (the setter's word or
    the guesser's guess) leaves it, ranked last, and the match ends; a lobby or solo practice is
    abandoned."""
    late = s.setter if s.phase is Phase.SETTING else s.turn
    if s.phase is Phase.LOBBY or s.mode is Mode.SOLO or late is None or late not in active(s):
        return _finish(s, WordsOutcome.TIMEOUT, [TimedOut(s.secret)])
    s.left.append(late)
    if is_pair(s):
        s.winners = active(s)
    return _end_match(s, [TimedOut(s.secret)], reveal=True)


def _end_match(s: State, events: list[Event], reveal: bool) -> tuple[State, list[Event]]:
    if not s.winners and played(s):
        if is_pair(s):
            act = active(s)
            best = min(s.counts.get(u, 0) for u in act)
            s.winners = [u for u in act if s.counts.get(u, 0) == best]
        else:
            act = active(s)
            best = max(s.points.get(u, 0) for u in act)
            s.winners = [u for u in act if s.points.get(u, 0) == best]
    return _finish(s, WordsOutcome.FINISHED, [*events, MatchOver(s.secret if reveal else "")])


def _finish(s: State, outcome: WordsOutcome, events: list[Event]) -> tuple[State, list[Event]]:
    s.phase, s.outcome, s.turn = Phase.FINISHED, outcome, None
    return s, events


def results(state: State) -> list[ResultRow]:
    """Statistics: group and two-player matches (solo practice is not a match and is not recorded)."""
    if state.mode is Mode.SOLO or state.outcome is WordsOutcome.CANCELLED or not state.points:
        return []
    rows = []
    for p in state.players:
        n = state.counts.get(p.user_id, 0)
        if state.outcome is WordsOutcome.TIMEOUT:
            outcome = Outcome.ABANDONED
        elif p.user_id in state.left:
            outcome = Outcome.GAVE_UP
        elif not state.winners:  # ended before a word was set: nobody won or lost
            outcome = Outcome.ABANDONED
        elif p.user_id in state.winners:
            outcome = Outcome.WIN if len(state.winners) == 1 else Outcome.DRAW
        else:
            outcome = Outcome.LOSS
        rows.append(ResultRow(p.user_id, p.name, outcome, n))
    return rows
