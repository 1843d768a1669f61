"""The club's recaps: tonight's evening (/abend) and the season in review (/jahresrueckblick)."""

from __future__ import annotations

import asyncio

from babel.dates import format_date

from bot.app.turn import Turn
from bot.club import records
from bot.club.cash import entries
from bot.club.charts import chart_words, chat_zone, day_labels
from bot.club.season import evenings_text, season_shown, season_start
from bot.games.plugin import Services
from core.club import chart as club_chart
from core.club import season as seasons
from core.club import summary
from core.club.evenings import evening_of, evening_starts
from core.messages import Message, Text


async def cmd_abend(svc: Services, turn: Turn, args: tuple[str, ...]) -> None:
    """/abend: tonight's games of this chat (finished since this club evening started, in the chat's
    zone: core/club/evenings.py): the winner of each, the evening's king (most wins, then the
    best Kegel-Schnitt), who threw the most 9s, the Pumpen king and the best Kegel-Schnitt."""
    ib = turn.inbound
    tz = await chat_zone(svc, ib)
    tonight = evening_of(svc.clock(), tz)  # before 06:00 local time still last night's evening
    since = evening_starts(tonight, tz)
    games = await records.games_since(svc.store, ib.chat.platform, ib.chat.chat_id, since)
    if not games:
        turn.messages.append(Message(ib.chat, Text("kegeln.abend.empty")))
        return
    members = await records.members_since(svc.store, ib.chat.platform, ib.chat.chat_id, since)
    lines, nines, pumpen, schnitt = summary.evening(games, members)
    lang = await svc.lang(ib)
    rendered = "\n".join(svc.catalogs.render(line, lang) for line in lines)
    # the evening's day (an evening past midnight keeps its date), in the reader's medium date format
    turn.messages.append(Message(ib.chat, Text("kegeln.abend.text", {
        "head": Text("kegeln.abend.head", {"n": len(games), "date": tonight}),
        "games": rendered,
        **summary.leader_texts(nines, pumpen, schnitt, summary.evening_king(members))})))


async def cmd_jahresrueckblick(svc: Services, turn: Turn, args: tuple[str, ...]) -> None:
    """/jahresrueckblick [SEASON] (/yearreview, /arsrevy, /itogi_goda, /godishen_pregled): the season in
    numbers and pictures — champion, most improved, Pumpen king, the evening's king most often, best
    evening, records."""
    ib = turn.inbound
    shown_season = await season_shown(svc, turn, await season_start(svc, ib), args)
    if shown_season is None:
        return
    rows, head = shown_season
    tz = await chat_zone(svc, ib)
    rv = seasons.review(rows, tz)
    lang = await svc.lang(ib)
    parts: list[Text] = [Text("kegeln.review.head", {**head, "n": rv.games, "evenings": evenings_text(rv.evenings)})]
    if rv.champion is not None:  # several level on wins share the title
        parts.append(Text("kegeln.review.champion", {"name": rv.champion.name, "n": rv.champion.wins})
                     if len(rv.champions) < 2 else
                     Text("kegeln.review.champions", {"names": ", ".join(rv.champions), "n": rv.champion.wins}))
    parts.append(Text("kegeln.review.improved", {"name": rv.improved[0], "gain": rv.improved[1]})
                 if rv.improved else Text("kegeln.review.no_improved", {"n": seasons.MIN_IMPROVED_GAMES}))
    parts.append(Text("kegeln.review.pumpen", {"names": ", ".join(rv.pumpen_king.names),
                                               "n": rv.pumpen_king.value})
                 if rv.pumpen_king else Text("kegeln.review.no_pumpen"))
    crowned = summary.crowns(rows, tz)  # the evening's king most often (docs/kegeln.md "Evenings")
    if crowned is not None:
        parts.append(Text("kegeln.review.crowns", {"names": ", ".join(crowned.names), "n": crowned.value}))
    best = rv.best_evening
    if best is not None and best.day is not None:  # all who share it, each with every such evening
        if len(best.names) == 1 and len(best.days[0]) == 1:
            parts.append(Text("kegeln.review.evening", {"name": best.names[0], "date": best.day,
                                                        "schnitt": float(best.value)}))
        else:
            shared = ", ".join(svc.catalogs.render(Text("kegeln.review.evening_holder", {
                "name": n, "dates": ", ".join(format_date(d, format="medium", locale=lang) for d in days)}), lang)
                for n, days in zip(best.names, best.days, strict=True))
            parts.append(Text("kegeln.review.evening_shared", {"names": shared, "schnitt": float(best.value)}))
    for key, rec in (("kegeln.review.highest", rv.highest), ("kegeln.review.lowest", rv.lowest)):
        if rec is not None:
            parts.append(Text(key, {"names": holders(svc, rec, lang), "number": str(rec.value)}))
    if rv.most_nines is not None:
        parts.append(Text("kegeln.review.nines", {"names": holders(svc, rv.most_nines, lang),
                                                  "n": rv.most_nines.value}))
    parts += await entries.review_lines(svc, ib, args)  # the season's cash box (bot/club/cash/entries.py)
    lines = seasons.table(rows)[:club_chart.MAX_SERIES]
    series, evenings = club_chart.evening_series(
        [(r.member, r.name, r.game_id, r.at, r.pins, r.throws) for r in rows], [ln.name for ln in lines], tz)
    labels = await day_labels(svc, evenings, ib)
    card = [svc.catalogs.render(part, lang) for part in parts]  # the recap card: the text's lines (emoji left out)
    chart = await asyncio.to_thread(club_chart.review_chart, series, labels,
                                    [(ln.wins_high, ln.wins_low) for ln in lines], rv.halves,
                                    words=await chart_words(svc, ib), card=card)
    turn.messages.append(Message(ib.chat, Text("kegeln.review.text", {"lines": parts}), image=chart))


def holders(svc: Services, rec: seasons.Record, lang: str) -> str:
    """A record's holders, each with every game they set it in: "Anna (game #3), Ben (games #5, #8)"."""
    each = rec.each or tuple((g,) for g in rec.games)
    return ", ".join(svc.catalogs.render(
        Text("kegeln.review.holder", {"name": n, "game": gs[0]}) if len(gs) == 1 else
        Text("kegeln.review.holder_games", {"name": n, "games": ", ".join(f"#{g}" for g in gs)}), lang)
        for n, gs in zip(rec.names, each, strict=True))
