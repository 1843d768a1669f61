"""Hausnummern, the nine-pin bowling (Kegeln) club game (docs/rules.md §4, seed 002).

The club's scorer runs the game from the chat. Players are names (club members, with or
without a chat account), kept in throwing order; the only seated chat user is the scorer.
Each throw is 0–9 pins (0 = Pumpe) placed on a free position of the thrower's number.

Phases: PLAYING → (TIE: the scorer names the winner) → FINISHED.
Positions are numbered from the right: 0 = ones, 1 = tens, 2 = hundreds, …
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from dataclasses import replace as _replace  # not re-exported by the package
from enum import StrEnum
from fractions import Fraction

from core.errors import GameError
from core.games.actions import Timeout
from core.games.base import Ctx, Event, Player, ResultRow, button, moving, say
from core.games.base import is_over as is_over  # is_over, last_activity: the Rules protocol
from core.games.base import last_activity as last_activity
from core.games.kegeln.events import EVENTS as EVENTS
from core.games.kegeln.events import (
    Cancelled,
    Decided,
    Finished,
    PinsWaiting,
    ScorerChanged,
    Started,
    Thrown,
    TimedOut,
    Undone,
)
from core.games.kegeln.events import Tie as Tie
from core.messages import Button, Chat, Message, Text
from core.names import clean as clean_name
from core.names import mixed_script
from core.options import Vocabulary, meaning

kind = "kegeln"
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
    outcome: str | None = None  # "done" | "cancelled" | "abandoned"
    started: float = 0.0
    updated: float = 0.0


state_type = State


@dataclass(frozen=True)
class Setup:
    mode: Mode
    digits: int
    members: list[Member]
    teams: int


# ---------------------------------------------------------------- actions
# `admin`: the App says the actor is a chat admin; the rules treat admins like the scorer.

@dataclass(frozen=True)
class Pins:
    """Enter a throw: pins as typed, and optionally the position (else buttons ask for it)."""

    text: str
    position: int | None = None
    admin: bool = False


@dataclass(frozen=True)
class Place:
    position: int
    admin: bool = False


@dataclass(frozen=True)
class Undo:
    admin: bool = False


@dataclass(frozen=True)
class HandOver:
    to: Player
    admin: bool = False


@dataclass(frozen=True)
class Decide:
    entry: int  # member index, or team index in a team duel
    admin: bool = False


@dataclass(frozen=True)
class Cancel:
    admin: bool = False



# ---------------------------------------------------------------- setup

def parse_setup(args: Sequence[str], vocab: Vocabulary | None = None) -> Setup:
    """`high|low [2–6] NAME…` or `high|low [2–6] teams A B / C D [/ E]` → a Setup; coded errors. The words
    high, low and teams in any language the vocabulary knows (core/options.py)."""
    words = [w for raw in args for part in raw.split() for w in _split_slashes(part)]  # one arg may hold many
    words = [w.strip(",;") for w in words if w.strip(",;")]
    cleaned = [clean_name(w) for w in words]  # Bir\u200bgit is Birgit; bidi controls are dropped
    if any(not w for w in cleaned):
        raise GameError("empty_name")
    words = cleaned
    if not words:
        raise GameError("kegeln.usage")
    first = meaning(words[0], vocab, ("high", "low"))
    if first == "high":
        mode = Mode.HIGH
    elif first == "low":
        mode = Mode.LOW
    else:
        raise GameError("kegeln.bad_mode", given=words[0][:30])
    rest = words[1:]
    digits = DEFAULT_DIGITS
    if rest and rest[0].isdecimal():
        digits = int(rest[0])
        if not MIN_DIGITS <= digits <= MAX_DIGITS:
            raise GameError("kegeln.bad_digits", given=rest[0][:10], min=MIN_DIGITS, max=MAX_DIGITS)
        rest = rest[1:]
    team_mode = bool(rest) and meaning(rest[0], vocab, ("teams",)) is not None
    if team_mode:
        rest = rest[1:]
    team_mode = team_mode or "/" in rest
    if not team_mode:
        names = rest
        _check_names(names)
        if len(names) < MIN_PLAYERS:
            raise GameError("kegeln.too_few_players", min=MIN_PLAYERS)
        return Setup(mode, digits, [Member(n) for n in names], 0)
    groups: list[list[str]] = [[]]
    for w in rest:
        if w == "/":
            groups.append([])
        else:
            groups[-1].append(w)
    if any(not g for g in groups):
        raise GameError("kegeln.empty_team")
    if not MIN_TEAMS <= len(groups) <= MAX_TEAMS:
        raise GameError("kegeln.bad_teams", given=len(groups), min=MIN_TEAMS, max=MAX_TEAMS)
    _check_names([n for g in groups for n in g])
    order: list[Member] = []
    for i in range(max(len(g) for g in groups)):  # interleave: 1st of each team, then 2nd of each …
        for t, g in enumerate(groups):
            if i < len(g):
                order.append(Member(g[i], t))
    return Setup(mode, digits, order, len(groups))


def _split_slashes(raw: str) -> list[str]:
    parts: list[str] = []
    for i, piece in enumerate(raw.split("/")):
        if i:
            parts.append("/")
        if piece:
            parts.append(piece)
    return parts


def _check_names(given: list[str]) -> None:
    seen: set[str] = set()
    for n in given:
        if len(n) > MAX_NAME or n.isdecimal():
            raise GameError("kegeln.bad_name", name=n[:MAX_NAME])
        if mixed_script(n):  # "Кlaus" beside "Klaus": a twin member nobody can tell apart
            raise GameError("kegeln.mixed_script", name=n)
        if n.casefold() in seen:
            raise GameError("kegeln.duplicate_name", name=n)
        seen.add(n.casefold())
    if len(given) > MAX_PLAYERS:
        raise GameError("kegeln.too_many_players", max=MAX_PLAYERS)


def new(setup: Setup, scorer: Player, ctx: Ctx) -> tuple[State, list[Event]]:
    state = State(mode=setup.mode, digits=setup.digits, members=list(setup.members), scorer=scorer,
                  teams=setup.teams, started=ctx.now, updated=ctx.now)
    return state, [Started(scorer.user_id)]


# ---------------------------------------------------------------- rules

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


def apply(state: State, action: object, actor: str | None, ctx: Ctx) -> tuple[State, list[Event]]:
    s = moving(state, ctx)
    if not isinstance(action, Timeout):
        _authorise(s, action, actor)
    match action:
        case Pins(text=text, position=position):
            if s.phase is not Phase.PLAYING:
                raise GameError("kegeln.tie_pending")
            if s.pending is not None:
                raise GameError("kegeln.place_first", name=_cur_name(s), pins=_pins_text(s.pending))
            pins = _pins(text)
            who = _cur(s)
            if position is None:
                free = free_positions(s, who)
                if len(free) == 1:  # one place left: nothing to choose
                    return _place(s, who, pins, free[0], ctx)
                s.pending = pins
                return s, [PinsWaiting(who, pins)]
            return _place(s, who, pins, position, ctx)
        case Place(position=position):
            if s.phase is not Phase.PLAYING or s.pending is None:
                raise GameError("kegeln.no_pending")
            pins, s.pending = s.pending, None
            return _place(s, _cur(s), pins, position, ctx)
        case Undo():
            return _undo(s)
        case HandOver(to=to):
            if to.user_id == s.scorer.user_id:
                raise GameError("kegeln.already_scorer", name=to.name)
            old, s.scorer = s.scorer, to
            return s, [ScorerChanged(old.name, to.name)]
        case Decide(entry=entry):
            if s.phase is not Phase.TIE:
                raise GameError("kegeln.no_tie")
            if entry not in s.tied:
                raise GameError("kegeln.not_tied")
            s.winner, s.decided = entry, True
            return _finish(s, "done", [Decided(entry)])
        case Cancel():
            return _finish(s, "cancelled", [Cancelled()])
        case Timeout():
            return _finish(s, "abandoned", [TimedOut()])
    raise GameError("not_now")


def _authorise(state: State, action: object, actor: str | None) -> None:
    """Only the scorer (and chat admins) may change the game."""
    if actor is not None and actor == state.scorer.user_id:
        return
    if getattr(action, "admin", False):
        return
    raise GameError("kegeln.not_scorer", scorer=state.scorer.name)


def _cur(s: State) -> int:
    who = current(s)
    if who is None:
        raise GameError("kegeln.all_placed")
    return who


def _cur_name(s: State) -> str:
    who = current(s)
    return s.members[who].name if who is not None else ""


def _pins(text: str) -> int:
    t = text.strip()
    if not (t.isascii() and t.isdecimal()) or int(t) > 9:
        raise GameError("kegeln.bad_pins", given=t[:10])
    return int(t)


def _place(s: State, who: int, pins: int, position: int, ctx: Ctx) -> tuple[State, list[Event]]:
    if not 0 <= position < s.digits:
        raise GameError("kegeln.bad_position", digits=s.digits)
    if slots(s, who)[position] is not None:
        raise GameError("kegeln.position_taken", name=s.members[who].name, position=Text(POSITION_KEYS[position]))
    best = free_positions(s, who)
    s.throws.append(Throw(who, pins, position, ctx.now))
    events: list[Event] = [Thrown(who, pins, position, digit_value(s.mode, pins), best)]
    if current(s) is not None:
        return s, events
    return _complete(s, events)


def _complete(s: State, events: list[Event]) -> tuple[State, list[Event]]:
    """Every place is filled: a clear winner finishes the game; a tie waits for the scorer."""
    ranked = ranking(s)
    first = [e for place, e in ranked if place == 1]
    if len(first) > 1:
        s.phase, s.tied = Phase.TIE, first
        return s, [*events, Tie(first)]
    s.winner = first[0]
    return _finish(s, "done", events)


def _undo(s: State) -> tuple[State, list[Event]]:
    if s.pending is not None:
        pins, s.pending = s.pending, None
        return s, [Undone(_cur(s), pins, None)]
    if not s.throws:
        raise GameError("kegeln.nothing_to_undo")
    last = s.throws.pop()
    s.phase, s.tied, s.winner, s.decided = Phase.PLAYING, [], None, False
    return s, [Undone(last.member, last.pins, last.position)]


def _finish(s: State, outcome: str, events: list[Event]) -> tuple[State, list[Event]]:
    s.phase, s.outcome, s.pending = Phase.FINISHED, outcome, None
    return s, [*events, Finished(outcome, s.winner)]


# ---------------------------------------------------------------- what the App asks

def players(state: State) -> list[Player]:
    """The chat user behind the game: the scorer (members are names, not accounts)."""
    return [state.scorer]


def seated(state: State) -> list[Player]:
    return [state.scorer]


def results(state: State) -> list[ResultRow]:
    """Members are not chat accounts: their statistics live in the kegeln tables (see member_records)."""
    return []


@dataclass(frozen=True)
class MemberRecord:
    """One member's line in the club statistics for a finished game."""

    name: str
    team: int | None
    number: int
    place: int
    win: bool
    throws: int
    pins: int
    nines: int
    pumpen: int


def member_records(state: State) -> list[MemberRecord]:
    """Per member: number, place of their entry, win, throws, raw pins (Kegel-Schnitt), 9s, Pumpen.
    In a team duel every member of the winning team has a win. Only a completed game counts."""
    if state.outcome != "done":
        return []
    place = {e: p for p, e in ranking(state)}
    out = []
    for i, m in enumerate(state.members):
        entry = m.team if state.teams and m.team is not None else i
        mine = [t.pins for t in state.throws if t.member == i]
        out.append(MemberRecord(m.name, m.team, number(state, i), place[entry], entry == state.winner,
                                len(mine), sum(mine), mine.count(9), mine.count(0)))
    return out


def renamed(state: State, old: str, name: str) -> State | None:
    """The state with member `old` (casefolded) written `name` (/kegelmerge: one person the scorer typed
    under two names), or None when no member is `old`, or when `name` already plays in this game (two
    people then; a game with club records in which both played is refused before this)."""
    keys = [m.name.casefold() for m in state.members]
    if old not in keys or name.casefold() in keys:
        return None
    return _replace(state, members=[_replace(m, name=name) if m.name.casefold() == old else m
                                   for m in state.members])


def winner_label(state: State) -> str:
    """The winner for the club records: a member's name, or the winning team's members."""
    if state.winner is None:
        return ""
    if state.teams:
        return ", ".join(state.members[i].name for i in team_members(state, state.winner))
    return state.members[state.winner].name


def schnitt(pins: int, throws: int) -> float | str:
    """The Kegel-Schnitt: raw pins per throw (the renderer shows one decimal in the reader's language)."""
    return pins / throws if throws else "–"


# ---------------------------------------------------------------- capabilities (core/games/<kind>/game.py)

def button_action(state: State, verb: str, user_id: str, name: str, text: str | None) -> object | None:
    """`p<position>` places the pending pins, `w<entry>` names the winner of a tie, `undo`."""
    if verb == "undo":
        return Undo()
    if verb[:1] in ("p", "w") and verb[1:].isdecimal():
        n = int(verb[1:])
        return Place(n) if verb[0] == "p" else Decide(n)
    return None


def cancel_action(state: State, user_id: str) -> object:
    return Cancel()


# ---------------------------------------------------------------- presenter

def edit_key(game_id: int) -> str:
    return f"kegeln:{game_id}:standings"


def pos_text(position: int) -> Text:
    return Text(POSITION_KEYS[position])


def mode_text(mode: Mode) -> Text:
    return Text("kegeln.mode_high" if mode is Mode.HIGH else "kegeln.mode_low")


def team_text(team: int) -> Text:
    return Text("kegeln.team", {"no": team + 1})


def fmt_score(state: State, entry: int) -> float | str:
    """A member's number, or a team's average (a float: the renderer shows one decimal per language)."""
    value = score(state, entry)
    return float(value) if state.teams else str(int(value))


def entry_name(state: State, entry: int) -> Text | str:
    return team_text(entry) if state.teams else state.members[entry].name


def standing_lines(state: State) -> str:
    """One compact line per player, `▶` marks whose throw it is, free places as `_`."""
    now = current(state) if state.phase is Phase.PLAYING else None
    width = max(len(m.name) for m in state.members)
    lines = []
    for i, m in enumerate(state.members):
        mark = "▶" if i == now else " "
        team = f" [{m.team + 1}]" if state.teams and m.team is not None else ""
        lines.append(f"{mark} {m.name.ljust(width)} {shown(state, i)}{team}")
    return "\n".join(lines)


def tip(state: State, pins: int, free: list[int], chosen: int | None = None) -> Text | None:
    """A one-line tip when it helps. Before placing: where a Pumpe, a worst or a best digit belongs.
    After a one-step entry: a warning (with /undo) when such a digit went somewhere odd."""
    if len(free) < 2:
        return None
    value = digit_value(state.mode, pins)
    low, high = free[-1], free[0]
    worst = 9 if state.mode is Mode.LOW else 0
    best = 1 if state.mode is Mode.LOW else 9
    if chosen is not None:
        if (value == worst and chosen != low) or (value == best and chosen != high):
            return Text("kegeln.tip.check", {"digit": value, "pos": pos_text(chosen)})
        return None
    if pins == 0:
        key = "kegeln.tip.pumpe_low" if state.mode is Mode.LOW else "kegeln.tip.pumpe_high"
        return Text(key, {"pos": pos_text(low)})
    if value == worst:
        return Text("kegeln.tip.worst", {"digit": value, "pos": pos_text(low)})
    if value == best:
        return Text("kegeln.tip.best", {"digit": value, "pos": pos_text(high)})
    return None


def _status(state: State) -> Text:
    if state.phase is Phase.TIE:
        return Text("kegeln.status_tie", {"scorer": state.scorer.name})
    who = current(state)
    if who is None:
        return Text("kegeln.status_over")
    if state.pending is not None:
        return Text("kegeln.status_place", {"name": state.members[who].name, "pins": _pins_text(state.pending)})
    rnd = len(state.throws) // len(state.members) + 1
    return Text("kegeln.status_next", {"name": state.members[who].name, "round": rnd, "rounds": state.digits})


def standings(game_id: int, state: State, chat: Chat, head: Text | str = "", tip_text: Text | str = "",
              buttons: tuple[tuple[Button, ...], ...] = ()) -> Message:
    """The standings message; platforms that can edit keep one such message per game (edit_key)."""
    if not head:
        head = Text("kegeln.head_board", {"mode": mode_text(state.mode), "digits": state.digits, "game": game_id})
    text = Text("kegeln.standings", {"head": head, "lines": standing_lines(state), "status": _status(state),
                                     "tip": tip_text})
    return Message(chat, text, buttons, edit_key=edit_key(game_id))


def position_buttons(game_id: int, state: State) -> tuple[tuple[Button, ...], ...]:
    who = current(state)
    if who is None or state.pending is None:
        return ()
    row = tuple(button(game_id, f"p{p}", PLACE_KEYS[p]) for p in free_positions(state, who))
    return (row, (button(game_id, "undo", "kegeln.button_undo"),))


def tie_buttons(game_id: int, state: State) -> tuple[tuple[Button, ...], ...]:
    """One 🏆 button per tied entry, then ↩️ Undo; none when no tie waits (typed: core/games/kegeln/tie.py)."""
    if state.phase is not Phase.TIE:
        return ()
    winners = tuple((Button(Text("kegeln.button_winner", {"name": entry_name(state, e)}), f"g:{game_id}:w{e}",
                            settles=True),) for e in state.tied)
    return (*winners, (button(game_id, "undo", "kegeln.button_undo"),))


def _pins_text(pins: int) -> Text:
    return Text("kegeln.pumpe") if pins == 0 else Text("kegeln.pins", {"n": pins})


def present(game_id: int, state: State, events: Sequence[Event], chat: Chat) -> list[Message]:
    out: list[Message] = []
    for ev in events:
        match ev:
            case Started():
                names = ", ".join(m.name for m in state.members)
                key = "kegeln.started_teams" if state.teams else "kegeln.started"
                out.append(say(chat, key, mode=mode_text(state.mode), digits=state.digits, names=names,
                               teams=_team_list(state), scorer=state.scorer.name, game=game_id))
                out.append(standings(game_id, state, chat))
            case PinsWaiting(member=member, pins=pins):
                free = free_positions(state, member)
                head = Text("kegeln.head_pins", {"name": state.members[member].name, "pins": _pins_text(pins)})
                out.append(standings(game_id, state, chat, head, tip(state, pins, free) or "",
                                     position_buttons(game_id, state)))
            case Thrown(member=member, pins=pins, position=position, free=free):
                head = Text("kegeln.head_thrown", {"name": state.members[member].name,
                                                   "pins": _pins_text(pins), "pos": pos_text(position)})
                warn = tip(state, pins, free, position)
                undo = ((button(game_id, "undo", "kegeln.button_undo"),),) if state.phase is Phase.PLAYING else ()
                out.append(standings(game_id, state, chat, head, warn or "", undo))
            case Undone(member=member, pins=pins, position=position):
                name = state.members[member].name
                if position is None:
                    head = Text("kegeln.head_undone_pins", {"name": name, "pins": _pins_text(pins)})
                else:
                    head = Text("kegeln.head_undone", {"name": name, "pins": _pins_text(pins),
                                                       "pos": pos_text(position)})
                out.append(standings(game_id, state, chat, head))
            case ScorerChanged(old=old, new=new):
                out.append(say(chat, "kegeln.scorer_changed", old=old, new=new))
            case Tie(tied=entries):
                out.append(say(chat, "kegeln.tie", tie_buttons(game_id, state),
                               scorer=state.scorer.name, table=result_table(state),
                               score=fmt_score(state, entries[0])).notify(state.scorer.user_id))
            case Decided(entry=entry):
                out.append(say(chat, "kegeln.decided", scorer=state.scorer.name, name=entry_name(state, entry)))
            case Cancelled():
                out.append(say(chat, "kegeln.cancelled", name=state.scorer.name))
            case TimedOut():
                out.append(say(chat, "kegeln.timed_out"))
            case Finished(outcome="done", winner=winner) if winner is not None:
                out.append(Message(chat, Text("kegeln.result", {"mode": mode_text(state.mode),
                                                                "table": result_table(state),
                                                                "winner": entry_name(state, winner)})))
    return out


def _team_list(state: State) -> str:
    return "\n".join(f"[{i + 1}] " + ", ".join(state.members[j].name for j in team_members(state, i))
                     for i in range(state.teams))


def result_table(state: State) -> list[Text | str]:
    """The table by placement, one line each (a list parameter): `1. Sven 941`;
    teams: `1. [2] ⌀ 728.5 (Sven 941, Hanne 516)` (the average in the reader's decimal format)."""
    lines: list[Text | str] = []
    for place, e in ranking(state):
        if state.teams:
            members = ", ".join(f"{state.members[i].name} {number(state, i)}" for i in team_members(state, e))
            lines.append(Text("kegeln.team_line", {"place": place, "team": e + 1, "score": fmt_score(state, e),
                                                    "members": members}))
        else:
            lines.append(f"{place}. {state.members[e].name} {fmt_score(state, e)}")
    return lines


def board(game_id: int, state: State, chat: Chat) -> Message:
    """/board: the standings with what the scorer decides now — the position buttons when pins wait to
    be placed, the winner buttons while a tie waits (they may be gone: an old message, a restart)."""
    return standings(game_id, state, chat, buttons=position_buttons(game_id, state) or tie_buttons(game_id, state))
