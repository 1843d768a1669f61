"""`/stats logik`: white wins, black wins and draws here and everywhere, and a player's record per side
(read by bot/games/logik/storage.py)."""

from __future__ import annotations

from bot.app.turn import Turn
from bot.games.logik.storage import logik_record, logik_sides
from bot.games.plugin import Services
from core.messages import Message, Text


async def logik_stats(svc: Services, turn: Turn, args: tuple[str, ...]) -> None:
    """/stats logik [player]: white wins, black wins and draws here and everywhere, and a record."""
    ib = turn.inbound
    uid, name = ib.actor.user_id, ib.actor.name
    if args:
        found = await svc.players.find(ib, " ".join(args), known_only=True)
        uid, name = found.user_id, found.name

    def sides(white: int, black: int, draws: int, abandoned: int) -> Text:
        n = white + black + draws  # decided games; the timed-out ones are counted apart
        if n == 0:
            return Text("logik.stats_timed_out", {"n": abandoned}) if abandoned else Text("logik.stats_none")
        return Text("logik.stats_sides", {"n": n, "white": white, "black": black, "draws": draws,
                                          "wp": 100 * white / n, "bp": 100 * black / n,
                                          "dp": 100 * draws / n, "abandoned": abandoned})

    here = await logik_sides(svc.store, ib.chat.platform, ib.chat.chat_id)
    everywhere = await logik_sides(svc.store, ib.chat.platform, None)
    record = await logik_record(svc.store, ib.chat.platform, None, uid)
    ww, wd, wl, wt = record.get("white", (0, 0, 0, 0))
    bw, bd, bl, bt = record.get("black", (0, 0, 0, 0))
    mine = Text("logik.stats_record", {"ww": ww, "wd": wd, "wl": wl, "bw": bw, "bd": bd, "bl": bl,
                                       "abandoned": wt + bt})
    turn.messages.append(Message(ib.chat, Text("logik.stats", {
        "here": sides(*here), "everywhere": sides(*everywhere), "name": name, "record": mine})))
