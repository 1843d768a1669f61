"""Kegeln (Hausnummern), bot-side: its commands, statistics, evening report, export, and the
writes of its moves (the scorer's seat, the club's records) in the move's transaction."""

from __future__ import annotations

import asyncio
from datetime import UTC, date, datetime
from typing import Any

from bot.services import Command, GamePlugin, Services, Turn
from bot.storage.base import GameRow, KegelnRepository
from core import names
from core.errors import GameError
from core.games import kegeln
from core.games.base import Player
from core.games.kegeln import chart as kegeln_chart
from core.games.kegeln import report as kegeln_report
from core.messages import Inbound, Message, Text
from core.ratings import Match


def repository(svc: Services) -> KegelnRepository:
    return svc.store


async def cmd_kegeln(svc: Services, turn: Turn, args: tuple[str, ...]) -> None:
    """/kegeln high|low [2–6] NAME… (or `teams A B / C D`): whoever starts is the scorer."""
    ib = turn.inbound
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
        lines, evenings = kegeln_chart.evening_series(mine, [line.name])  # the average per club evening
        image = await asyncio.to_thread(kegeln_chart.line_chart, lines, await day_labels(svc, evenings, ib))
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
    lines, evenings = kegeln_chart.evening_series(series, [r.name for r in club])
    chart = await asyncio.to_thread(kegeln_chart.club_chart, lines, await day_labels(svc, evenings, ib),
                                    [(r.wins_high, r.wins_low) for r in club])  # PNG drawn off the event loop
    turn.messages.append(Message(ib.chat, Text("kegeln.club", {"table": table}), image=chart))


async def day_labels(svc: Services, days: list[date], ib: Inbound) -> list[str]:
    """A chart's evenings as the chat reads dates (the picture is drawn once, for the chat)."""
    lang = await svc.lang(ib)
    return [svc.catalogs.day_month(d, lang) for d in days]


async def cmd_abend(svc: Services, turn: Turn, args: tuple[str, ...]) -> None:
    """/abend: tonight's games of this chat (finished within the last 12 hours of the App clock):
    the winner of each, and who threw the most 9s, the most Pumpen and the best Kegel-Schnitt."""
    ib = turn.inbound
    since = svc.clock() - kegeln_report.EVENING
    games = await repository(svc).kegeln_games_since(ib.chat.platform, ib.chat.chat_id, since)
    if not games:
        turn.messages.append(Message(ib.chat, Text("kegeln.abend.empty")))
        return
    members = await repository(svc).kegeln_members_since(ib.chat.platform, ib.chat.chat_id, since)
    lines, nines, pumpen, schnitt = kegeln_report.evening(games, members)
    lang = await svc.lang(ib)
    rendered = "\n".join(svc.catalogs.render(line, lang) for line in lines)
    # the evening's day: where the 12-hour window starts (an evening past midnight keeps its date);
    # shown in the reader's medium date format by the renderer
    tonight = datetime.fromtimestamp(since, UTC).date()
    turn.messages.append(Message(ib.chat, Text("kegeln.abend.text", {
        "head": Text("kegeln.abend.head", {"n": len(games), "date": tonight}),
        "games": rendered,
        **kegeln_report.leader_texts(nines, pumpen, schnitt)})))


async def cmd_kegelexport(svc: Services, turn: Turn, args: tuple[str, ...]) -> None:
    """/kegelexport: the club's throw log as one CSV file; the member table in the message text."""
    ib = turn.inbound
    log_rows = await repository(svc).kegeln_throw_log(ib.chat.platform, ib.chat.chat_id)
    if not log_rows:
        turn.messages.append(Message(ib.chat, Text("kegeln.stats_empty")))
        return
    club = await repository(svc).kegeln_club(ib.chat.platform, ib.chat.chat_id, limit=svc.list_lines)
    table = kegeln_report.club_table(club)
    hidden = len({r.name.casefold() for r in log_rows}) - len(club)  # the file holds every member
    if hidden > 0:
        table.append(Text("board.more", {"n": hidden}))
    data = kegeln_report.throw_log_csv(log_rows)
    turn.messages.append(Message(ib.chat, Text("kegeln.export", {
        "n": len({r.game_id for r in log_rows}), "throws": len(log_rows), "table": table}),
        file=(kegeln_report.file_name(ib.chat.chat_id), data)))


PLACES = tuple(str(n) for n in range(kegeln.MIN_DIGITS, kegeln.MAX_DIGITS + 1))  # Hausnummern digits


class Kegeln(GamePlugin):
    kind = "kegeln"
    title = "game.kegeln"
    commands = (
        Command("kegeln", ("mode", "places", "names"), cmd_kegeln, choices=(("mode", ("high", "low")),
                                                                              ("places", PLACES))),
        Command("wurf", ("pins", "position"), cmd_wurf),
        Command("throw", ("pins", "position"), cmd_throw),
        Command("undo", (), cmd_undo),
        Command("scorer", ("user",), cmd_scorer),
        Command("kegelstats", ("name",), cmd_kegelstats),
        Command("abend", (), cmd_abend),
        Command("kegelexport", (), cmd_kegelexport),
    )

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


PLUGIN = Kegeln()
