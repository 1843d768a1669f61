"""Бык-корова: word Bulls & Cows for a group (docs/rules.md §3, seed 004), plus solo practice.

Phases: LOBBY → SETTING ⇄ GUESSING → FINISHED.

The dictionaries are reference data, not state: the App passes `ctx.lexicon(lang) -> Lexicon`
(see bot/dictionary.py) and `apply` consults it to validate words and to pick the bot's words.
Only the current secret word and what was said are kept in the state.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass, field
from enum import StrEnum
from typing import Any

from core.errors import GameError
from core.games.actions import Cancel, Timeout
from core.games.base import Ctx, Event, Outcome, Player, ResultRow, button, moving, say, to_actor
from core.games.base import is_over as is_over  # is_over, last_activity: the Rules protocol
from core.games.base import last_activity as last_activity
from core.games.words.events import EVENTS as EVENTS
from core.games.words.events import (
    Abandoned,
    Begun,
    Cancelled,
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
from core.games.words.events import Answer as Answer
from core.lexicon import ALPHABETS as ALPHABETS  # a language's words (core/lexicon.py), re-exported for the game
from core.lexicon import Lexicon as Lexicon
from core.lexicon import LexiconSource as LexiconSource
from core.lexicon import is_word_of as is_word_of
from core.lexicon import normalise as normalise
from core.messages import Button, Chat, Message, Text
from core.options import Vocabulary, meaning
from core.scoring import bulls_cows

kind = "words"

LENGTHS = range(3, 9)  # RULES §3: 3–8 letters
DEFAULT_LENGTH = 5
DEFAULT_POINTS = 3
DEFAULT_TURN_SECONDS = 180
TURN_SECONDS = range(30, 24 * 3600 + 1)
MAX_PLAYERS = 12
GIVE_UP_PENALTY = 10  # two players: a round given up costs the guesser this many guesses more

LANGUAGES = tuple(ALPHABETS)
# The language names shown to players (autonyms). The four answers are catalog entries (`words.answer.*`).
AUTONYMS = {"en": "English", "de": "Deutsch", "ru": "русский", "bg": "български", "sv": "svenska"}
_LETTERS = re.compile(r"^[^\W\d_]+$")


def accepts_text(state: State, text: str) -> bool:
    """A plain message that may be a guess: one word of letters (App hook)."""
    t = text.strip()
    return 2 <= len(t) <= 16 and bool(_LETTERS.match(t))


def classic(secret: str, guess: str) -> Answer:
    """Exactly one of miss / cow / bull / got it (RULES §3): рост/трос → cow, соль/соло → bull."""
    if secret == guess:
        return Answer.GOT
    if any(s == g for s, g in zip(secret, guess, strict=True)):
        return Answer.BULL
    if set(secret) & set(guess):
        return Answer.COW
    return Answer.MISS


class Phase(StrEnum):
    LOBBY = "lobby"
    SETTING = "setting"
    GUESSING = "guessing"
    FINISHED = "finished"


class Mode(StrEnum):
    """How the match ends. PAIR_*: the two-player variants (decided at /begin)."""

    POINTS = "points"  # first to `goal` points
    ROUNDS = "rounds"  # `goal` rounds, most points
    PAIR_ROUNDS = "pair_rounds"  # two players, an even number of rounds, fewer total guesses wins
    PAIR_LIMIT = "pair_limit"  # two players, whoever's total guesses reach `goal` loses
    SOLO = "solo"  # practice against the bot


@dataclass(frozen=True)
class Options:
    length: int = DEFAULT_LENGTH
    mode: Mode = Mode.POINTS  # as asked: POINTS, ROUNDS or PAIR_LIMIT ("limit N")
    goal: int = DEFAULT_POINTS
    counts: bool = False  # answers as bull and cow counts instead of classic
    strict: bool = True  # guesses and words must be in the dictionary
    lang: str = "en"
    turn_seconds: int = DEFAULT_TURN_SECONDS


@dataclass(frozen=True)
class Try:
    by: str
    word: str
    answer: Answer
    bulls: int
    cows: int


@dataclass(frozen=True)
class Round:
    setter: str | None
    word: str
    solver: str | None  # None: abandoned
    guesses: int
    guesser: str | None = None  # two players: whose guesses these were


@dataclass
class State:
    opts: Options
    opener: Player
    players: list[Player] = field(default_factory=list)  # in the lot's order once begun
    phase: Phase = Phase.LOBBY
    mode: Mode = Mode.POINTS  # the mode actually played (decided at /begin)
    goal: int = DEFAULT_POINTS
    setter: str | None = None  # None in solo: the bot
    secret: str = ""
    turn: str | None = None
    turn_since: float = 0.0  # when the current guesser's (or setter's) time began
    reminded: float = -1.0  # the `turn_since` a reminder gave (`Reminded`): that turn's time runs out as a skip
    tries: list[Try] = field(default_factory=list)  # this round
    votes: list[str] = field(default_factory=list)  # to abandon this round
    points: dict[str, int] = field(default_factory=dict)
    counts: dict[str, int] = field(default_factory=dict)  # guesses made as guesser, over the match
    rounds: list[Round] = field(default_factory=list)
    left: list[str] = field(default_factory=list)
    outcome: str | None = None  # "finished" | "cancelled" | "timeout" | "solved" | "gave_up"
    winners: list[str] = field(default_factory=list)
    loser: str | None = None  # PAIR_LIMIT: who reached the limit
    updated: float = 0.0
    seen: dict[str, list[str]] = field(default_factory=dict)  # setter → their words the group saw (exposed.py)


state_type = State


# ---------------------------------------------------------------- actions

@dataclass(frozen=True)
class Join:
    name: str


@dataclass(frozen=True)
class Leave:
    pass


@dataclass(frozen=True)
class Begin:
    pass



@dataclass(frozen=True)
class SetWord:
    word: str | None  # None: the bot picks a common word


@dataclass(frozen=True)
class Guess:
    word: str


@dataclass(frozen=True)
class Vote:
    """/giveup in a group game: a vote to abandon the round."""


@dataclass(frozen=True)
class GiveUp:
    """/giveup in solo."""


@dataclass(frozen=True)
class Skip:
    """The current guesser's (or setter's) time is over; applied lazily by the App (`due_action`)."""



# ---------------------------------------------------------------- creation

def new(opts: Options, opener: Player, ctx: Ctx) -> tuple[State, list[Event]]:
    """A lobby in a group; the opener has joined."""
    _check_opts(opts)
    state = State(opts=opts, opener=opener, players=[opener], mode=opts.mode, goal=opts.goal, updated=ctx.now)
    return state, [Lobby()]


def new_solo(opts: Options, player: Player, ctx: Ctx) -> tuple[State, list[Event]]:
    """Practice: the bot picks a common word of the language, one player guesses."""
    _check_opts(opts)
    state = State(opts=opts, opener=player, players=[player], phase=Phase.GUESSING, mode=Mode.SOLO, goal=0,
                  secret=_random_word(opts, ctx), turn=player.user_id, turn_since=ctx.now, updated=ctx.now)
    return state, [Solo()]


def _check_opts(opts: Options) -> None:
    if opts.length not in LENGTHS:
        raise GameError("words.bad_length", given=opts.length, min=LENGTHS[0], max=LENGTHS[-1])
    if opts.lang not in ALPHABETS:
        raise GameError("words.bad_lang", given=opts.lang, languages=", ".join(LANGUAGES))
    if opts.goal < 1 or opts.goal > 100:
        raise GameError("words.bad_goal", given=opts.goal)
    if opts.turn_seconds not in TURN_SECONDS:
        raise GameError("words.bad_time", given=opts.turn_seconds)


def follow_up(old: State, verb: str, user_id: str, ctx: Ctx) -> tuple[State, list[Event]] | None:
    """Solo: play again with a fresh word."""
    if verb != "again" or old.mode is not Mode.SOLO or user_id != old.opener.user_id:
        return None
    return new_solo(old.opts, old.opener, ctx)


# ---------------------------------------------------------------- queries

def players(state: State) -> list[Player]:
    return list(state.players)


def seated(state: State) -> list[Player]:
    """Everyone who joined and has not left holds the chat seat."""
    if state.phase is Phase.FINISHED:
        return []
    return [p for p in state.players if p.user_id not in state.left]


def active(state: State) -> list[str]:
    return [p.user_id for p in state.players if p.user_id not in state.left]


def guessers(state: State) -> list[str]:
    return [u for u in active(state) if u != state.setter]


def player(state: State, user_id: str) -> Player:
    for p in state.players:
        if p.user_id == user_id:
            return p
    raise GameError("not_a_player")


def is_pair(state: State) -> bool:
    return state.mode in (Mode.PAIR_ROUNDS, Mode.PAIR_LIMIT)


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


def awaiting_word(state: State, user_id: str) -> bool:
    return state.phase is Phase.SETTING and state.setter == user_id


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
            return _finish(s, "cancelled", [Cancelled()])
        case SetWord(word=text):
            return _set_word(s, _seat(s, actor), text, ctx)
        case Guess(word=text):
            return _guess(s, _seat(s, actor), text, ctx)
        case Vote():
            return _vote(s, _seat(s, actor), ctx)
        case GiveUp():
            if s.mode is not Mode.SOLO:
                raise GameError("not_now")
            _seat(s, actor)
            return _finish(s, "gave_up", [SoloGaveUp(s.secret, len(s.tries))])
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
            return _finish(s, "cancelled", [Cancelled()])
        gone = player(s, seat).name
        s.players = [p for p in s.players if p.user_id != seat]
        return s, [Left(seat, gone, len(s.players))]
    if s.mode is Mode.SOLO:
        return _finish(s, "gave_up", [SoloGaveUp(s.secret, len(s.tries))])
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
    if not _LETTERS.match(word):  # a digit, hyphen, space or sign: no word at all, whatever its length
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
        if answer is Answer.GOT:
            return _finish(s, "solved", [*events, SoloSolved(len(s.tries))])
        return s, events
    if s.mode is Mode.PAIR_LIMIT and s.counts[seat] >= s.goal:
        s.loser = seat
        s.winners = [u for u in active(s) if u != seat]
        s.rounds.append(Round(s.setter, s.secret, seat if answer is Answer.GOT else None, len(s.tries), seat))
        return _end_match(s, [*events, LimitReached(seat, s.counts[seat])], reveal=True)
    if answer is Answer.GOT:
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
        return _finish(s, "gave_up", [SoloGaveUp(s.secret, len(s.tries))])
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
        return _finish(s, "timeout", [TimedOut(s.secret)])
    s.left.append(late)
    if is_pair(s):
        s.winners = active(s)
    return _end_match(s, [TimedOut(s.secret)], reveal=True)


def played(s: State) -> bool:
    """Was a word ever set in the match? A match ended before that has no winner."""
    return bool(s.secret) or any(r.word for r in s.rounds)


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
    return _finish(s, "finished", [*events, MatchOver(s.secret if reveal else "")])


def _finish(s: State, outcome: str, events: list[Event]) -> tuple[State, list[Event]]:
    s.phase, s.outcome, s.turn = Phase.FINISHED, outcome, None
    return s, events


def movers(state: State) -> set[str]:
    """The players who made a move in the match: a guess, or a word set for the others."""
    setters = {r.setter for r in state.rounds if r.setter and r.word}
    if state.setter and state.secret:
        setters.add(state.setter)
    return {u for u, n in state.counts.items() if n > 0} | {u for u in setters if u is not None}


def results(state: State) -> list[ResultRow]:
    """Statistics: group and two-player matches (solo practice is not a match and is not recorded)."""
    if state.mode is Mode.SOLO or state.outcome == "cancelled" or not state.points:
        return []
    rows = []
    for p in state.players:
        n = state.counts.get(p.user_id, 0)
        if state.outcome == "timeout":
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


# ---------------------------------------------------------------- capabilities (core/games/<kind>/game.py)

def secret_prompt(game_id: int, state: State, user_id: str) -> Text | None:
    if not awaiting_word(state, user_id):
        return None
    return Text("words.word_prompt_again", {"game": game_id, "length": state.opts.length,
                                             "lang": AUTONYMS[state.opts.lang]})


def secret_action(text: str | None) -> SetWord:
    return SetWord(text)


def text_action(state: State, user_id: str, text: str) -> Guess:
    return Guess(text)


def button_action(state: State, verb: str, user_id: str, name: str, text: str | None) -> object | None:
    return {"join": Join(name), "leave": Leave(), "begin": Begin(), "random": SetWord(None),
            "vote": Vote()}.get(verb)


def join_action(state: State, user_id: str, name: str) -> Join | None:
    """/join: this game takes new players now."""
    return Join(name) if state.phase is Phase.LOBBY else None


def quit_action(state: State, user_id: str, command: str) -> object | None:
    """/giveup: solo → give up; a group round → a vote to abandon it. /resign: leave the match."""
    if command == "giveup":
        return GiveUp() if state.mode is Mode.SOLO else Vote()
    if command == "resign":
        return Leave()
    return None


def cancel_action(state: State, user_id: str) -> object:
    if state.phase is not Phase.LOBBY:
        raise GameError("words.cancel_running")
    return Cancel()


# ---------------------------------------------------------------- presenter

_ANSWER_KEYS = {Answer.MISS: "words.answer.miss", Answer.COW: "words.answer.cow", Answer.BULL: "words.answer.bull",
                Answer.GOT: "words.answer.got"}


def answer_text(state: State, t: Try) -> Text:
    """Classic: the symbol and the answer word in the game's language — a reader of another chat language
    sees their own word in brackets beside it (`мимо (miss)`), one of the same language sees it once;
    counts: A and B."""
    if state.opts.counts:
        return Text("words.counts", {"a": t.bulls, "b": t.cows})
    return Text("words.answer_line", {"symbol": SYMBOLS[t.answer],
                                      "word": Text(_ANSWER_KEYS[t.answer], lang=state.opts.lang)})


def options_text(state: State) -> Text:
    o = state.opts
    mode = state.mode if state.phase is not Phase.LOBBY else o.mode
    goal = state.goal if state.phase is not Phase.LOBBY else o.goal
    ends = {Mode.POINTS: "words.ends.points", Mode.ROUNDS: "words.ends.rounds",
            Mode.PAIR_ROUNDS: "words.ends.pair_rounds", Mode.PAIR_LIMIT: "words.ends.pair_limit",
            Mode.SOLO: "words.ends.solo"}[mode]
    return Text("words.options", {
        "length": o.length, "lang": AUTONYMS[o.lang], "ends": Text(ends, {"n": goal}),
        "answers": Text("words.answers_counts" if o.counts else "words.answers_classic"),
        "dictionary": Text("words.strict" if o.strict else "words.free"), "seconds": o.turn_seconds})


def _names(state: State, ids: Sequence[str]) -> str:
    return ", ".join(player(state, u).name for u in ids)


def standings(state: State) -> str:
    """One line per player: points (groups) or total guesses (two players), best first."""
    act = [p for p in state.players]
    if is_pair(state):
        act.sort(key=lambda p: state.counts.get(p.user_id, 0))
        return "\n".join(f"{p.name}: {state.counts.get(p.user_id, 0)}" + (" ✗" if p.user_id in state.left else "")
                         for p in act)
    act.sort(key=lambda p: -state.points.get(p.user_id, 0))
    lines, place, prev = [], 0, None
    for i, p in enumerate(act, 1):
        pts = state.points.get(p.user_id, 0)
        if pts != prev:
            place, prev = i, pts
        lines.append(f"{place}. {p.name}: {pts}" + (" ✗" if p.user_id in state.left else ""))
    return "\n".join(lines)


SYMBOLS = {Answer.MISS: "⚪", Answer.COW: "🐄", Answer.BULL: "🐂", Answer.GOT: "🎯"}


def symbol(state: State, t: Try) -> str:
    """The compact answer of the board: one symbol (classic) or counts."""
    return f"{t.bulls}🐂 {t.cows}🐄" if state.opts.counts else SYMBOLS[t.answer]


def board(game_id: int, state: State, chat: Chat) -> Message:
    """/board: phase, whose turn, this round's words and answers (never the secret), the standings."""
    if state.phase is Phase.LOBBY:
        status = Text("words.board_lobby", {"names": _names(state, active(state))})
    elif state.phase is Phase.SETTING:
        status = Text("words.board_setting", {"name": player(state, state.setter or "").name})
    elif state.phase is Phase.GUESSING and state.turn:
        status = Text("words.board_turn", {"name": player(state, state.turn).name})
    else:
        status = Text("words.board_over")
    rows = "\n".join(f"#{i} {player(state, t.by).name}: {t.word} → {symbol(state, t)}"
                     for i, t in enumerate(state.tries, 1))
    return say(chat, "words.board", game=game_id, options=options_text(state), status=status, tries=rows or "—",
               standings=standings(state) if state.points else "—")


def present(game_id: int, state: State, events: Sequence[Event], chat: Chat) -> list[Message]:
    out: list[Message] = []
    name = {p.user_id: p.name for p in state.players}
    for ev in events:
        match ev:
            case Lobby():
                keys = ((button(game_id, "join", "words.button_join"),
                         button(game_id, "begin", "words.button_begin", settles=True)),)
                out.append(say(chat, "words.lobby", keys, name=state.opener.name, options=options_text(state)))
            case Joined(by=by, n=n):
                out.append(say(chat, "words.joined", name=name[by], n=n, opener=state.opener.name))
            case Left(name=gone, n=n):
                out.append(say(chat, "words.left", name=gone, n=n))
            case Cancelled():
                out.append(say(chat, "words.cancelled", name=state.opener.name))
            case Begun(setter=setter):
                order = ", ".join(p.name for p in state.players)
                out.append(say(chat, "words.begun", order=order, setter=name[setter], options=options_text(state)))
            case NewRound(n=n, setter=setter):
                out.extend(_round_start(game_id, state, chat, n, setter))
            case WordSet(by=by):
                out.append(say(to_actor(chat, player(state, by)), "words.word_locked", word=state.secret,
                               game=game_id))
            case Guessing(turn=turn):
                vote = ((button(game_id, "vote", "words.button_vote"),),)
                out.append(say(chat, "words.guessing", vote, setter=name.get(state.setter or "", ""),
                               name=name[turn], length=state.opts.length, seconds=state.opts.turn_seconds)
                           .notify(turn))
            case Guessed(by=by, word=word, answer=answer, bulls=bulls, cows=cows):
                tr = Try(by, word, answer, bulls, cows)
                nxt = state.turn if state.phase is Phase.GUESSING and state.mode is not Mode.SOLO else None
                if nxt and answer is not Answer.GOT:
                    out.append(say(chat, "words.guess_next", name=name[by], word=word,
                                   answer=answer_text(state, tr), next=name[nxt]).notify(nxt))
                else:
                    out.append(say(chat, "words.guess", name=name[by], word=word, answer=answer_text(state, tr)))
            case Solved(by=by, word=word, n=n):
                out.append(say(chat, "words.solved", name=name[by], word=word, n=n, standings=standings(state)))
            case Voted(by=by, votes=votes, needed=needed):
                out.append(say(chat, "words.vote", name=name[by], votes=votes, n=needed))
            case Abandoned(word=word, setter=setter, left=left, guesser=guesser, penalty=penalty):
                if penalty:  # two players: the guesser pays for the word given up
                    out.append(say(chat, "words.abandoned_penalty", word=word or "—", n=penalty,
                                   name=name.get(guesser or "", "?"), setter=name.get(setter, "?")))
                else:
                    key = ("words.abandoned_left" if word else "words.setter_left_unset") if left \
                        else "words.abandoned"
                    out.append(say(chat, key, word=word or "—", setter=name.get(setter, "?")))
            case Skipped(by=by, turn=turn):
                out.append(say(chat, "words.skipped", name=name.get(by or "", "?"), next=name[turn or ""],
                               seconds=state.opts.turn_seconds).notify(*([turn] if turn else [])))
            case Reminded(by=by):
                out.append(say(chat, "words.reminded", name=name[by], seconds=state.opts.turn_seconds).notify(by))
            case SetterSkipped(by=by, setter=setter):
                out.append(say(chat, "words.setter_skipped", name=name.get(by or "", "?"), setter=name[setter]))
            case LimitReached(by=by, n=n):
                out.append(say(chat, "words.limit_reached", name=name[by], n=n))
            case MatchOver(word=word):
                out.append(_final(game_id, state, chat, word))
            case TimedOut() if state.outcome == "finished":  # decided: who owed the move left it
                out.append(say(chat, "words.timed_out_lost", name=name.get(state.left[-1], "?")))
            case TimedOut(word=word):
                out.append(say(chat, "words.timed_out", word=word or "—"))
            case Solo():
                out.append(say(chat, "words.solo_started", name=state.opener.name, length=state.opts.length,
                               lang=AUTONYMS[state.opts.lang],
                               answers=Text("words.answers_counts" if state.opts.counts else "words.answers_classic")))
            case SoloSolved(n=n):
                again = ((button(game_id, "again", "button.again", settles=True),),)
                out.append(say(chat, "words.solo_solved", again, name=state.opener.name, word=state.secret, n=n))
            case SoloGaveUp(word=word, n=n):
                out.append(say(chat, "words.solo_gave_up", name=state.opener.name, word=word, n=n))
    return out


def _round_start(game_id: int, state: State, chat: Chat, n: int, setter_id: str) -> list[Message]:
    """Announce the round in the group; ask the setter privately (the group gets a fallback button)."""
    setter = player(state, setter_id)
    out = [say(chat, "words.round", n=n, setter=setter.name)]
    enter = Button(Text("words.button_set_word"), f"g:{game_id}:secret",
                   prompt=Text("words.word_input", {"length": state.opts.length}))
    fallback = say(chat, "words.word_fallback", ((enter,),), name=setter.name).notify(setter.user_id)
    draw = button(game_id, "random", "words.button_random", settles=True)
    prompt = say(to_actor(chat, setter), "words.word_prompt", ((draw,),),
                 game=game_id, length=state.opts.length, lang=AUTONYMS[state.opts.lang])
    out.append(Message(prompt.to, prompt.text, prompt.buttons, fallback=fallback))
    return out


def _final(game_id: int, state: State, chat: Chat, word: str) -> Message:
    if len(state.winners) == 1:
        result = Text("words.result_win", {"name": player(state, state.winners[0]).name})
    elif state.winners:
        result = Text("words.result_draw", {"names": _names(state, state.winners)})
    elif not played(state):
        result = Text("words.result_no_word")
    else:
        result = Text("words.result_none")
    history = "\n".join(
        f"{i}. {player(state, r.setter).name if r.setter else '—'}: {r.word or '—'} → "
        + (f"{player(state, r.solver).name} ({r.guesses})" if r.solver else f"✗ ({r.guesses})")
        for i, r in enumerate(state.rounds, 1))
    return say(chat, "words.final", result=result, standings=standings(state), rounds=history or "—",
               word=Text("words.final_word", {"word": word}) if word else "")


def leave_action(state: State, user_id: str) -> Leave:
    return Leave()


# ---------------------------------------------------------------- command options

# The option ids (core/options.py); a catalog names each in its own language.
_KEYWORDS = ("length", "rounds", "points", "limit", "answers", "lang", "time")  # followed by a value
_FLAGS = {"strict": ("strict", True), "free": ("strict", False),
          "classic": ("counts", False), "counts": ("counts", True)}


def parse_options(args: Sequence[str], lang: str, vocab: Vocabulary | None = None) -> tuple[bool, Options]:
    """`/words [solo] [length N] [rounds N | points N | limit N] [answers classic|counts] [strict|free]
    [lang CODE] [time SECONDS]` → (solo?, options); the option words in any language the vocabulary knows.
    Anything else is a coded error."""
    values: dict[str, Any] = {"lang": lang}
    solo = False
    words = [w.lower() for a in args for w in a.split()]  # a Discord slash option is one string
    i = 0
    while i < len(words):
        w = words[i]
        flag = meaning(w, vocab, _FLAGS)
        keyword = meaning(w, vocab, _KEYWORDS)
        if i == 0 and meaning(w, vocab, ("solo",)):
            solo = True
        elif flag:
            flag_key, flag_value = _FLAGS[flag]
            values[flag_key] = flag_value
        elif keyword and i + 1 < len(words):
            key, val = keyword, words[i + 1]
            i += 1
            if key == "answers":
                answer = meaning(val, vocab, ("classic", "counts"))
                if answer is None:
                    raise GameError("bad_option", option=val[:30])
                values["counts"] = _FLAGS[answer][1]
            elif key == "lang":
                values["lang"] = val
            elif not val.isdecimal():
                raise GameError("bad_option", option=val[:30])
            elif key in ("rounds", "points", "limit"):
                if "mode" in values:
                    raise GameError("words.one_end")
                values["mode"] = {"rounds": Mode.ROUNDS, "points": Mode.POINTS, "limit": Mode.PAIR_LIMIT}[key]
                values["goal"] = int(val)
            elif key == "length":
                values["length"] = int(val)
            else:
                values["turn_seconds"] = int(val)
        else:
            raise GameError("bad_option", option=w[:30])
        i += 1
    if values["lang"] not in ALPHABETS:
        raise GameError("words.bad_lang", given=str(values["lang"])[:10], languages=", ".join(LANGUAGES))
    opts = Options(**values)
    _check_opts(opts)
    return solo, opts
