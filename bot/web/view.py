"""What a chat's TV page shows, as one JSON-able dict in the chat's language: the running Hausnummern game
(every member's number so far, whose throw it is, the last throw, an open tie), else the last result of
the evening, and the evening's standings (/abend's lines).

Only what the group already sees: the same facts as the Kegeln standings and /abend post in the chat —
names the scorer typed, numbers, pins. Nothing of any other game (whose secret codes it could hold),
no private message, no other chat: the view reads the chat it was asked for, and only Kegeln."""

from __future__ import annotations

from typing import Any

from bot.club.games import is_club_game
from bot.games.kegeln import storage as kegeln_storage
from bot.games.plugin import Services
from bot.schedule.zones import zone
from bot.storage.base import GameRow
from core import serial
from core.games.kegeln import presenter
from core.games.kegeln import report as kegeln_report
from core.games.kegeln.evenings import evening_of, evening_starts
from core.games.kegeln.state import Phase, State, current, number, ranking, shown, team_members
from core.messages import Chat, Text, group_of

KIND = "kegeln"
WORDS = ("tv.now", "tv.last", "tv.idle", "tv.nines", "tv.pumpe", "tv.connecting")  # the labels the page's script shows


MAX_LANES = 4  # the most games the page splits its screen between (a club hall with four lanes)
RECENT_SECONDS = 300.0  # a lane's result stays in its part of the screen this long while another lane plays


def shows_on_tv(row: GameRow) -> bool:
    """THE one place that says whether a game shows on the chat's TV: the club's Hausnummern games only
    (bot/club/games.py: started by a chat admin or an appointed scorer), so that a member's casual game
    never takes the club's screen."""
    return is_club_game(row)


async def read(svc: Services, platform: str, chat_id: str) -> dict[str, Any]:
    """The page of one chat now: one game (running, else the evening's last result), or the screen split
    between the lanes when several club games run at once (a lane that just ended keeps its result)."""
    lang = await svc.localiser.group_lang(Chat(platform, chat_id, False))

    def say(text: Text | str) -> str:
        return svc.catalogs.render(text, lang)

    view: dict[str, Any] = {"lang": lang, "title": say(Text("tv.title")), "words": words(svc, lang), "lanes": []}
    running = [r for r in await svc.store.chat_games(platform, chat_id) if shows_on_tv(r)]
    tz = zone(await svc.store.chat_tz(platform, group_of(chat_id)))
    now = svc.clock()
    tonight = evening_of(now, tz)
    since = evening_starts(tonight, tz)
    finished = await kegeln_storage.games_since(svc.store, platform, chat_id, since)
    ended = [r for r in [await svc.store.get_game(f.game_id) for f in finished[-MAX_LANES:]]
             if r is not None and shows_on_tv(r)]
    lanes = lanes_now(running, ended, now)
    if len(lanes) > 1:
        view["screen"] = "lanes"
        view["game"] = None
        view["lanes"] = [lane_view(n, row, say) for n, row in enumerate(lanes, 1)]
    elif running:
        view["screen"] = "game"
        view["game"] = game_view(running[-1].id, serial.load(State, running[-1].state), say)
    else:
        view["screen"] = "idle"
        view["game"] = finished_view(ended[-1], say) if ended else None
    view["evening"] = await evening_view(svc, platform, chat_id, since, tonight, finished, say)
    return view


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


def lane_view(n: int, row: GameRow, say: Any) -> dict[str, Any]:
    """One lane's part of a split screen: its game (or its result, just ended) under the lane's label."""
    state = serial.load(State, row.state)
    shown = finished_view(row, say) if row.over else game_view(row.id, state, say)
    assert shown is not None
    return {**shown, "lane": say(Text("tv.lane", {"n": n, "scorer": state.scorer.name}))}


def words(svc: Services, lang: str) -> dict[str, str]:
    """The page's own words (catalog [tv]): the labels its script shows."""
    return {k.removeprefix("tv."): svc.catalogs.render(Text(k), lang) for k in WORDS}


def game_view(game_id: int, state: State, say: Any) -> dict[str, Any]:
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


def ranking_view(state: State, say: Any) -> list[dict[str, str]]:
    """The result as the end screen lays it out: a line per place, a team's members on a line of their own
    (the text the chat gets puts them in one long line, too wide for a screen of four teams)."""
    if not state.teams:
        return [{"line": say(line), "members": ""} for line in presenter.result_table(state)]
    return [{"line": say(Text("tv.team_line", {"place": place, "team": presenter.team_text(e),
                                               "score": presenter.fmt_score(state, e)})),
             "members": ", ".join(f"{state.members[i].name} {number(state, i)}" for i in team_members(state, e))}
            for place, e in ranking(state)]


def finished_view(row: GameRow, say: Any) -> dict[str, Any] | None:
    """The evening's last finished game: its result table and winner (as the group's result message)."""
    if row.kind != KIND:
        return None
    state = serial.load(State, row.state)
    view = game_view(row.id, state, say)
    view["result"] = [say(line) for line in presenter.result_table(state)]
    view["ranking"] = ranking_view(state, say)
    if state.winner is not None:
        view["winner"] = say(Text("tv.winner", {"name": presenter.entry_name(state, state.winner)}))
    return view


async def evening_view(svc: Services, platform: str, chat_id: str, since: float, tonight: Any,
                       finished: list[kegeln_storage.FinishedGame], say: Any) -> dict[str, Any]:
    """Tonight's standings, as /abend says them: a line per finished game and the leaders."""
    if not finished:
        return {"head": say(Text("tv.evening")), "games": [], "leaders": [say(Text("tv.no_evening"))]}
    members = await kegeln_storage.members_since(svc.store, platform, chat_id, since)
    lines, nines, pumpen, schnitt = kegeln_report.evening(finished, members)
    leaders = [say(t) for t in kegeln_report.leader_texts(nines, pumpen, schnitt).values() if t]
    return {"head": say(Text("kegeln.abend.head", {"n": len(finished), "date": tonight})),
            "games": [say(line) for line in lines], "leaders": leaders}


def moment(old: dict[str, Any] | None, new: dict[str, Any]) -> dict[str, Any] | None:
    """A throw just entered that was alle Neune (9 pins) or a Pumpe (0): a short celebration on the pages
    that were open when it came (a page opened later never sees it: it is no part of the view)."""
    if old is None:
        return None
    before = {g["id"]: g for g in [old.get("game"), *old.get("lanes", [])] if g}
    for after in [new.get("game"), *new.get("lanes", [])]:
        was = before.get(after["id"]) if after else None
        if not after or not was or after.get("throws", 0) != was.get("throws", 0) + 1:
            continue
        pins = after.get("last_pins")
        if pins == 9:
            return {"kind": "nines", "text": new["words"]["nines"], "name": after.get("last_name", "")}
        if pins == 0:
            return {"kind": "pumpe", "text": new["words"]["pumpe"], "name": after.get("last_name", "")}
    return None
