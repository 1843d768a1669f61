"""What a Hausnummern game reports to the club (core/club/records.py `Played`, after each move): each
member's line, the winner, the throws, the last place; and a member renamed in a game (/kegelmerge)."""

from __future__ import annotations

from dataclasses import replace

from core.club.records import GameRecord, MemberRecord, Played, ThrowRecord
from core.games.kegeln.state import Outcome, State, digit_value, number, ranking, team_members


def is_club(state: State) -> bool:
    """Whether a game is the club's (its records, fines, ratings, titles count), not a casual one."""
    return not state.casual


def member_records(state: State) -> list[MemberRecord]:
    """Per member: number, place of their entry, win, throws, raw pins (Kegel-Schnitt), 9s, Pumpen.
    In a team duel every member of the winning team has a win. Only a completed club game counts: a casual
    game gives the club's records, ratings and titles nothing."""
    if state.outcome != Outcome.DONE or not is_club(state):
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
    return replace(state, members=[replace(m, name=name) if m.name.casefold() == old else m
                                   for m in state.members])


def winner_label(state: State) -> str:
    """The winner for the club records: a member's name, or the winning team's members."""
    if state.winner is None:
        return ""
    if state.teams:
        return ", ".join(state.members[i].name for i in team_members(state, state.winner))
    return state.members[state.winner].name


def played(state: State) -> Played:
    """The game as the club sees it now (what it reports after each move: core/club/records.py)."""
    done = state.outcome is Outcome.DONE
    losers: list[tuple[int, ...]] = []
    if done:
        ranked = ranking(state)
        last = ranked[-1][0]
        if last != 1:  # everybody sharing first place: nobody lost
            losers = [tuple(team_members(state, e)) if state.teams else (e,) for p, e in ranked if p == last]
    lines = member_records(state)
    return Played(
        club=is_club(state), names=tuple(m.name for m in state.members),
        throws=tuple((t.member, t.pins) for t in state.throws),
        void=state.outcome in (Outcome.CANCELLED, Outcome.ABANDONED), done=done, losers=tuple(losers),
        record=GameRecord(state.mode.value, state.digits, state.teams, winner_label(state), state.decided)
        if lines else None,
        members=tuple(lines),
        log=tuple(ThrowRecord(state.members[t.member].name, t.pins, t.position, digit_value(state.mode, t.pins), t.at)
                  for t in state.throws) if lines else (),
        scorer=state.scorer.user_id)
