"""The club's reports: the evening summary (/abend) and the CSV throw log (/kegelexport).

Pure functions over rows read from the kegeln tables (see the kegeln block of SqliteStore);
no I/O, no clock: the App passes the time window and the rows.
"""

from __future__ import annotations

import csv
import io
import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from datetime import UTC, date, datetime, tzinfo
from fractions import Fraction
from typing import Any

from core.club.evenings import evening_of
from core.club.records import schnitt as kegel_schnitt
from core.club.season import SeasonRow
from core.messages import Text

MODES = {"high": "kegeln.mode_high", "low": "kegeln.mode_low"}  # a game's mode, as the records keep it
CSV_HEADER = ("date", "game", "member", "pins", "position", "digit", "season")


@dataclass(frozen=True)
class Best:
    """The leaders of one category (all who share the best value) and that value."""

    names: tuple[str, ...]
    value: Any


def _best(rows: Sequence[tuple[str, Any]], zero: bool = False) -> Best | None:
    """Everyone with the highest value (in the rows' order); None without rows, or when the best is 0
    (unless `zero`: a Kegel-Schnitt of 0.0 still has leaders)."""
    if not rows:
        return None
    top = max(v for _, v in rows)
    if not top and not zero:
        return None
    return Best(tuple(n for n, v in rows if v == top), top)


def evening(games: Sequence[tuple[Any, ...]], members: Sequence[tuple[Any, ...]]
            ) -> tuple[list[Text], Best | None, Best | None, Best | None]:
    """The evening's parts: one line per game (winner; a tie decided by the scorer marked), and the
    leaders in 9s, Pumpen and Kegel-Schnitt (raw pins per throw; ties all listed).
    `games`: (game id, mode, digits, teams, winner, decided); `members`: (name, games, 9s, Pumpen, pins, throws)."""
    lines = []
    for game_id, mode, digits, teams, winner, decided in games:
        key = "kegeln.abend.game_teams" if teams else "kegeln.abend.game"
        lines.append(Text(key, {"game": game_id, "mode": Text(MODES[mode]), "digits": digits,
                                "winner": winner, "decided": Text("kegeln.abend.decided") if decided else ""}))
    nines = _best([(m[0], m[2]) for m in members])
    pumpen = pumpen_king(members)
    schnitt = _best([(m[0], Fraction(m[4], m[5])) for m in members if m[5]], zero=True)
    if schnitt is not None:
        schnitt = Best(schnitt.names, float(schnitt.value))  # one decimal per language in the renderer
    return lines, nines, pumpen, schnitt


def evening_king(members: Sequence[tuple[Any, ...]]) -> Best | None:
    """The evening's king (*Kegelkönig des Abends*): who won the most games of the evening, and among
    those the best Kegel-Schnitt (raw pins per throw, compared exactly); all who share both share the
    crown. Its value: (games won, Kegel-Schnitt). None when nobody won a game.
    `members`: (name, games, 9s, Pumpen, pins, throws, wins) — the rows of /abend."""
    ranked = [(m[0], (int(m[6]), Fraction(m[4], m[5]) if m[5] else Fraction(0))) for m in members]
    if not ranked or max(v for _, v in ranked)[0] == 0:
        return None
    top = max(v for _, v in ranked)
    return Best(tuple(n for n, v in ranked if v == top), (top[0], float(top[1])))


def crowns(rows: Sequence[SeasonRow], tz: tzinfo = UTC) -> Best | None:
    """Who was the evening's king (`evening_king`) on the most club evenings of a season (evenings in the
    chat's zone, core/club/evenings.py; a crown shared on an evening counts for each who shares it):
    all who share the most, the value their number of crowns. `rows`: the season's member lines, oldest first."""
    spelled: dict[str, str] = {}
    nights: dict[date, dict[str, list[int]]] = {}
    for r in rows:
        spelled[r.member] = r.name
        night = nights.setdefault(evening_of(r.at, tz), {})
        wins, pins, throws = night.setdefault(r.member, [0, 0, 0])
        night[r.member] = [wins + r.win, pins + r.pins, throws + r.throws]
    counts: dict[str, int] = {}
    for night in nights.values():
        king = evening_king([(m, 0, 0, 0, p, t, w) for m, (w, p, t) in night.items()])
        for member in king.names if king else ():
            counts[member] = counts.get(member, 0) + 1
    best = _best([(spelled[m], n) for m, n in counts.items()])
    return Best(tuple(sorted(best.names, key=str.casefold)), best.value) if best else None


def pumpen_king(members: Sequence[tuple[Any, ...]]) -> Best | None:
    """The evening's Pumpen king: most Pumpen (at least one), all who share it."""
    return _best([(m[0], m[3]) for m in members])


def leader_texts(nines: Best | None, pumpen: Best | None, schnitt: Best | None,
                 king: Best | None = None) -> dict[str, Text | str]:
    """The leader lines of /abend (plural by the count): the evening's king, 9s, the Pumpen king, Schnitt."""
    return {
        "king": Text("kegeln.abend.king", {"names": ", ".join(king.names), "n": king.value[0],
                                           "schnitt": king.value[1]}) if king else "",
        "nines": Text("kegeln.abend.nines", {"names": ", ".join(nines.names), "n": nines.value})
        if nines else Text("kegeln.abend.no_nines"),
        "pumpen": Text("kegeln.abend.pumpen", {"names": ", ".join(pumpen.names), "n": pumpen.value})
        if pumpen else Text("kegeln.abend.no_pumpen"),
        "schnitt": Text("kegeln.abend.schnitt", {"names": ", ".join(schnitt.names), "schnitt": schnitt.value})
        if schnitt else "",
    }


def club_table(club: Sequence[tuple[Any, ...]]) -> list[Text]:
    """The member table as /kegelstats and /kegelexport show it, one line each (a list parameter):
    `1. Sven — 3 · 2/0 · 9×4 · P×1 · ⌀ 5.2` (the Kegel-Schnitt in the reader's decimal format)."""
    return [Text("kegeln.club_line", {"i": i, "name": n, "games": g, "wh": wh, "wl": wl, "nines": nn, "pumpen": pp,
                                      "schnitt": kegel_schnitt(p, t)})
            for i, (n, g, wh, wl, nn, pp, p, t) in enumerate(club, 1)]


def file_name(chat_id: str, season: str = "") -> str:
    """`kegeln-<chat>.csv` (one season's: `kegeln-<chat>-<season>.csv`), the chat id and the season
    reduced to letters, digits, `-` and `_`."""
    safe = re.sub(r"[^A-Za-z0-9_-]+", "_", chat_id).strip("_") or "chat"
    if season:
        safe += "-" + re.sub(r"[^A-Za-z0-9_-]+", "-", season)
    return f"kegeln-{safe}.csv"


FORMULA_START = ("=", "+", "-", "@", "\t", "\r")
PLAIN_NEGATIVE = re.compile(r"-\d+(?:[.,]\d+)?")


def cell(value: Any) -> Any:
    """A text cell a spreadsheet cannot run (OWASP CSV injection): one that begins like a formula
    (=, +, -, @, a tab or a carriage return) gets a leading `'`; a plain negative number stays."""
    if isinstance(value, str) and value.startswith(FORMULA_START) and not PLAIN_NEGATIVE.fullmatch(value):
        return "'" + value
    return value


def throw_log_csv(rows: Sequence[tuple[Any, ...]], seasons: Mapping[int, str] | None = None) -> bytes:
    """The throw log as CSV (UTF-8 with BOM, so spreadsheets show umlauts): one row per throw,
    `date` (UTC, `YYYY-MM-DD HH:MM:SS`), `game`, `member`, `pins` (raw, 0 = Pumpe), `position`
    (the place value: 1, 10, 100, …), `digit` (the value it counts in the game's mode) and `season`
    (the club season the game finished in, `seasons` by game id: `2026`, `2026/27`).
    `rows`: (time, game id, name, pins, position index, digit). Names never start a formula (`cell`)."""
    out = io.StringIO(newline="")
    writer = csv.writer(out)
    writer.writerow(CSV_HEADER)
    for at, game_id, name, pins, position, digit in rows:
        when = datetime.fromtimestamp(at, UTC).strftime("%Y-%m-%d %H:%M:%S")
        writer.writerow((when, game_id, cell(name), pins, 10 ** position, digit, (seasons or {}).get(game_id, "")))
    return out.getvalue().encode("utf-8-sig")
