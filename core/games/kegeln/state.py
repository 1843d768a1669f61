"""Hausnummern's state (docs/rules.md §4, seed 002): its bounds, its types and what the state says —
each member's number so far, whose throw it is, the scores and the ranking.

The club's scorer runs the game from the chat. Players are names (club members, with or
without a chat account), kept in throwing order; the only seated chat user is the scorer.
Each throw is 0–9 pins (0 = Pumpe) placed on a free position of the thrower's number.

Phases: PLAYING → (TIE: the scorer names the winner) → FINISHED.
Positions are numbered from the right: 0 = ones, 1 = tens, 2 = hundreds, …
"""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import StrEnum
from fractions import Fraction

from core.games.base import Player

MIN_DIGITS, MAX_DIGITS, DEFAULT_DIGITS = 2, 6, 3
MIN_TEAMS, MAX_TEAMS = 2, 4
MIN_PLAYERS, MAX_PLAYERS = 2, 20
MAX_NAME = 30

# Localised position names, indexed by position (0 = ones). Literal keys, so the catalog test sees them.
POSITION_KEYS = ("kegeln.pos.ones", "kegeln.pos.tens", "kegeln.pos.hundreds", "kegeln.pos.thousands",
                 "kegeln.pos.ten_thousands", "kegeln.pos.hundred_thousands")
# the same places as button labels: the plain word where a sentence takes another form ("на стотиците")
PLACE_KEYS = ("kegeln.place.ones", "kegeln.place.tens", "kegeln.place.hundreds", "kegeln.place.thousands",
              "kegeln.place.ten_thousands", "kegeln.place.hundred_thousands")
# Catalog word lists that name a position when typed (`/wurf 7 H`), indexed by position.
WORD_KEYS = ("kegeln.words.ones", "kegeln.words.tens", "kegeln.words.hundreds", "kegeln.words.thousands",
             "kegeln.words.ten_thousands", "kegeln.words.hundred_thousands")
PUMPE_WORDS = {"p", "pumpe", "pump", "pumpen"}


class Mode(StrEnum):
    HIGH = "high"
    LOW = "low"


class Outcome(StrEnum):
    """How a game ended (`State.outcome`, stored as its value): completed (with club records), cancelled by
    the scorer, or timed out."""

    DONE = "done"
    CANCELLED = "cancelled"
    ABANDONED = "abandoned"


class Phase(StrEnum):
    PLAYING = "playing"
    TIE = "tie"  # every place is filled; several share first place; the scorer names the winner
    FINISHED = "finished"


@dataclass(frozen=True)
class Member:
    name: str
    team: int | None = None  # index into the teams (team duel), else None


@dataclass(frozen=True)
class Throw:
    member: int  # index into State.members
    pins: int  # raw pins 0–9 (0 = Pumpe)
    position: int  # 0 = ones, 1 = tens, …
    at: float = 0.0


@dataclass
class State:
    mode: Mode
    digits: int
    members: list[Member]  # in throwing order (teams interleaved)
    scorer: Player
    teams: int = 0  # number of teams; 0 = everyone for themselves
    phase: Phase = Phase.PLAYING
    throws: list[Throw] = field(default_factory=list)
    pending: int | None = None  # pins entered for the current player, position not yet chosen
    tied: list[int] = field(default_factory=list)  # entries (members or teams) sharing first place
    winner: int | None = None  # the winning entry: a member index, or a team index in a team duel
    decided: bool = False  # the winner was named by the scorer after a tie
    outcome: Outcome | None = None
    started: float = 0.0
    updated: float = 0.0
    # a casual game: started by someone the club has not given the scorer's role (core/club/roles.py). It is
    # played and shown like any other, and gives the club nothing (records.member_records); a state stored
    # before this field existed reads False: today's games stay the club's (docs/club.md)
    casual: bool = False


# ---------------------------------------------------------------- what the state says

def digit_value(mode: Mode, pins: int) -> int:
    """High: the pins are the digit (Pumpe 0). Low: a Pumpe counts 9, there is no 0; a real 9 is 9."""
    if mode is Mode.LOW and pins == 0:
        return 9
    return pins


def slots(state: State, member: int) -> list[int | None]:
    """The member's digits by position (0 = ones); None = still free."""
    out: list[int | None] = [None] * state.digits
    for t in state.throws:
        if t.member == member:
            out[t.position] = digit_value(state.mode, t.pins)
    return out


def number(state: State, member: int) -> int:
    return sum((d or 0) * 10 ** p for p, d in enumerate(slots(state, member)))


def shown(state: State, member: int) -> str:
    """The number as far as it is built, highest place first, free places as `_` (e.g. `7_2`)."""
    return "".join("_" if d is None else str(d) for d in reversed(slots(state, member)))


def free_positions(state: State, member: int) -> list[int]:
    """Free positions, highest first (the order of the buttons)."""
    return [p for p, d in reversed(list(enumerate(slots(state, member)))) if d is None]


def current(state: State) -> int | None:
    """Whose throw it is: strictly in turn, one throw per player per round."""
    if len(state.throws) >= len(state.members) * state.digits:
        return None
    return len(state.throws) % len(state.members)


def team_members(state: State, team: int) -> list[int]:
    return [i for i, m in enumerate(state.members) if m.team == team]


def entries(state: State) -> list[int]:
    """What is ranked: members, or teams in a team duel."""
    return list(range(state.teams)) if state.teams else list(range(len(state.members)))


def score(state: State, entry: int) -> Fraction:
    """A member's number, or a team's average (sum ÷ members), exact."""
    if not state.teams:
        return Fraction(number(state, entry))
    idx = team_members(state, entry)
    return Fraction(sum(number(state, i) for i in idx), len(idx))


def ranking(state: State) -> list[tuple[int, int]]:
    """(place, entry) by placement: high mode biggest first, low mode smallest first; equal scores
    share a place (1, 1, 3). After a tie decision the chosen winner is listed first, alone on place 1."""
    sign = -1 if state.mode is Mode.HIGH else 1
    order = sorted(entries(state), key=lambda e: (sign * score(state, e), e))
    if state.winner is not None and state.winner in order:
        order.remove(state.winner)
        order.insert(0, state.winner)
    out: list[tuple[int, int]] = []
    for i, e in enumerate(order):
        if i and score(state, e) == score(state, order[i - 1]) and not (state.decided and i == 1):
            out.append((out[-1][0], e))
        else:
            out.append((i + 1, e))
    return out
