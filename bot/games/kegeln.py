"""Kegeln (Hausnummern), bot-side: its commands, statistics, evening report, export, and the
writes of its moves (the scorer's seat, the club's records) in the move's transaction."""

from __future__ import annotations

import asyncio
import dataclasses
import secrets
import weakref
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from datetime import date, tzinfo
from typing import Any

from bot import ratings_rebuild
from bot.services import Command, GamePlugin, Services, Turn
from bot.storage.base import GameRow, KegelnRepository, MergeCheck
from bot.zones import zone
from core import names, serial
from core.errors import GameError
from core.games import kegeln
from core.games.base import Player
from core.games.kegeln import chart as kegeln_chart
from core.games.kegeln import report as kegeln_report
from core.games.kegeln import season as kegeln_season
from core.games.kegeln import tie as kegeln_tie
from core.games.kegeln import trust as kegeln_trust
from core.games.kegeln.evenings import evening_of, evening_starts
from core.messages import Actor, Button, Chat, DayMonth, Inbound, Message, Text
from core.ratings import Match


def repository(svc: Services) -> KegelnRepository:
    return svc.store


async def cmd_kegeln(svc: Services, turn: Turn, args: tuple[str, ...]) -> None:
    """/kegeln high|low [2–6] NAME… (or `teams A B / C D`): whoever starts is the scorer (of one game at a
    time: a scorer of a running game is told so, not that they are "in a game")."""
    ib = turn.inbound
    running = await svc.my_game(ib.actor, ib.chat)
    if running is not None and running.kind == "kegeln":
        raise GameError("kegeln.already_scoring", game=running.id)
    setup = kegeln.parse_setup(args, svc.option_words)
    state, events = kegeln.new(setup, Player(ib.actor.user_id, ib.actor.name), svc.ctx())
    await svc.create(turn, "kegeln", state, events, [ib.actor.user_id])


async def kegeln_game(svc: Services, ib: Inbound) -> GameRow:
    """The scorer's own game here, else the newest running Kegeln game of the chat (the rules
    then refuse anyone who is neither its scorer nor a chat admin, naming the scorer)."""
    row = await svc.my_game(ib.actor, ib.chat)
    if row is not None and row.kind == "kegeln":
        return row
    running = [r for r in await svc.store.chat_games(ib.chat.platform, ib.chat.chat_id) if r.kind == "kegeln"]
    if not running:
        raise GameError("kegeln.no_game")
    return running[-1]


async def cmd_wurf(svc: Services, turn: Turn, args: tuple[str, ...]) -> None:
    """/wurf PINS [POSITION]: `/wurf 7`, `/wurf 7 H`, `/wurf 7 100`, `/wurf 7h`, `/wurf pumpe e`."""
    ib = turn.inbound
    words = " ".join(args).split()  # a slash command's option may hold several words
    if words and len(words[0]) > 1 and words[0][0].isdecimal() and not words[0].isdecimal():
        words[:1] = [words[0][0], words[0][1:]]  # "7h" → "7", "h"
    if not words:
        raise GameError("kegeln.needs_pins")
    row = await kegeln_game(svc, ib)
    pins = "0" if words[0].lower() in kegeln.PUMPE_WORDS else words[0]
    position = None
    if len(words) > 1:
        position = kegeln_position(svc, " ".join(words[1:]), await svc.lang(ib))
    await svc.play(turn, row, kegeln.Pins(pins, position, ib.actor.is_admin))


async def cmd_throw(svc: Services, turn: Turn, args: tuple[str, ...]) -> None:
    await cmd_wurf(svc, turn, args)


def kegeln_position(svc: Services, word: str, lang: str) -> int:
    """A position as typed: 1/10/100…, or a localised word or letter (the chat's language first)."""
    w = word.strip().lower().replace(" ", "")
    if w.isdecimal() and w == "1" + "0" * (len(w) - 1):
        return len(w) - 1
    here = {p for p, key in enumerate(kegeln.WORD_KEYS)
            if w in (str(x).lower() for x in svc.catalogs.catalogs.get(lang, {}).get(key, []))}
    anywhere = {p for p, key in enumerate(kegeln.WORD_KEYS) if w in svc.catalogs.words(key)}
    found = here or anywhere
    if len(found) != 1:
        raise GameError("kegeln.unknown_position", given=word[:20])
    return found.pop()


async def cmd_undo(svc: Services, turn: Turn, args: tuple[str, ...]) -> None:
    row = await kegeln_game(svc, turn.inbound)
    await svc.play(turn, row, kegeln.Undo(turn.inbound.actor.is_admin))


async def cmd_scorer(svc: Services, turn: Turn, args: tuple[str, ...]) -> None:
    """/scorer NAME-or-mention hands the scorer role to another chat member (an admin: /scorer takes it)."""
    ib = turn.inbound
    row = await kegeln_game(svc, ib)
    if not args:
        if not ib.actor.is_admin:
            raise GameError("kegeln.scorer_needs_name")
        to = Player(ib.actor.user_id, ib.actor.name)
    else:
        to = await svc.find_player(ib, " ".join(args), for_scorer=True)
    await svc.play(turn, row, kegeln.HandOver(to, ib.actor.is_admin))


async def cmd_winner(svc: Services, turn: Turn, args: tuple[str, ...]) -> None:
    """/winner NAME (/sieger, /vinnare …): the scorer names the winner of a tie by typing — the same
    decision as its 🏆 button, for a scorer whose buttons are gone."""
    ib = turn.inbound
    row = await kegeln_game(svc, ib)
    state = serial.load(kegeln.GAME.state_type, row.state)
    await svc.play(turn, row, kegeln_tie.typed_winner(state, " ".join(args), ib.actor.user_id, ib.actor.is_admin))


def kegeln_job(svc: Services, row: GameRow, old: Any, new: Any, over: bool) -> Any:
    """A Kegeln move's own writes, in the move's transaction: the seat follows the scorer role;
    the final move records the game, its members' statistics and the throw log."""
    keep = new.scorer.user_id if new.scorer.user_id != old.scorer.user_id else None
    records = kegeln.member_records(new) if over else []
    if keep is None and not records:
        return None
    game = (new.mode.value, new.digits, new.teams, kegeln.winner_label(new), new.decided) if records else None
    throws = [(new.members[t.member].name, t.pins, t.position, kegeln.digit_value(new.mode, t.pins), t.at)
              for t in new.throws] if records else []
    return repository(svc).kegeln_job(row.id, row.platform, row.chat_id, keep, game, records, throws, svc.clock())


async def cmd_kegelstats(svc: Services, turn: Turn, args: tuple[str, ...]) -> None:
    """/kegelstats [NAME]: a member's statistics and Kegel-Schnitt chart, or the club table."""
    ib = turn.inbound
    series = await repository(svc).kegeln_series(ib.chat.platform, ib.chat.chat_id)
    if args:
        wanted = names.clean(" ".join(args))
        if not wanted:
            raise GameError("empty_name")
        line = await repository(svc).kegeln_member(ib.chat.platform, ib.chat.chat_id, wanted)
        if line is None:
            raise GameError("kegeln.unknown_member", name=wanted[:40])
        mine = [row for row in series if row.member == wanted.casefold()]
        # the average per club evening
        lines, evenings = kegeln_chart.evening_series(mine, [line.name], await chat_zone(svc, ib))
        image = await asyncio.to_thread(kegeln_chart.line_chart, lines, await day_labels(svc, evenings, ib),
                                        words=await chart_words(svc, ib))
        turn.messages.append(Message(ib.chat, Text("kegeln.stats", {
            "name": line.name, "n": line.games, "wins_high": line.wins_high, "wins_low": line.wins_low,
            "nines": line.nines, "pumpen": line.pumpen, "schnitt": kegeln.schnitt(line.pins, line.throws),
            "throws": line.throws}), image=image))
        return
    club = await repository(svc).kegeln_club(ib.chat.platform, ib.chat.chat_id, limit=svc.list_lines)
    if not club:
        turn.messages.append(Message(ib.chat, Text("kegeln.stats_empty")))
        return
    table = kegeln_report.club_table(club)
    hidden = len({row.member for row in series}) - len(club)  # every member has a line in the series
    if hidden > 0:
        table.append(Text("board.more", {"n": hidden}))
    lines, evenings = kegeln_chart.evening_series(series, [r.name for r in club], await chat_zone(svc, ib))
    chart = await asyncio.to_thread(kegeln_chart.club_chart, lines, await day_labels(svc, evenings, ib),
                                    [(r.wins_high, r.wins_low) for r in club],
                                    words=await chart_words(svc, ib))  # PNG drawn off the event loop
    turn.messages.append(Message(ib.chat, Text("kegeln.club", {"table": table}), image=chart))


async def chart_words(svc: Services, ib: Inbound) -> kegeln_chart.Words:
    """The Kegel pictures' titles, axis caption and legends in the chat's language."""
    lang = await svc.lang(ib)

    def say(key: str, **params: Any) -> str:
        return svc.catalogs.render(Text(key, params), lang)

    return kegeln_chart.Words(
        lines=say("kegeln.chart.lines"), y_axis=say("kegeln.chart.y_axis"), wins=say("kegeln.chart.wins"),
        high=say("kegeln.mode_high"), low=say("kegeln.mode_low"), halves=say("kegeln.chart.halves"),
        first=say("kegeln.chart.first"), second=say("kegeln.chart.second"),
        halves_none=say("kegeln.chart.halves_none", n=kegeln_season.MIN_IMPROVED_GAMES))


async def chat_zone(svc: Services, ib: Inbound) -> tzinfo:
    """The chat's time zone (/timezone, kept per group; UTC by default): where its club evenings lie."""
    return zone(await svc.store.chat_tz(ib.chat.platform, ib.chat.group))


async def day_labels(svc: Services, days: list[date], ib: Inbound) -> list[str]:
    """A chart's evenings as the chat reads dates (the picture is drawn once, for the chat)."""
    lang = await svc.lang(ib)
    return svc.catalogs.date_axis(days, lang)


async def cmd_abend(svc: Services, turn: Turn, args: tuple[str, ...]) -> None:
    """/abend: tonight's games of this chat (finished since this club evening started, in the chat's
    zone: core/games/kegeln/evenings.py): the winner of each, and who threw the most 9s, the most
    Pumpen and the best Kegel-Schnitt."""
    ib = turn.inbound
    tz = await chat_zone(svc, ib)
    tonight = evening_of(svc.clock(), tz)  # before 06:00 local time still last night's evening
    since = evening_starts(tonight, tz)
    games = await repository(svc).kegeln_games_since(ib.chat.platform, ib.chat.chat_id, since)
    if not games:
        turn.messages.append(Message(ib.chat, Text("kegeln.abend.empty")))
        return
    members = await repository(svc).kegeln_members_since(ib.chat.platform, ib.chat.chat_id, since)
    lines, nines, pumpen, schnitt = kegeln_report.evening(games, members)
    lang = await svc.lang(ib)
    rendered = "\n".join(svc.catalogs.render(line, lang) for line in lines)
    # the evening's day (an evening past midnight keeps its date), in the reader's medium date format
    turn.messages.append(Message(ib.chat, Text("kegeln.abend.text", {
        "head": Text("kegeln.abend.head", {"n": len(games), "date": tonight}),
        "games": rendered,
        **kegeln_report.leader_texts(nines, pumpen, schnitt)})))


async def cmd_kegelexport(svc: Services, turn: Turn, args: tuple[str, ...]) -> None:
    """/kegelexport [SEASON]: the club's throw log as one CSV file (a `season` column says which season
    each game belongs to); the member table in the message text — all-time, or the season's."""
    ib = turn.inbound
    repo = repository(svc)
    start = await season_start(svc, ib)
    year = season_year(args, export=True) if args else None
    log_rows = await repo.kegeln_throw_log(ib.chat.platform, ib.chat.chat_id)
    finished = await repo.kegeln_game_times(ib.chat.platform, ib.chat.chat_id)
    seasons = {g: start.year_at(at) for g, at in finished.items()}
    if year is not None:
        log_rows = [r for r in log_rows if seasons.get(r.game_id) == year]
    if not log_rows:
        turn.messages.append(Message(ib.chat, Text("kegeln.stats_empty") if year is None else
                                     Text("kegeln.season.empty", season_head(start, year))))
        return
    if year is None:
        club: list[tuple[Any, ...]] = list(await repo.kegeln_club(ib.chat.platform, ib.chat.chat_id,
                                                                  limit=svc.list_lines))
    else:
        club = [(ln.name, ln.games, ln.wins_high, ln.wins_low, ln.nines, ln.pumpen, ln.pins, ln.throws)
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


# ---------------------------------------------------------------- the season (core/games/kegeln/season.py)

async def season_start(svc: Services, ib: Inbound) -> kegeln_season.Start:
    stored = await repository(svc).kegeln_season_start(ib.chat.platform, ib.chat.chat_id)
    return kegeln_season.Start(*stored) if stored else kegeln_season.Start()


def season_year(args: tuple[str, ...], export: bool = False) -> int:
    """The season a command names; else that command's usage (its own examples: /kegelexport's, /saison's)."""
    year = kegeln_season.parse_year(" ".join(args))
    if year is None:
        raise GameError("kegeln.export_usage") if export else GameError("kegeln.season.usage")
    return year


async def season_rows(svc: Services, ib: Inbound, start: kegeln_season.Start,
                      year: int) -> list[kegeln_season.SeasonRow]:
    since, until = start.span(year)
    rows = await repository(svc).kegeln_season_rows(ib.chat.platform, ib.chat.chat_id, since, until)
    return [kegeln_season.SeasonRow(*r) for r in rows]


def season_head(start: kegeln_season.Start, year: int) -> dict[str, Any]:
    """A season's name and days, as its heading and its "no games" answer show them."""
    return {"season": start.label(year), "from": start.begins(year).date(), "until": start.last_day(year)}


async def season_shown(svc: Services, turn: Turn, start: kegeln_season.Start,
                       args: tuple[str, ...]) -> tuple[list[kegeln_season.SeasonRow], dict[str, Any]] | None:
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


def final_scorers(finished: Sequence[tuple[GameRow, float]]) -> list[tuple[Any, float]]:
    """The completed games (with club records) of `finished`: their final state and when each ended."""
    out = []
    for row, at in finished:
        state = serial.load(kegeln.GAME.state_type, row.state)
        if state.outcome == "done":
            out.append((state, at))
    return out


async def may_set_season(svc: Services, ib: Inbound, start: kegeln_season.Start) -> None:
    """The season start is the club's: a chat admin sets it, or whoever kept the score of the last
    finished game, or whoever kept the score of the most finished games of the current season — once
    the club trusts them (core/games/kegeln/trust.py: one cheap game buys nothing; a running game's
    scorer is nobody the club has trusted yet: anyone can start a game)."""
    if ib.actor.is_admin:
        return
    games = final_scorers(await repository(svc).kegeln_finished(ib.chat.platform, ib.chat.chat_id))
    last = games[-1][0].scorer if games else None
    year = start.year_at(svc.clock())
    counts: dict[str, int] = {}
    named: dict[str, str] = {}
    for state, at in games:
        if start.year_at(at) == year:
            counts[state.scorer.user_id] = counts.get(state.scorer.user_id, 0) + 1
            named[state.scorer.user_id] = state.scorer.name
    most = [u for u, n in counts.items() if n == max(counts.values())] if counts else []
    if ib.actor.user_id not in most and (last is None or ib.actor.user_id != last.user_id):
        raise GameError("kegeln.season.not_scorer", last=last.name if last else "–",
                        most=", ".join(named[u] for u in most) or "–")
    if not kegeln_trust.trusted(ib.actor.user_id, (state for state, _at in games)):  # one cheap game buys nothing
        raise GameError("kegeln.season.not_trusted", games=kegeln_trust.GAMES, throws=kegeln_trust.THROWS)



def may_merge(actor: Actor, old: str, shown: str, finished: Sequence[tuple[GameRow, float]]) -> None:
    """A merge moves OLD's records: a chat admin may, or a trusted scorer (core/games/kegeln/trust.py)
    who kept the score of every completed game OLD played in (the scorer typed one person under two
    names: the typo, and so the records, are theirs). The scorer of a running game, or of other games
    only, may not. `old` casefolded, `shown` as written."""
    if actor.is_admin:
        return
    scorers = {state.scorer.user_id: state.scorer.name for state, _at in final_scorers(finished)
               if old in {m.name.casefold() for m in state.members}}
    if set(scorers) - {actor.user_id}:
        raise GameError("kegeln.merge.not_scorer", name=shown, scorers=", ".join(scorers.values()))
    if not kegeln_trust.trusted(actor.user_id, (state for state, _at in final_scorers(finished))):
        raise GameError("kegeln.merge.not_trusted", games=kegeln_trust.GAMES, throws=kegeln_trust.THROWS)


async def cmd_saison(svc: Services, turn: Turn, args: tuple[str, ...]) -> None:
    """/saison [SEASON]: the club table of a season (default: the current one) with its chart;
    /saison START (a date or a month: 09-01, 1.9., 9) sets the day the club's seasons start."""
    ib = turn.inbound
    start = await season_start(svc, ib)
    words = " ".join(args).split()
    if words:
        new = kegeln_season.parse_start(words[0]) if kegeln_season.parse_year(words[0]) is None else None
        if new is not None:
            await may_set_season(svc, ib, start)
            await repository(svc).set_kegeln_season_start(ib.chat.platform, ib.chat.chat_id, new.month, new.day)
            year = new.year_at(svc.clock())
            turn.messages.append(Message(ib.chat, Text("kegeln.season.set", {
                "start": DayMonth(new.month, new.day), "season": new.label(year),
                "until": new.last_day(year)})))
            return
    shown_season = await season_shown(svc, turn, start, tuple(words))
    if shown_season is None:
        return
    rows, head = shown_season
    lines = kegeln_season.table(rows)
    shown = lines[:svc.list_lines]
    table: list[Text] = [season_line(i, ln) for i, ln in enumerate(shown, 1)]
    if len(lines) > len(shown):
        table.append(Text("board.more", {"n": len(lines) - len(shown)}))
    series, evenings = kegeln_chart.evening_series(
        [(r.member, r.name, r.game_id, r.at, r.pins, r.throws) for r in rows], [ln.name for ln in shown],
        await chat_zone(svc, ib))
    chart = await asyncio.to_thread(kegeln_chart.club_chart, series, await day_labels(svc, evenings, ib),
                                    [(ln.wins_high, ln.wins_low) for ln in shown],
                                    words=await chart_words(svc, ib))  # drawn off the event loop
    games = len({r.game_id for r in rows})
    turn.messages.append(Message(ib.chat, Text("kegeln.season.table", {
        "head": Text("kegeln.season.head", {**head, "n": games, "evenings": evenings_text(len(evenings))}),
        "table": table}), image=chart))


def evenings_text(n: int) -> Text:
    return Text("kegeln.season.evenings", {"n": n})


def season_line(i: int, ln: kegeln_season.Line) -> Text:
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


async def cmd_jahresrueckblick(svc: Services, turn: Turn, args: tuple[str, ...]) -> None:
    """/jahresrueckblick [SEASON] (/yearreview, /arsrevy, /itogi_goda, /godishen_pregled): the season in
    numbers and pictures — champion, most improved, Pumpen king, best evening, records."""
    ib = turn.inbound
    shown_season = await season_shown(svc, turn, await season_start(svc, ib), args)
    if shown_season is None:
        return
    rows, head = shown_season
    tz = await chat_zone(svc, ib)
    rv = kegeln_season.review(rows, tz)
    lang = await svc.lang(ib)
    parts: list[Text] = [Text("kegeln.review.head", {**head, "n": rv.games, "evenings": evenings_text(rv.evenings)})]
    if rv.champion is not None:  # several level on wins share the title
        parts.append(Text("kegeln.review.champion", {"name": rv.champion.name, "n": rv.champion.wins})
                     if len(rv.champions) < 2 else
                     Text("kegeln.review.champions", {"names": ", ".join(rv.champions), "n": rv.champion.wins}))
    parts.append(Text("kegeln.review.improved", {"name": rv.improved[0], "gain": rv.improved[1]})
                 if rv.improved else Text("kegeln.review.no_improved", {"n": kegeln_season.MIN_IMPROVED_GAMES}))
    parts.append(Text("kegeln.review.pumpen", {"names": ", ".join(rv.pumpen_king.names),
                                               "n": rv.pumpen_king.value})
                 if rv.pumpen_king else Text("kegeln.review.no_pumpen"))
    if rv.best_evening is not None and rv.best_evening.day is not None:
        parts.append(Text("kegeln.review.evening", {"name": rv.best_evening.names[0], "date": rv.best_evening.day,
                                                    "schnitt": float(rv.best_evening.value)}))
    for key, rec in (("kegeln.review.highest", rv.highest), ("kegeln.review.lowest", rv.lowest)):
        if rec is not None:
            parts.append(Text(key, {"names": holders(svc, rec, lang), "number": str(rec.value)}))
    if rv.most_nines is not None:
        parts.append(Text("kegeln.review.nines", {"names": holders(svc, rv.most_nines, lang),
                                                  "n": rv.most_nines.value}))
    lines = kegeln_season.table(rows)[:kegeln_chart.MAX_SERIES]
    series, evenings = kegeln_chart.evening_series(
        [(r.member, r.name, r.game_id, r.at, r.pins, r.throws) for r in rows], [ln.name for ln in lines], tz)
    labels = await day_labels(svc, evenings, ib)
    card = [svc.catalogs.render(part, lang) for part in parts]  # the recap card: the text's lines (emoji left out)
    chart = await asyncio.to_thread(kegeln_chart.review_chart, series, labels,
                                    [(ln.wins_high, ln.wins_low) for ln in lines], rv.halves,
                                    words=await chart_words(svc, ib), card=card)
    turn.messages.append(Message(ib.chat, Text("kegeln.review.text", {"lines": parts}), image=chart))


def holders(svc: Services, rec: kegeln_season.Record, lang: str) -> str:
    """A record's holders, each with the game they set it in: "Anna (game #3), Ben (game #5)"."""
    return ", ".join(svc.catalogs.render(Text("kegeln.review.holder", {"name": n, "game": g}), lang)
                     for n, g in zip(rec.names, rec.games, strict=True))


# ---------------------------------------------------------------- members merged (/kegelmerge OLD NEW)

MERGE_TTL = 600.0  # seconds: how long a /kegelmerge question can be answered


@dataclass(frozen=True)
class MergeAsk:
    """A /kegelmerge waiting for its asker's ✅: the chat, who asked, the names as typed, and the chat's
    finished Kegeln games when asked (how many, the sum of their versions: any game ending or final state
    rewritten since makes the question stale)."""

    platform: str
    chat_id: str
    asker: str
    asker_name: str
    admin: bool  # the asker is a chat admin (a button press may not say so: the question's rule holds)
    old: str
    new: str
    stamp: tuple[int, int]
    at: float


def finished_stamp(finished: Sequence[tuple[GameRow, float]]) -> tuple[int, int]:
    return len(finished), sum(row.version for row, _at in finished)


async def member_lines(svc: Services, ib: Inbound, old: str, new: str) -> dict[str, Any]:
    lines = {}
    for name in (old, new):
        line = await repository(svc).kegeln_member(ib.chat.platform, ib.chat.chat_id, name)
        if line is None:
            raise GameError("kegeln.unknown_member", name=name[:40])
        lines[name] = line
    return lines


def merge_check(actor: Actor, old: str, new: str, lines: dict[str, Any],
                stamp: tuple[int, int] | None) -> MergeCheck:
    """What a merge needs, checked on the games as its own transaction sees them (and once before asking):
    the records are those the question showed (`stamp`), the two never played in one game (two people:
    said first, as no one may merge them), the actor may merge OLD (`may_merge`), and neither name
    plays in a running game."""
    def check(running: Sequence[GameRow], finished: Sequence[tuple[GameRow, float]]) -> None:
        if stamp is not None and finished_stamp(finished) != stamp:
            raise GameError("kegeln.merge.stale")
        shared = [row.id for row, _at in finished
                  if {old.casefold(), new.casefold()} <= {m.name.casefold() for m in member_states(row)}]
        if shared:
            raise GameError("kegeln.merge.same_game", old=lines[old].name[:40], new=lines[new].name[:40],
                            games=", ".join(f"#{g}" for g in shared[:5]))
        may_merge(actor, old.casefold(), lines[old].name[:40], finished)
        for row in running:
            playing = {m.name.casefold() for m in serial.load(kegeln.GAME.state_type, row.state).members}
            for name in (old, new):
                if name.casefold() in playing:
                    raise GameError("kegeln.merge.running", name=lines[name].name[:40], game=row.id)
    return check


def member_states(row: GameRow) -> list[Any]:
    """The members of a completed game (none for a cancelled one: it has no club records)."""
    state = serial.load(kegeln.GAME.state_type, row.state)
    return list(state.members) if state.outcome == "done" else []


async def cmd_kegelmerge(svc: Services, turn: Turn, args: tuple[str, ...]) -> None:
    """/kegelmerge OLD NEW: the scorer typed one person under two names. Checked, then asked back with
    ✅/❌ that only the asker can answer (`Kegeln.chat_action` merges, if the records are still those the
    question showed): a merge cannot be undone."""
    ib = turn.inbound
    old, new = merge_names(args)
    lines = await member_lines(svc, ib, old, new)
    finished = await repository(svc).kegeln_finished(ib.chat.platform, ib.chat.chat_id)
    running = [r for r in await svc.store.chat_games(ib.chat.platform, ib.chat.chat_id) if r.kind == "kegeln"]
    merge_check(ib.actor, old, new, lines, None)(running, finished)  # refused now rather than after ✅
    asks = PLUGIN.asks_of(svc)
    now = svc.clock()
    for token in [t for t, a in asks.items() if now - a.at > MERGE_TTL]:
        del asks[token]
    token = secrets.token_hex(5)
    asks[token] = MergeAsk(ib.chat.platform, ib.chat.chat_id, ib.actor.user_id, ib.actor.name,
                           ib.actor.is_admin, old, new,
                           finished_stamp(finished), now)
    action = f"kegeln:{ib.chat.chat_id}:{token}-"
    turn.messages.append(Message(ib.chat, Text("kegeln.merge.confirm", {
        "old": lines[old].name, "new": lines[new].name, "n": lines[old].games,
        "total": lines[old].games + lines[new].games, "asker": ib.actor.name}),
        ((Button(Text("kegeln.merge.yes"), action + "yes"), Button(Text("kegeln.merge.no"), action + "no")),)))


async def answer_merge(svc: Services, turn: Turn, chat: Chat, arg: str) -> None:
    """✅ or ❌ on a /kegelmerge question (`kegeln:<chat>:<token>-yes|no`; bot/routing.py has checked that it
    comes from that chat): only the asker answers; ✅ merges in one transaction that checks everything
    again (`merge_check`) and the stored records' stamp: a question is stale once a game has ended, a merge
    has been made, or MERGE_TTL has passed."""
    ib = turn.inbound
    token, _, answer = arg.rpartition("-")
    asks = PLUGIN.asks_of(svc)
    ask = asks.get(token)
    if (ask is None or answer not in ("yes", "no") or (ask.platform, ask.chat_id) != (chat.platform, chat.chat_id)
            or svc.clock() - ask.at > MERGE_TTL):
        raise GameError("kegeln.merge.stale")
    if ib.actor.user_id != ask.asker:
        raise GameError("kegeln.merge.not_yours", name=ask.asker_name)
    del asks[token]
    if answer == "no":
        turn.messages.append(Message(chat, Text("kegeln.merge.cancelled", {"old": ask.old, "new": ask.new})))
        return
    try:
        lines = await member_lines(svc, ib, ask.old, ask.new)
    except GameError:
        raise GameError("kegeln.merge.stale") from None  # merged away meanwhile
    old, new, kept = ask.old, ask.new, lines[ask.new].name
    shared = await repository(svc).kegeln_merge(
        chat.platform, chat.chat_id, old.casefold(), new.casefold(), kept, restate=renaming(old.casefold(), kept),
        rerate=lambda finished: ratings_rebuild.replay_local(svc, finished),
        check=merge_check(dataclasses.replace(ib.actor, is_admin=ib.actor.is_admin or ask.admin), old, new, lines,
                          ask.stamp))
    if shared:  # (merge_check has refused these already)
        raise GameError("kegeln.merge.same_game", old=lines[old].name[:40], new=kept[:40],
                        games=", ".join(f"#{g}" for g in shared[:5]))
    turn.messages.append(Message(chat, Text("kegeln.merge.done", {
        "old": lines[old].name, "new": kept, "n": lines[old].games, "total": lines[old].games + lines[new].games})))


def merge_names(args: tuple[str, ...]) -> tuple[str, str]:
    """OLD and NEW: two words, or names with spaces split by `/`, `→` or `->` (`Klaus M. / Klaus`)."""
    text = " ".join(args)
    for sep in ("->", "→", "/"):
        if sep in text:
            parts = [names.clean(p) for p in text.split(sep)]
            break
    else:
        parts = [names.clean(p) for p in text.split()]
    if len(parts) != 2 or not all(parts):
        raise GameError("kegeln.merge.usage")
    if parts[0].casefold() == parts[1].casefold():
        raise GameError("kegeln.merge.same", name=parts[0][:40])
    return parts[0], parts[1]


def renaming(old: str, name: str) -> Callable[[dict[str, Any]], dict[str, Any] | None]:
    """A finished game's stored state with member `old` (casefolded) written `name`, or None where the game
    has no such member: the ratings are then replayed from the states, as `python -m bot ratings rebuild` does."""
    def restate(raw: dict[str, Any]) -> dict[str, Any] | None:
        state = kegeln.renamed(serial.load(kegeln.GAME.state_type, raw), old, name)
        return None if state is None else serial.dump(state)
    return restate


PLACES = tuple(str(n) for n in range(kegeln.MIN_DIGITS, kegeln.MAX_DIGITS + 1))  # Hausnummern digits


class KegelnPlugin(GamePlugin[kegeln.State]):
    game = kegeln.GAME
    title = "game.kegeln"
    # the scorer's work and the club's tables: a group's anonymous admin may do them (its admins may score)
    commands = (
        Command("kegeln", ("mode", "places", "names"), cmd_kegeln, personal=False, choices=(("mode", ("high", "low")),
                                                                              ("places", PLACES))),
        Command("wurf", ("pins", "position"), cmd_wurf, personal=False),
        Command("throw", ("pins", "position"), cmd_throw, personal=False),
        Command("undo", (), cmd_undo, personal=False),
        Command("scorer", ("user",), cmd_scorer, personal=False),
        Command("winner", ("name",), cmd_winner, personal=False,
                aliases=(("de", "sieger"), ("sv", "vinnare"), ("ru", "победитель"), ("ru", "pobeditel"),
                         ("bg", "победител"), ("bg", "pobeditel"))),
        Command("kegelstats", ("name",), cmd_kegelstats, personal=False),
        Command("abend", (), cmd_abend, personal=False),
        Command("kegelexport", ("season",), cmd_kegelexport, personal=False),
        Command("saison", ("season",), cmd_saison, personal=False),
        Command("jahresrueckblick", ("season",), cmd_jahresrueckblick, personal=False,
                aliases=(("en", "yearreview"), ("de", "jahresrueckblick"), ("sv", "arsrevy"),
                         ("ru", "итоги_года"), ("ru", "itogi_goda"),
                         ("bg", "годишен_преглед"), ("bg", "godishen_pregled"))),
        Command("kegelmerge", ("old", "new"), cmd_kegelmerge, personal=False),
    )

    def __init__(self) -> None:
        # the /kegelmerge questions waiting for ✅ per App (kept in the process that asked: after a
        # restart, or pressed in another process, the button is stale and the asker asks again)
        self._asks: weakref.WeakKeyDictionary[Services, dict[str, MergeAsk]] = weakref.WeakKeyDictionary()

    def asks_of(self, svc: Services) -> dict[str, MergeAsk]:
        return self._asks.setdefault(svc, {})

    async def chat_action(self, svc: Services, turn: Turn, chat: Chat, arg: str) -> None:
        await answer_merge(svc, turn, chat, arg)

    def writes(self, svc: Services, row: GameRow, old: Any, new: Any, over: bool) -> Any:
        return kegeln_job(svc, row, old, new, over)

    async def rated(self, svc: Services, row: GameRow, state: Any, results: list[Any]) -> Match | None:
        return kegeln_match(kegeln.member_records(state), bool(state.teams))


def kegeln_match(records: list[kegeln.MemberRecord], teams: bool) -> Match | None:
    """A completed game as a ranking by place: members are the players (by casefolded name, as in the
    club statistics), a team duel ranks the teams as teams."""
    entries: dict[str, list[str]] = {}
    places: dict[str, float] = {}
    for i, m in enumerate(records):
        entry = f"t{m.team}" if teams and m.team is not None else f"m{i}"
        entries.setdefault(entry, []).append(m.name.casefold())
        places[entry] = float(m.place)
    if len(entries) < 2:
        return None
    return Match(tuple(tuple(v) for v in entries.values()), tuple(places[e] for e in entries),
                 {m.name.casefold(): m.name for m in records})


PLUGIN = KegelnPlugin()
