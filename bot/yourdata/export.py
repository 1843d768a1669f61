"""/mydata: everything the bot keeps about the asking player, as one JSON file sent to them privately.

The rows come from the declarations (bot/yourdata/declare.py): each declared table's rows of the user,
and the games that name them — those they play (or played) in, and those of chats they acted in —
with the final state and the event log once a game is over (a running game's state may hold another
player's secret: it is listed without it).

The file is for a person and a program alike (`readable`): each section with a line in the reader's
language on what its rows and fields are (`mydata.about.*`), every time in ISO 8601 in the reader's zone
(their private chat's /timezone, else the chat they asked in, else UTC), a skill rating as /rating shows it
beside its raw mu and sigma, a practice grade and an achievement in the reader's words beside the stored
code; the field names stay as they are, so that the file stays plain JSON a program can read."""

from __future__ import annotations

import json
from collections.abc import Sequence
from datetime import UTC, datetime
from typing import TYPE_CHECKING, Any
from zoneinfo import ZoneInfo

from bot.app.runner import loaded
from bot.app.turn import Turn
from bot.games.plugin import personal
from bot.schedule.zones import zone
from bot.storage.base import Store
from bot.storage.sql import Query
from bot.storage.sqlite import SqliteStore
from bot.yourdata.declare import Personal, entries
from bot.yourdata.erase import like
from core.messages import Chat, Inbound, Message, Text

if TYPE_CHECKING:  # a type-only edge: the handlers get the services
    from bot.games.plugin import Services

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
                                 "created": created, "updated": updated}
        if over:
            entry["state"] = row.state
            entry["events"] = [{"type": t, "data": json.loads(d), "at": at}
                               for t, d, at in await svc.store.fetch(EVENTS, game_id=game_id)]
        games.append(entry)
    return {"platform": platform, "user_id": uid, "exported": svc.clock(), "tables": tables, "games": games}


FORMAT = "mydata/2"  # the file's layout (2: sections explained, times in the reader's zone, readable ratings)
TIMES = frozenset({"at", "created", "updated", "started", "finished", "set_at", "starts", "cancelled", "exported"})
RATED = frozenset({"ratings", "rating_history"})
ABOUT = {  # each section's explanation; a table declared later without one gets `mydata.about.other`
    "users": "mydata.about.users", "chat_members": "mydata.about.chat_members", "chats": "mydata.about.chats",
    "seats": "mydata.about.seats", "results": "mydata.about.results", "ratings": "mydata.about.ratings",
    "rating_history": "mydata.about.rating_history", "achievements": "mydata.about.achievements",
    "ping_optins": "mydata.about.ping_optins", "daily_plays": "mydata.about.daily_plays",
    "kegel_evening_dates": "mydata.about.kegel_evening_dates",
    "kegel_evening_answers": "mydata.about.kegel_evening_answers",
    "kegel_cash_settings": "mydata.about.kegel_cash_settings", "kegel_cash_book": "mydata.about.kegel_cash_book",
    "games": "mydata.about.games",
}


def readable(svc: Services, data: dict[str, Any], lang: str, tz: str) -> dict[str, Any]:
    """The collected data as the file shows it (see the module's docstring); `data` is `collect`'s."""
    where = zone(tz)

    def say(key: str, **params: Any) -> str:
        return svc.catalogs.render(Text(key, params), lang)

    def row_of(table: str, row: dict[str, Any]) -> dict[str, Any]:
        out = {k: timed(v, where, k) for k, v in row.items()}
        if table in RATED and isinstance(row.get("mu"), (int, float)) and isinstance(row.get("sigma"), (int, float)):
            out = {"rating": round(float(row["mu"]) - 3 * float(row["sigma"]), 1), **out}  # as /rating shows it
        if table == "results" and row.get("rating"):
            code = str(row["rating"])
            out["rating"] = say(f"rating.{code}") if svc.catalogs.has(f"rating.{code}", lang) else code
            out["rating_code"] = code
        if table == "achievements" and row.get("code"):
            key = f"achievement.{row['code']}"
            out = {"title": say(key) if svc.catalogs.has(key, lang) else str(row["code"]), **out}
        if "kind" in row and svc.catalogs.has(f"game.{row['kind']}", lang):
            out["game"] = say(f"game.{row['kind']}")
        return out

    def about(table: str) -> str:
        key = ABOUT.get(table)
        return say(key) if key else say("mydata.about.other", table=table)

    tables = {t: {"about": about(t), "rows": [row_of(t, r) for r in rows]} for t, rows in data["tables"].items()}
    games = [{**row_of("games", {k: v for k, v in g.items() if k != "events"}),
              **({"events": [row_of("events", e) for e in g["events"]]} if "events" in g else {})}
             for g in data["games"]]
    exported = when(data["exported"], where)
    return {"format": FORMAT, "about": say("mydata.file", platform=data["platform"], exported=exported, tz=tz),
            "language": lang, "time_zone": tz, "exported": exported, "platform": data["platform"],
            "user_id": data["user_id"], "tables": tables, "games": {"about": about("games"), "rows": games}}


def timed(value: Any, where: ZoneInfo, key: str = "") -> Any:
    """`value` with every time field in it, at any depth (a game's state, an event's data), as `when`."""
    if isinstance(value, dict):
        return {k: timed(v, where, k) for k, v in value.items()}
    if isinstance(value, list):
        return [timed(v, where) for v in value]
    return when(value, where) if key in TIMES else value


def when(at: Any, where: ZoneInfo) -> Any:
    """A stored time (Unix seconds) as ISO 8601 with its offset in the reader's zone; anything else as it is."""
    if isinstance(at, bool) or not isinstance(at, (int, float)):
        return at
    if not at:
        return None  # a time not set yet (a game's 0.0)
    return datetime.fromtimestamp(at, UTC).astimezone(where).isoformat(timespec="seconds")


async def reader_zone(svc: Services, ib: Inbound) -> str:
    """The reader's zone: their private chat's /timezone (its id is theirs on Telegram and the console),
    else the one of the chat they asked in, else UTC."""
    for chat_id in (ib.actor.user_id, ib.chat.group):
        tz = await svc.store.chat_tz(ib.chat.platform, chat_id)
        if tz:
            return tz
    return "UTC"


def _select(p: Personal, names: Sequence[str]) -> Query:
    platform = f"{p.platform} = :platform AND " if p.platform else ""
    where = f" AND ({p.where})" if p.where else ""
    return Query(f"SELECT {', '.join(names)} FROM {p.table} WHERE {platform}{p.user} = :uid{where}")


async def cmd_mydata(svc: Services, turn: Turn, args: tuple[str, ...]) -> None:
    """Sent privately, also when asked in a group; where the platform cannot write to the player
    privately, the group is told how to open the private chat."""
    ib = turn.inbound
    data = await collect(svc, ib.actor.platform, ib.actor.user_id)
    counts = {t: len(rows) for t, rows in data["tables"].items() if rows}
    shown = readable(svc, data, await svc.lang(ib), await reader_zone(svc, ib))
    summary = Text("mydata.sent", {"name": ib.actor.name, "games": len(data["games"]),
                                   "rows": sum(counts.values())})
    file = ("mydata.json", json.dumps(shown, ensure_ascii=False, indent=1, default=str).encode("utf-8"))
    if ib.chat.private:
        turn.messages.append(Message(ib.chat, summary, file=file))
        return
    turn.messages.append(Message(ib.actor, summary, file=file, about=ib.chat,
                                 fallback=Message(Chat(ib.chat.platform, ib.chat.chat_id, False),
                                                  Text("mydata.no_private", {"name": ib.actor.name}))))
