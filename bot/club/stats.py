"""The club's statistics: /kegelstats (a member's line and chart, or the club table)."""

from __future__ import annotations

import asyncio

from bot.app import achievements
from bot.app.turn import Turn
from bot.club import records
from bot.club.charts import chart_words, chat_zone, day_labels
from bot.games.plugin import Services
from core import names
from core.club import chart as club_chart
from core.club import summary
from core.club.records import schnitt
from core.errors import GameError
from core.messages import Message, Text


async def cmd_kegelstats(svc: Services, turn: Turn, args: tuple[str, ...]) -> None:
    """/kegelstats [NAME]: a member's statistics and Kegel-Schnitt chart, or the club table."""
    ib = turn.inbound
    series = await records.series(svc.store, ib.chat.platform, ib.chat.chat_id)
    if args:
        wanted = names.clean(" ".join(args))
        if not wanted:
            raise GameError("empty_name")
        line = await records.member(svc.store, ib.chat.platform, ib.chat.chat_id, wanted)
        if line is None:
            raise GameError("kegeln.unknown_member", name=wanted[:40])
        mine = [row for row in series if row.member == wanted.casefold()]
        # the average per club evening
        lines, evenings = club_chart.evening_series(mine, [line.name], await chat_zone(svc, ib))
        image = await asyncio.to_thread(club_chart.line_chart, lines, await day_labels(svc, evenings, ib),
                                        words=await chart_words(svc, ib))
        text = Text("kegeln.stats", {
            "name": line.name, "n": line.games, "wins_high": line.wins_high, "wins_low": line.wins_low,
            "nines": line.nines, "pumpen": line.pumpen, "schnitt": schnitt(line.pins, line.throws),
            "throws": line.throws})
        earned = await achievements.of_player(svc.store, ib.chat.platform, ib.chat.chat_id, wanted.casefold())
        if earned:  # the member's achievements here (bot/app/achievements.py: the club's records, by name)
            text = Text("achievement.in_stats", {"stats": text, "achievements": earned})
        turn.messages.append(Message(ib.chat, text, image=image))
        return
    club = await records.club(svc.store, ib.chat.platform, ib.chat.chat_id, limit=svc.list_lines)
    if not club:
        turn.messages.append(Message(ib.chat, Text("kegeln.stats_empty")))
        return
    table = summary.club_table(club)
    hidden = len({row.member for row in series}) - len(club)  # every member has a line in the series
    if hidden > 0:
        table.append(Text("board.more", {"n": hidden}))
    lines, evenings = club_chart.evening_series(series, [r.name for r in club], await chat_zone(svc, ib))
    chart = await asyncio.to_thread(club_chart.club_chart, lines, await day_labels(svc, evenings, ib),
                                    [(r.wins_high, r.wins_low) for r in club],
                                    words=await chart_words(svc, ib))  # PNG drawn off the event loop
    turn.messages.append(Message(ib.chat, Text("kegeln.club", {"table": table}), image=chart))
