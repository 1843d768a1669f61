"""Hausnummern's presenter: the standings message (edited in place), its buttons, and a message per event."""

from __future__ import annotations

from collections.abc import Sequence

from core.games.base import Event, button, say
from core.games.kegeln.actions import KegelnVerb
from core.games.kegeln.events import (
    Cancelled,
    Decided,
    Finished,
    PinsWaiting,
    ScorerChanged,
    Started,
    Thrown,
    Tie,
    TimedOut,
    Undone,
)
from core.games.kegeln.state import (
    PLACE_KEYS,
    POSITION_KEYS,
    Mode,
    Outcome,
    Phase,
    State,
    current,
    digit_value,
    free_positions,
    number,
    ranking,
    score,
    shown,
    team_members,
)
from core.messages import Button, Chat, Message, Text


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
        return Text("kegeln.status_place", {"name": state.members[who].name, "pins": pins_text(state.pending)})
    rnd = len(state.throws) // len(state.members) + 1
    return Text("kegeln.status_next", {"name": state.members[who].name, "round": rnd, "rounds": state.digits})


def standings(game_id: int, state: State, chat: Chat, head: Text | str = "", tip_text: Text | str = "",
              buttons: tuple[tuple[Button, ...], ...] = ()) -> Message:
    """The standings message; platforms that can edit keep one such message per game (edit_key)."""
    if not head:
        head = Text("kegeln.head_board", {"mode": mode_text(state.mode), "digits": state.digits, "game": game_id})
    text = Text("kegeln.standings", {"head": head, "lines": standing_lines(state), "status": _status(state),
                                     "tip": tip_text})
    return Message(chat, casual(state, text), buttons, edit_key=edit_key(game_id))


def casual(state: State, text: Text) -> Text:
    """A casual game's standings and result say so on their first line (it counts nothing for the club)."""
    return Text("kegeln.casual.marked", {"text": text}) if state.casual else text


def position_buttons(game_id: int, state: State) -> tuple[tuple[Button, ...], ...]:
    """The free places as buttons, at most three a row (six places: two rows, readable on a narrow phone),
    then ↩️ Undo."""
    who = current(state)
    if who is None or state.pending is None:
        return ()
    places = [button(game_id, KegelnVerb.PLACE.at(p), PLACE_KEYS[p]) for p in free_positions(state, who)]
    rows = -(-len(places) // 3)
    per_row = -(-len(places) // rows)
    grid = tuple(tuple(places[i:i + per_row]) for i in range(0, len(places), per_row))
    return (*grid, (button(game_id, KegelnVerb.UNDO, "kegeln.button_undo"),))


def pin_pad(game_id: int, state: State) -> tuple[tuple[Button, ...], ...]:
    """The scorer's pin pad while a throw is due: the pins 0–9 in two rows of five (0 is the Pumpe), then
    ↩️ Undo once there is something to undo; while pins wait for their place, the places instead. So a throw
    is two taps on the one standings message (a last free place takes the pins at once: one tap). Within
    Telegram's rows of at most 8 and Discord's 5 × 5."""
    if state.phase is not Phase.PLAYING or current(state) is None:
        return ()
    if state.pending is not None:
        return position_buttons(game_id, state)
    keys = [button(game_id, KegelnVerb.PINS.at(n), "kegeln.pad.pins", n=n) for n in range(10)]
    undo = ((button(game_id, KegelnVerb.UNDO, "kegeln.button_undo"),),) if state.throws else ()
    return (tuple(keys[:5]), tuple(keys[5:]), *undo)


def tie_buttons(game_id: int, state: State) -> tuple[tuple[Button, ...], ...]:
    """One 🏆 button per tied entry, then ↩️ Undo; none when no tie waits (typed: core/games/kegeln/tie.py)."""
    if state.phase is not Phase.TIE:
        return ()
    winners = tuple((button(game_id, KegelnVerb.WINNER, "kegeln.button_winner", arg=e, settles=True,
                            name=entry_name(state, e)),) for e in state.tied)
    return (*winners, (button(game_id, KegelnVerb.UNDO, "kegeln.button_undo"),))


def pins_text(pins: int) -> Text:
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
                if state.casual:
                    out.append(say(chat, "kegeln.casual.started", scorer=state.scorer.name))
                out.append(standings(game_id, state, chat, buttons=pin_pad(game_id, state)))
            case PinsWaiting(member=member, pins=pins):
                free = free_positions(state, member)
                head = Text("kegeln.head_pins", {"name": state.members[member].name, "pins": pins_text(pins)})
                out.append(standings(game_id, state, chat, head, tip(state, pins, free) or "",
                                     position_buttons(game_id, state)))
            case Thrown(member=member, pins=pins, position=position, free=free):
                head = Text("kegeln.head_thrown", {"name": state.members[member].name,
                                                   "pins": pins_text(pins), "pos": pos_text(position)})
                warn = tip(state, pins, free, position)
                out.append(standings(game_id, state, chat, head, warn or "", pin_pad(game_id, state)))
            case Undone(member=member, pins=pins, position=position):
                name = state.members[member].name
                if position is None:
                    head = Text("kegeln.head_undone_pins", {"name": name, "pins": pins_text(pins)})
                else:
                    head = Text("kegeln.head_undone", {"name": name, "pins": pins_text(pins),
                                                       "pos": pos_text(position)})
                out.append(standings(game_id, state, chat, head, buttons=pin_pad(game_id, state)))
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
            case Finished(outcome=Outcome.DONE, winner=winner) if winner is not None:
                out.append(Message(chat, casual(state, Text("kegeln.result", {
                    "mode": mode_text(state.mode), "table": result_table(state),
                    "winner": entry_name(state, winner)}))))
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
    """/board: the standings with what the scorer decides now — the pin pad, or the position buttons when
    pins wait to be placed, the winner buttons while a tie waits (they may be gone: an old message, a restart)."""
    return standings(game_id, state, chat, buttons=pin_pad(game_id, state) or tie_buttons(game_id, state))
