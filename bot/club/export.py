"""The club's export: /kegelexport, the club's throw log as a CSV file with the member table."""

from __future__ import annotations

from bot.app.turn import Turn
from bot.club import records
from bot.club.season import season_head, season_rows, season_start, season_year
from bot.games.plugin import Services
from core.club import season as club_season
from core.club import summary
from core.messages import Message, Text


async def cmd_kegelexport(svc: Services, turn: Turn, args: tuple[str, ...]) -> None:
    """/kegelexport [SEASON]: the club's throw log as one CSV file (a `season` column says which season
    each game belongs to); the member table in the message text — all-time, or the season's."""
    ib = turn.inbound
    start = await season_start(svc, ib)
    year = season_year(args, export=True) if args else None
    log_rows = await records.throw_log(svc.store, ib.chat.platform, ib.chat.chat_id)
    finished = await records.game_times(svc.store, ib.chat.platform, ib.chat.chat_id)
    seasons = {g: start.year_at(at) for g, at in finished.items()}
    if year is not None:
        log_rows = [r for r in log_rows if seasons.get(r.game_id) == year]
    if not log_rows:
        turn.messages.append(Message(ib.chat, Text("kegeln.stats_empty") if year is None else
                                     Text("kegeln.season.empty", season_head(start, year))))
        return
    if year is None:
        club = await records.club(svc.store, ib.chat.platform, ib.chat.chat_id, limit=svc.list_lines)
    else:
        club = [records.MemberLine(name=ln.name, games=ln.games, wins_high=ln.wins_high, wins_low=ln.wins_low,
                                   nines=ln.nines, pumpen=ln.pumpen, pins=ln.pins, throws=ln.throws)
                for ln in club_season.table(await season_rows(svc, ib, start, year))[:svc.list_lines]]
    table = summary.club_table(club)
    hidden = len({r.name.casefold() for r in log_rows}) - len(club)  # the file holds every member
    if hidden > 0:
        table.append(Text("board.more", {"n": hidden}))
    data = summary.throw_log_csv(log_rows, {g: start.label(y) for g, y in seasons.items()})
    head = {"n": len({r.game_id for r in log_rows}), "throws": len(log_rows), "table": table}
    key = "kegeln.export" if year is None else "kegeln.export_season"
    turn.messages.append(Message(ib.chat, Text(key, {**head, "season": start.label(year or 0)}
                                               if year is not None else head),
                                 file=(summary.file_name(ib.chat.chat_id, start.label(year) if year else ""),
                                       data)))
