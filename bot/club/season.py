"""The club's seasons (core/club/season.py): /saison, the season start and who may set it."""

from __future__ import annotations

import asyncio
from typing import Any

from bot.app.turn import Turn
from bot.club import records
from bot.club import roles as club_roles
from bot.club.charts import chart_words, chat_zone, day_labels
from bot.games.plugin import Services
from core.club import chart as club_chart
from core.club import season as seasons
from core.club.roles import Act
from core.errors import GameError
from core.messages import DayMonth, Inbound, Message, Text


async def season_start(svc: Services, ib: Inbound) -> seasons.Start:
    return await records.season_start(svc.store, ib.chat.platform, ib.chat.chat_id) or seasons.Start()


def season_year(args: tuple[str, ...], export: bool = False) -> int:
    """The season a command names; else that command's usage (its own examples: /kegelexport's, /saison's)."""
    year = seasons.parse_year(" ".join(args))
    if year is None:
        raise GameError("kegeln.export_usage") if export else GameError("kegeln.season.usage")
    return year


async def season_rows(svc: Services, ib: Inbound, start: seasons.Start,
                      year: int) -> list[seasons.SeasonRow]:
    since, until = start.span(year)
    return await records.season_rows(svc.store, ib.chat.platform, ib.chat.chat_id, since, until)


def season_head(start: seasons.Start, year: int) -> dict[str, Any]:
    """A season's name and days, as its heading and its "no games" answer show them."""
    return {"season": start.label(year), "from": start.begins(year).date(), "until": start.last_day(year)}


async def season_shown(svc: Services, turn: Turn, start: seasons.Start,
                       args: tuple[str, ...]) -> tuple[list[seasons.SeasonRow], dict[str, Any]] | None:
    """The member lines and heading of the season `args` names (none: the current one); None, with the
    answer that it has no games, when it has none (/saison and /jahresrueckblick alike)."""
    ib = turn.inbound
    year = season_year(args) if args else start.year_at(svc.clock())
    rows = await season_rows(svc, ib, start, year)
    head = season_head(start, year)
    if not rows:
        turn.messages.append(Message(ib.chat, Text("kegeln.season.empty", head)))
        return None
    return rows, head


async def may_set_season(svc: Services, ib: Inbound) -> None:
    """The season start is the club's: a chat admin or an appointed scorer moves it (core/club/roles.py) —
    a role, never games played (anyone can start and score a game of made-up names)."""
    await club_roles.require(svc, ib.actor, ib.chat, Act.SEASON)


async def cmd_saison(svc: Services, turn: Turn, args: tuple[str, ...]) -> None:
    """/saison [SEASON]: the club table of a season (default: the current one) with its chart;
    /saison START (a date or a month: 09-01, 1.9., 9) sets the day the club's seasons start."""
    ib = turn.inbound
    start = await season_start(svc, ib)
    words = " ".join(args).split()
    if words:
        new = seasons.parse_start(words[0]) if seasons.parse_year(words[0]) is None else None
        if new is not None:
            await may_set_season(svc, ib)
            await records.set_season_start(svc.store, ib.chat.platform, ib.chat.chat_id, new.month, new.day)
            year = new.year_at(svc.clock())
            turn.messages.append(Message(ib.chat, Text("kegeln.season.set", {
                "start": DayMonth(new.month, new.day), "season": new.label(year),
                "until": new.last_day(year)})))
            return
    shown_season = await season_shown(svc, turn, start, tuple(words))
    if shown_season is None:
        return
    rows, head = shown_season
    lines = seasons.table(rows)
    shown = lines[:svc.list_lines]
    table: list[Text] = [season_line(i, ln) for i, ln in enumerate(shown, 1)]
    if len(lines) > len(shown):
        table.append(Text("board.more", {"n": len(lines) - len(shown)}))
    series, evenings = club_chart.evening_series(
        [(r.member, r.name, r.game_id, r.at, r.pins, r.throws) for r in rows], [ln.name for ln in shown],
        await chat_zone(svc, ib))
    chart = await asyncio.to_thread(club_chart.club_chart, series, await day_labels(svc, evenings, ib),
                                    [(ln.wins_high, ln.wins_low) for ln in shown],
                                    words=await chart_words(svc, ib))  # drawn off the event loop
    games = len({r.game_id for r in rows})
    turn.messages.append(Message(ib.chat, Text("kegeln.season.table", {
        "head": Text("kegeln.season.head", {**head, "n": games, "evenings": evenings_text(len(evenings))}),
        "table": table}), image=chart))


def evenings_text(n: int) -> Text:
    return Text("kegeln.season.evenings", {"n": n})


def season_line(i: int, ln: seasons.Line) -> Text:
    """`1. Sven — 4 · 2/1 · № 612.5 (941–308, 3 places) · 9×4 · P×1 · ⌀ 5.2` (numbers: the high-mode games,
    one group per number of places, `/` between them)."""
    dash = "–"
    schnitt = float(ln.schnitt) if ln.schnitt is not None else dash
    numbers: Text | str = dash
    for g in reversed(ln.numbers()):
        one = Text("kegeln.season.number", {"places": g.places, "average": g.average, "best": str(g.best),
                                            "worst": str(g.worst)})
        numbers = one if numbers == dash else Text("kegeln.season.numbers", {"first": one, "rest": numbers})
    return Text("kegeln.season.line", {
        "i": i, "name": ln.name, "games": ln.games, "wh": ln.wins_high, "wl": ln.wins_low, "numbers": numbers,
        "nines": ln.nines, "pumpen": ln.pumpen, "schnitt": schnitt})
