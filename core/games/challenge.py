"""The two-player challenge flow shared by the 1A2B duel and Logik: both go challenge → secrets →
play, so a button, a plain message or /resign means the same in each. Here: the state both keep
alike, the seats, the moves both share (`apply`, `finish`, the phase checks, /cancel, the rematch),
their statistics (`results`), and `ChallengeGame`, the part of the game interface (core/games/base.py)
both implement alike. Their events are in core/games/challenge_events.py, the messages of the flow in
core/games/challenge_presenter.py."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from enum import StrEnum
from typing import Any

from core import serial
from core.errors import GameError
from core.games.actions import Accept, Cancel, Decline, Exposed, Guess, Resign, SetSecret, Timeout
from core.games.base import (
    Ctx,
    Event,
    Game,
    MatchScore,
    Outcome,
    Player,
    ResultRow,
    S,
    Verb,
    moving,
)
from core.games.challenge_events import (
    UNPLAYED,
    Accepted,
    Cancelled,
    ChallengeOutcome,
    Declined,
    Finished,
    Resigned,
    SecretSeen,
    SecretsWanted,
    TimedOut,
)


class Answer(StrEnum):
    """How a challenge concerns someone who may /accept or /decline it."""

    TARGETED = "targeted"  # aimed at them by name
    OPEN = "open"  # open to anyone but the one who made it


@dataclass(frozen=True)
class Challenge:
    """A two-player challenge (or rematch offer) waiting for its answer, as the App sees it."""

    offerer: str  # who made it: the other one answers
    pair: frozenset[str]  # the user ids of its players (one, for an open challenge)
    offer: bool  # a rematch offer (made from a finished game)
    names: dict[str, str]  # user id → name, of the pair

    def other_name(self, user_id: str) -> str:
        return next((n for u, n in self.names.items() if u != user_id), "")


class Phase(StrEnum):
    CHALLENGE = "challenge"
    SECRETS = "secrets"
    PLAYING = "playing"
    FINISHED = "finished"


@dataclass(kw_only=True)
class ChallengeState:
    """The state both challenge games keep alike; each game's `State` adds its players
    (`challenger`, `opponent`: None for an open challenge) and its own play."""

    phase: Phase = Phase.CHALLENGE
    offered_by: str | None = None  # who offered a rematch (the other one accepts)
    secrets: dict[str, str] = field(default_factory=dict)  # owner id → the code the other cracks
    seen: dict[str, list[str]] = field(default_factory=dict)  # owner id → codes of theirs the group saw (`Exposed`)
    outcome: ChallengeOutcome | None = None
    winner: str | None = None
    match: MatchScore = field(default_factory=MatchScore)
    updated: float = 0.0
    disguise: int | None = None  # the computer opponent's hidden random seed (core/solver/games.py)
    next_game: int | None = None  # id of the rematch offered from this finished game (set by the App)


# ---------------------------------------------------------------- seats of a two-player challenge
# Both games' states have `challenger`, `opponent` (None for an open challenge), `offered_by` (a
# rematch offer) and a `phase` whose values include "challenge" and "secrets".

def players(state: Any) -> list[Player]:
    return [p for p in (state.challenger, state.opponent) if p is not None]


def player(state: Any, user_id: str) -> Player:
    for p in players(state):
        if p.user_id == user_id:
            return p
    raise GameError("not_a_player")


def other(state: Any, user_id: str) -> Player:
    for p in players(state):
        if p.user_id != user_id:
            return p
    raise GameError("not_a_player")


def offerer(state: Any) -> str:
    """Who made the challenge (or offered the rematch): the other one answers it."""
    by: str = state.offered_by or state.challenger.user_id
    return by


def unplayed_offer(state: Any) -> bool:
    """A rematch offer that ended unanswered: it carries the match on as its source game would."""
    return state.offered_by is not None and state.outcome in UNPLAYED


def seat_ids(state: Any) -> set[str]:
    return {p.user_id for p in players(state)}


def seated(state: Any) -> list[Player]:
    """Who holds a seat in the chat: only the offerer while a challenge waits for an answer."""
    if state.phase.value == "challenge":
        return [player(state, offerer(state))]
    return players(state)


def can_answer(state: Any, user_id: str) -> Answer | None:
    """Whether this user may accept/decline: `TARGETED` (aimed at them), `OPEN`, or None."""
    if state.phase.value != "challenge" or user_id == offerer(state):
        return None
    if state.opponent is None:
        return Answer.OPEN
    return Answer.TARGETED if user_id in seat_ids(state) else None


def seat(state: Any, actor: str | None) -> str:
    """The actor's seat, or `not_a_player`."""
    if actor is None or actor not in seat_ids(state):
        raise GameError("not_a_player")
    return actor


def awaiting_secret(state: Any, user_id: str) -> bool:
    """The game waits for this player's secret."""
    return bool(state.phase.value == "secrets" and user_id not in state.secrets and user_id in seat_ids(state))


def need(state: Any, phase: str) -> None:
    if state.phase.value != phase:
        raise GameError("wrong_phase")


def need_playing(s: Any, seat: str, missing: Callable[[str], GameError]) -> None:
    """A guess needs the game running; before that, say what it waits for: an answer to the
    challenge, or a secret (`missing`: the game's error, given the name of the other player when
    theirs is the one missing)."""
    if s.phase.value == "challenge":
        raise GameError("not_accepted")
    if s.phase.value == "secrets":
        waiting = [p for p in players(s) if p.user_id not in s.secrets]
        late = next((p for p in waiting if p.user_id != seat), waiting[0])
        raise missing(late.name)
    need(s, "playing")


def need_secret(s: Any, seat: str) -> None:
    """Setting one's secret: only while secrets are asked, and once."""
    need(s, "secrets")
    if seat in s.secrets:
        raise GameError("secret_locked")


def cancel_action(state: Any, running: GameError) -> Cancel:
    """/cancel withdraws a challenge; a running game is given up with /resign (`running`: the game's
    error that says so)."""
    if state.phase.value != "challenge":
        raise running
    return Cancel()


def follow_up(old: Any, verb: str, user_id: str, ctx: Ctx,
              rematch: Callable[[Any, str, Ctx], tuple[Any, list[Event]]]) -> tuple[Any, list[Event]] | None:
    """A rematch (the game's `rematch`) from a finished game; challenge games have no other follow-up."""
    return rematch(old, user_id, ctx) if verb == Verb.REMATCH else None


def need_challenge(state: Any) -> None:
    if state.phase.value != "challenge":
        raise GameError("wrong_phase")


def accept(s: Any, actor: str | None, name: str) -> tuple[Any, list[Event]]:
    """The answer that starts the game: the opponent (or, for an open challenge, anyone but the
    offerer) takes the second seat under their own current name; both then set secrets."""
    need_challenge(s)
    if actor is None or actor == offerer(s):
        raise GameError("self_challenge")
    if s.opponent is not None and actor not in seat_ids(s):
        raise GameError("not_challenged")
    if s.opponent is None or s.opponent.user_id == actor:
        s.opponent = Player(actor, name)
    s.phase = type(s.phase)("secrets")
    return s, [Accepted(actor), SecretsWanted()]


def check_decline(s: Any, actor: str | None) -> None:
    need_challenge(s)
    if s.opponent is None or actor not in seat_ids(s) or actor == offerer(s):
        raise GameError("not_challenged")


def check_cancel(s: Any, actor: str | None) -> None:
    need_challenge(s)
    if actor != offerer(s):
        raise GameError("not_challenger")


# ---------------------------------------------------------------- the moves both games share

SetSecretMove = Callable[[Any, str, str | None, Ctx], tuple[Any, list[Event]]]  # (state, seat, text, ctx)
GuessMove = Callable[[Any, str, str], tuple[Any, list[Event]]]  # (state, seat, text)


def finish(s: Any, outcome: ChallengeOutcome, winner: str | None, events: list[Event]) -> tuple[Any, list[Event]]:
    """The game ends: its outcome and winner, and the match score where the game was played."""
    was_played = s.phase.value in ("secrets", "playing")
    s.phase, s.outcome, s.winner = type(s.phase)("finished"), outcome, winner
    if was_played:
        if winner is not None:
            s.match.wins[winner] = s.match.wins.get(winner, 0) + 1
        elif outcome == ChallengeOutcome.DRAW:
            s.match.draws += 1
    return s, [*events, Finished(outcome, winner)]


def apply(state: Any, action: object, actor: str | None, ctx: Ctx, *, set_secret: SetSecretMove, guess: GuessMove,
          idle: Callable[[Any], Any], end: Callable[..., tuple[Any, list[Event]]] = finish) -> tuple[Any, list[Event]]:
    """The one entry for every move of a challenge game; the game brings what differs: how a secret
    is set, how a guess is judged, who was idle when time ran out, and how it ends (`end`, with
    `finish`'s arguments). Raises GameError and leaves `state` untouched when invalid."""
    s = moving(state, ctx)
    match action:
        case Accept(name=name):
            return accept(s, actor, name)
        case Decline():
            check_decline(s, actor)
            return end(s, ChallengeOutcome.DECLINED, None, [Declined(seat(s, actor))])
        case Cancel():
            check_cancel(s, actor)
            return end(s, ChallengeOutcome.CANCELLED, None, [Cancelled(seat(s, actor))])
        case SetSecret(code=text):
            mine = seat(s, actor)
            new, events = set_secret(s, mine, text, ctx)
            if text is not None and new.secrets[mine] in s.seen.get(mine, ()):
                raise GameError("exposed.secret_seen")
            return new, events
        case Exposed(code=text):
            return expose(s, seat(s, actor), text, ctx, set_secret)
        case Guess(code=text):
            return guess(s, seat(s, actor), text)
        case Resign():
            if s.phase.value == "challenge":
                raise GameError("wrong_phase")
            mine = seat(s, actor)
            return end(s, ChallengeOutcome.RESIGNED, other(s, mine).user_id, [Resigned(mine)])
        case Timeout():
            if s.phase.value == "challenge":  # nobody answered: the challenge lapses, no game was played
                return end(s, ChallengeOutcome.EXPIRED, None, [TimedOut(None)])
            late = owing(s, idle(s))  # one player owed the move: they lose; both (or nobody): abandoned
            winner = other(s, late[0]).user_id if len(late) == 1 else None
            return end(s, ChallengeOutcome.TIMEOUT, winner, [TimedOut(idle(s))])
    raise GameError("not_now")


def expose(s: Any, mine: str, text: str, ctx: Ctx, set_secret: SetSecretMove) -> tuple[Any, list[Event]]:
    """`mine`'s secret, typed in the group, stayed visible: the code it is (as the game reads it, so
    `rgbyw` and `12345` are one Logik row) can no longer be their secret. Only while it is due; a text
    that is no valid secret rules nothing out, but the player is told all the same."""
    need_secret(s, mine)
    try:
        code = set_secret(serial.clone(s), mine, text, ctx)[0].secrets[mine]
    except GameError:
        code = None
    if code is not None and code not in s.seen.get(mine, []):
        s.seen.setdefault(mine, []).append(code)
    return s, [SecretSeen(mine)]


def owing(s: Any, idle: str | list[str] | None) -> list[str]:
    """Who owed the move when time ran out: whose secret is missing, else the game's `idle` (the
    duel's player to move, Logik's players whose row is missing)."""
    if s.phase.value == "secrets":
        return [p.user_id for p in players(s) if p.user_id not in s.secrets]
    return [idle] if isinstance(idle, str) else list(idle or [])


def results(state: Any, tries: Callable[[str], int], side: Callable[[str], str] | None = None) -> list[ResultRow]:
    """One statistics line per player (`tries`: their guesses, `side`: where the game records sides);
    only games that got past the challenge count."""
    if state.outcome in UNPLAYED or state.opponent is None:
        return []
    rows = []
    for p in players(state):
        if state.outcome == ChallengeOutcome.TIMEOUT and state.winner is None:  # nobody (or both) owed the move
            outcome = Outcome.ABANDONED
        elif state.winner is None:
            outcome = Outcome.DRAW
        else:
            outcome = Outcome.WIN if state.winner == p.user_id else Outcome.LOSS
        rows.append(ResultRow(p.user_id, p.name, outcome, tries(p.user_id), side=side(p.user_id) if side else None))
    return rows


class ChallengeGame(Game[S]):
    """The App's view shared by the two-player challenge games: the seats, a secret, typed guesses,
    the answer buttons, /resign, and what only they have: a challenge to /accept or /decline, a pair of
    players, and the rematch link (bot/app/routing.py asks a game for these only where it is one). A
    game adds its moves (`apply`), its presenter (`present`, `board`, `secret_prompt`), its `results`,
    /cancel and the rematch."""

    def players(self, state: S) -> list[Player]:
        return players(state)

    def seated(self, state: S) -> list[Player]:
        return seated(state)

    def secret_action(self, text: str | None) -> object | None:
        """Private input where a secret is expected: the code, or None for a random one."""
        return SetSecret(text)

    def exposed_action(self, text: str) -> object | None:
        return Exposed(text)

    def text_action(self, state: S, user_id: str, text: str) -> object | None:
        return Guess(text)

    def button_action(self, state: S, verb: str, user_id: str, name: str, text: str | None) -> object | None:
        actions: dict[str, object] = {Verb.ACCEPT: Accept(name), Verb.DECLINE: Decline(), Verb.RANDOM: SetSecret(None)}
        return actions.get(verb)

    def quit_action(self, state: S, user_id: str, command: str) -> object | None:
        """/resign or /giveup (the same here) gives up a running game, or withdraws one's own challenge."""
        if command not in ("resign", "giveup"):
            return None
        s: Any = state
        return Cancel() if s.phase.value == "challenge" else Resign()

    # ---------------------------------------------------------------- only the challenge games'
    def can_answer(self, state: S, user_id: str) -> Answer | None:
        """Whether this user may /accept or /decline the game's challenge."""
        return can_answer(state, user_id)

    def challenge(self, state: S) -> Challenge | None:
        """The challenge that waits for an answer in this game (/accept, /decline, rematch offers)."""
        s: Any = state
        if s.phase.value != "challenge":
            return None
        return Challenge(offerer(s), self.pair(state), s.offered_by is not None,
                         {p.user_id: p.name for p in players(s)})

    def pair(self, state: S) -> frozenset[str]:
        """The two players of a match (rematches pair up the same two)."""
        return frozenset(seat_ids(state))

    def unplayed(self, state: S) -> bool:
        """The game ended before it was played (a challenge declined, withdrawn or expired): /rematch
        and /analyse look past it to the player's last game."""
        s: Any = state
        return s.phase.value == "finished" and s.outcome in UNPLAYED

    def next_game(self, state: S) -> int | None:
        """The game a finished game's match went on in (its rematch)."""
        s: Any = state
        found: int | None = s.next_game
        return found

    def link_next(self, state: S, game_id: int) -> None:
        """Note the rematch a finished game was followed by."""
        s: Any = state
        s.next_game = game_id
