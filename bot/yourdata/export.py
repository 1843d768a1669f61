"""/mydata: everything the bot keeps about the asking player, as one JSON file sent to them privately.

The rows come from the declarations (bot/yourdata/declare.py): each declared table's rows of the user,
and the games that name them — those they play (or played) in, and those of chats they acted in —
with the final state and the event log once a game is over (a running game's state may hold another
player's secret: it is listed without it)."""

from __future__ import annotations

import json
from collections.abc import Sequence
from datetime import UTC, datetime
from typing import TYPE_CHECKING, Any

from bot.games.plugin import personal
from bot.handling import Handling
from bot.moves import loaded
from bot.storage.base import Store
from bot.storage.sql import Query
from bot.storage.sqlite import SqliteStore
from bot.yourdata.declare import Personal, entries
from bot.yourdata.erase import like
from core.messages import Chat, Message, Text

if TYPE_CHECKING:  # a type-only edge: the handlers get the services
    from bot.services import Services

GAMES = Query("SELECT id, chat_id, private, kind, over, created, updated FROM games"
              " WHERE platform = :platform AND state LIKE :pattern ESCAPE '\\' ORDER BY id")
EVENTS = Query("SELECT type, data, at FROM events WHERE game_id = :game_id ORDER BY id")
MEMBER_OF = Query("SELECT chat_id FROM chat_members WHERE platform = :platform AND user_id = :user_id")


SQLITE_COLUMNS = Query("SELECT name FROM pragma_table_info(:table) ORDER BY cid")
PG_COLUMNS = Query("SELECT column_name FROM information_schema.columns WHERE table_schema = current_schema()"
                   " AND table_name = :table ORDER BY ordinal_position")


async def columns(store: Store, table: str) -> list[str]:
    """A table's column names, from the database itself (the store's rows are plain tuples)."""
    query = SQLITE_COLUMNS if isinstance(store, SqliteStore) else PG_COLUMNS
    return [str(r[0]) for r in await store.fetch(query, table=table)]


async def collect(svc: Services, platform: str, uid: str) -> dict[str, Any]:
    """The user's data: every declared table's rows of theirs, and their games."""
    tables: dict[str, list[dict[str, Any]]] = {}
    for p in entries(personal()):
        if p.user and p.export:
            names = await columns(svc.store, p.table)
            rows = await svc.store.fetch(_select(p, names), platform=platform, uid=p.prefix + uid)
            tables.setdefault(p.table, []).extend(dict(zip(names, r, strict=True)) for r in rows)
    seen_in = {r[0] for r in await svc.store.fetch(MEMBER_OF, platform=platform, user_id=uid)}
    games = []
    for game_id, chat_id, private, kind, over, created, updated in await svc.store.fetch(
            GAMES, platform=platform, pattern=like(uid)):
        row = await svc.store.get_game(game_id)
        if row is None or kind not in svc.plugins:
            continue
        game, state = loaded(row)
        if uid not in {p.user_id for p in game.players(state)} and chat_id not in seen_in and not private:
            continue  # named in a chat they never acted in: nothing of that chat is theirs to see
        entry: dict[str, Any] = {"id": game_id, "chat_id": chat_id, "kind": kind, "over": bool(over),
                                 "created": _when(created), "updated": _when(updated)}
        if over:
            entry["state"] = row.state
            entry["events"] = [{"type": t, "data": json.loads(d), "at": _when(at)}
                               for t, d, at in await svc.store.fetch(EVENTS, game_id=game_id)]
        games.append(entry)
    return {"platform": platform, "user_id": uid, "exported": _when(svc.clock()), "tables": tables, "games": games}


def _select(p: Personal, names: Sequence[str]) -> Query:
    platform = f"{p.platform} = :platform AND " if p.platform else ""
    where = f" AND ({p.where})" if p.where else ""
    return Query(f"SELECT {', '.join(names)} FROM {p.table} WHERE {platform}{p.user} = :uid{where}")


def _when(at: float) -> str:
    return datetime.fromtimestamp(at, UTC).isoformat(timespec="seconds")


async def cmd_mydata(svc: Services, turn: Handling, args: tuple[str, ...]) -> None:
    """Sent privately, also when asked in a group; where the platform cannot write to the player
    privately, the group is told how to open the private chat."""
    ib = turn.inbound
    data = await collect(svc, ib.actor.platform, ib.actor.user_id)
    counts = {t: len(rows) for t, rows in data["tables"].items() if rows}
    summary = Text("mydata.sent", {"name": ib.actor.name, "games": len(data["games"]),
                                   "rows": sum(counts.values())})
    file = ("mydata.json", json.dumps(data, ensure_ascii=False, indent=1, default=str).encode("utf-8"))
    if ib.chat.private:
        turn.messages.append(Message(ib.chat, summary, file=file))
        return
    turn.messages.append(Message(ib.actor, summary, file=file, about=ib.chat,
                                 fallback=Message(Chat(ib.chat.platform, ib.chat.chat_id, False),
                                                  Text("mydata.no_private", {"name": ib.actor.name}))))
