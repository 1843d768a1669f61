"""Hausnummern on the club's TV page (bot/web/screen.py `Screen`): the running game (every member's number so
far, whose throw it is, the last throw, an open tie), the split screen of several lanes, else the evening's
last result — the same facts as the standings and result messages in the chat (core/games/kegeln/presenter.py)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from bot.storage.base import GameRow
from bot.web.screen import MAX_LANES, Say
from core import serial
from core.games.kegeln import GAME, presenter, records
from core.games.kegeln.state import Phase, State, current, number, ranking, shown, team_members
from core.messages import Text

RECENT_SECONDS = 300.0  # a lane's result stays in its part of the screen this long while another lane plays


class KegelnScreen:
    """Hausnummern's `Screen`."""

    def shows(self, row: GameRow) -> bool:
        """The club's Hausnummern games only (started by a chat admin or an appointed scorer:
        core/games/kegeln/records.py `is_club`), so that a member's casual game never takes the club's screen."""
        return row.kind == GAME.kind and records.is_club(serial.load(State, row.state))

    def scorer(self, row: GameRow) -> str:
        return serial.load(State, row.state).scorer.user_id if row.kind == GAME.kind else ""

    def view(self, running: Sequence[GameRow], ended: Sequence[GameRow], now: float, say: Say) -> dict[str, Any]:
        """One game (running, else the evening's last result), or the screen split between the lanes when
        several club games run at once (a lane that just ended keeps its result)."""
        lanes = lanes_now(list(running), list(ended), now)
        if len(lanes) > 1:
            return {"screen": "lanes", "game": None,
                    "lanes": [lane_view(n, row, say) for n, row in enumerate(lanes, 1)]}
        if running:
            return {"screen": "game", "game": game_view(running[-1].id, serial.load(State, running[-1].state), say),
                    "lanes": []}
        return {"screen": "idle", "game": finished_view(ended[-1], say) if ended else None, "lanes": []}


SCREEN = KegelnScreen()


def lanes_now(running: list[GameRow], ended: list[GameRow], now: float) -> list[GameRow]:
    """The games that share the screen: the running club games, and a game that ended on another lane while
    one of them ran, for RECENT_SECONDS (its scorer has started no new game: that lane has not moved on) —
    so the room sees a lane's result although the other lane plays on. A game after another on the same
    lane takes the whole screen as before. Each lane keeps its place by its scorer (the bot knows no lane
    numbers: the scorers are the lanes), at most MAX_LANES."""
    if not running:
        return []
    states = {r.id: serial.load(State, r.state) for r in [*running, *ended]}
    scoring = {states[r.id].scorer.user_id for r in running}
    kept = [e for e in ended if now - states[e.id].updated <= RECENT_SECONDS
            and states[e.id].scorer.user_id not in scoring
            and any(states[r.id].started < states[e.id].updated for r in running)]
    lanes = (running[-MAX_LANES:] + kept)[:MAX_LANES]
    return sorted(lanes, key=lambda r: (states[r.id].scorer.user_id, r.id))


def lane_view(n: int, row: GameRow, say: Say) -> dict[str, Any]:
    """One lane's part of a split screen: its game (or its result, just ended) under the lane's label."""
    state = serial.load(State, row.state)
    shown = finished_view(row, say) if row.over else game_view(row.id, state, say)
    assert shown is not None
    return {**shown, "lane": say(Text("tv.lane", {"n": n, "scorer": state.scorer.name}))}


def game_view(game_id: int, state: State, say: Say) -> dict[str, Any]:
    """A running game as the group's standings message tells it (core/games/kegeln/presenter.py)."""
    now = current(state) if state.phase is Phase.PLAYING else None
    members = [{"name": m.name, "number": shown(state, i), "now": i == now,
                "team": say(presenter.team_text(m.team)) if state.teams and m.team is not None else ""}
               for i, m in enumerate(state.members)]
    out: dict[str, Any] = {
        "id": game_id,
        "head": say(Text("kegeln.head_board", {"mode": presenter.mode_text(state.mode), "digits": state.digits,
                                               "game": game_id})),
        "members": members, "throws": len(state.throws), "turn": "", "round": "", "placing": "", "last": "",
        "tie": "", "result": [], "winner": "",
    }
    if now is not None:
        out["turn"] = state.members[now].name
        out["round"] = say(Text("tv.round", {"round": len(state.throws) // len(state.members) + 1,
                                             "rounds": state.digits}))
        if state.pending is not None:
            out["placing"] = say(Text("tv.placing", {"pins": presenter.pins_text(state.pending)}))
    if state.throws:
        t = state.throws[-1]
        out["last"] = say(Text("kegeln.head_thrown", {"name": state.members[t.member].name,
                                                     "pins": presenter.pins_text(t.pins),
                                                     "pos": presenter.pos_text(t.position)}))
        out["last_pins"] = t.pins
        out["last_name"] = state.members[t.member].name
    if state.phase is Phase.TIE:
        out["tie"] = say(Text("tv.tie", {"scorer": state.scorer.name}))
        out["result"] = [say(line) for line in presenter.result_table(state)]
        out["ranking"] = ranking_view(state, say)
    return out


def ranking_view(state: State, say: Say) -> list[dict[str, str]]:
    """The result as the end screen lays it out: a line per place, a team's members on a line of their own
    (the text the chat gets puts them in one long line, too wide for a screen of four teams)."""
    if not state.teams:
        return [{"line": say(line), "members": ""} for line in presenter.result_table(state)]
    return [{"line": say(Text("tv.team_line", {"place": place, "team": presenter.team_text(e),
                                               "score": presenter.fmt_score(state, e)})),
             "members": ", ".join(f"{state.members[i].name} {number(state, i)}" for i in team_members(state, e))}
            for place, e in ranking(state)]


def finished_view(row: GameRow, say: Say) -> dict[str, Any] | None:
    """The evening's last finished game: its result table and winner (as the group's result message)."""
    if row.kind != GAME.kind:
        return None
    state = serial.load(State, row.state)
    view = game_view(row.id, state, say)
    view["result"] = [say(line) for line in presenter.result_table(state)]
    view["ranking"] = ranking_view(state, say)
    if state.winner is not None:
        view["winner"] = say(Text("tv.winner", {"name": presenter.entry_name(state, state.winner)}))
    return view
