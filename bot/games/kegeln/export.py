"""Kegeln's export: /kegelexport, the club's throw log as a CSV file with the member table."""

from __future__ import annotations

from bot.app.turn import Turn
from bot.games.kegeln import storage
from bot.games.kegeln.season import season_head, season_rows, season_start, season_year
from bot.games.plugin import Services
from core.games.kegeln import report as kegeln_report
from core.games.kegeln import season as kegeln_season
from core.messages import Message, Text


async def cmd_kegelexport(svc: Services, turn: Turn, args: tuple[str, ...]) -> None:
    """/kegelexport [SEASON]: the club's throw log as one CSV file (a `season` column says which season
    each game belongs to); the member table in the message text — all-time, or the season's."""
    ib = turn.inbound
    start = await season_start(svc, ib)
    year = season_year(args, export=True) if args else None
    log_rows = await storage.throw_log(svc.store, ib.chat.platform, ib.chat.chat_id)
    finished = await storage.game_times(svc.store, ib.chat.platform, ib.chat.chat_id)
    seasons = {g: start.year_at(at) for g, at in finished.items()}
    if year is not None:
        log_rows = [r for r in log_rows if seasons.get(r.game_id) == year]
    if not log_rows:
        turn.messages.append(Message(ib.chat, Text("kegeln.stats_empty") if year is None else
                                     Text("kegeln.season.empty", season_head(start, year))))
        return
    if year is None:
        club = await storage.club(svc.store, ib.chat.platform, ib.chat.chat_id, limit=svc.list_lines)
    else:
        club = [storage.MemberLine(name=ln.name, games=ln.games, wins_high=ln.wins_high, wins_low=ln.wins_low,
                                   nines=ln.nines, pumpen=ln.pumpen, pins=ln.pins, throws=ln.throws)
                for ln in kegeln_season.table(await season_rows(svc, ib, start, year))[:svc.list_lines]]
    table = kegeln_report.club_table(club)
    hidden = len({r.name.casefold() for r in log_rows}) - len(club)  # the file holds every member
    if hidden > 0:
        table.append(Text("board.more", {"n": hidden}))
    data = kegeln_report.throw_log_csv(log_rows, {g: start.label(y) for g, y in seasons.items()})
    head = {"n": len({r.game_id for r in log_rows}), "throws": len(log_rows), "table": table}
    key = "kegeln.export" if year is None else "kegeln.export_season"
    turn.messages.append(Message(ib.chat, Text(key, {**head, "season": start.label(year or 0)}
                                               if year is not None else head),
                                 file=(kegeln_report.file_name(ib.chat.chat_id, start.label(year) if year else ""),
                                       data)))
