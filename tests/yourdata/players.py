"""A table of players with ids and names as a platform gives them (a private chat's id is the user's id,
as on Telegram), the games they play through the real App, and a scan of every column of the database."""

from __future__ import annotations

import itertools
import json
from dataclasses import dataclass

from bot.app.app import App, is_postgres
from bot.storage.sql import Query
from core import ratings
from core.messages import Actor, Chat, Response
from tests.app.harness import PLATFORM, Table, texts
from tests.club.harness import appoint

# who → (user id, display name). Zeb's id, name and username are distinctive, so that a scan finds only them.
PEOPLE = {"zeb": ("u9731zeb", "Zebediah Quux"), "alice": ("alice", "Alice"), "carol": ("carol", "Carol")}
ZEB_ID, ZEB_NAME = PEOPLE["zeb"]
ZEB_NEEDLES = (ZEB_ID, ZEB_NAME, "Zebediah", "Quux")


@dataclass
class People(Table):
    def actor(self, name: str) -> Actor:
        uid, shown = PEOPLE.get(name, (name, name.capitalize()))
        return Actor(PLATFORM, uid, shown, self.locale)

    async def dm(self, who: str, text: str) -> Response:
        """Privately: the private chat's id is the user's id (Telegram, the console)."""
        return await self.say(who, text, Chat(PLATFORM, self.actor(who).user_id, private=True))


async def state(t: Table, game_id: int) -> dict[str, object]:
    return await t.state(game_id)


async def rated_duel(t: People, a: str, b: str) -> int:
    """`a` challenges `b`; both play `ratings.MIN_MOVES` guesses, the starter cracks first, the other misses."""
    secrets = {a: "1234", b: "5678"}
    r = await t.say(a, f"/duel <@{t.actor(b).user_id}>")
    accept = t.button(r, ":accept")
    game_id = int(accept.split(":")[1])
    await t.press(b, accept)
    await t.dm(a, secrets[a])
    await t.dm(b, secrets[b])
    st = await t.state(game_id)
    first = a if st["starter"] == t.actor(a).user_id else b
    second = b if first == a else a
    for miss in ("9012", "9013", "9014")[: ratings.MIN_MOVES - 1]:
        await t.say(first, miss)
        await t.say(second, miss)
    await t.say(first, secrets[second])
    await t.say(second, "9087")
    assert (await t.state(game_id))["phase"] == "finished"
    return game_id


async def logik_won(t: People, a: str, b: str) -> int:
    """A Logik duel that `a` wins in round 1."""
    r = await t.say(a, f"/logik <@{t.actor(b).user_id}>")
    accept = t.button(r, ":accept")
    game_id = int(accept.split(":")[1])
    await t.press(b, accept)
    await t.dm(a, "12345")
    await t.dm(b, "54321")
    await t.say(a, "/guess 54321")
    r = await t.say(b, "/guess 11111")
    assert (await t.state(game_id))["phase"] == "finished", texts(r)
    return game_id


async def practice_won(t: People, who: str) -> int:
    await t.say(who, "/practice")
    row = await t.app.store.last_game(PLATFORM, t.group.chat_id, t.actor(who).user_id)
    assert row is not None
    await t.say(who, str(row.state["secret"]))
    assert (await t.state(row.id))["phase"] == "finished"
    return row.id


async def daily_solved(t: People, who: str) -> int:
    await t.say(who, "/daily")
    found = await t.app.store.fetch(Query("SELECT secret FROM daily_puzzles WHERE chat_id = :chat_id"),
                                    chat_id=t.group.chat_id)
    secret = str(found[0][0])
    wrong = next("".join(p) for p in itertools.permutations("0123456789", 4) if "".join(p) != secret)
    await t.dm(who, wrong)
    r = await t.dm(who, secret)
    assert "Solved in 2 attempts" in texts(r), texts(r)
    rows = await t.app.store.fetch(Query("SELECT game_id FROM daily_plays WHERE user_id = :u"),
                                   u=t.actor(who).user_id)
    return int(rows[0][0])


async def kegeln_scored(t: People, scorer: str) -> None:
    """A Hausnummern club game of two club members (names, not accounts) that `scorer`, appointed, keeps."""
    await appoint(t, scorer)
    r = await t.say(scorer, "/kegeln high 2 Birgit Klaus")
    assert "Hausnummern #" in texts(r), texts(r)
    for pins, pos in ((7, 10), (5, 10), (3, 1), (2, 1)):
        r = await t.say(scorer, f"/wurf {pins} {pos}")
    assert "Winner: Birgit" in texts(r), texts(r)


async def tables_and_columns(app: App, db: str) -> list[tuple[str, str]]:
    """Every column of every table of the database, read from the database itself."""
    if is_postgres(db):
        rows = await app.store.fetch(Query(
            "SELECT table_name, column_name FROM information_schema.columns"
            " WHERE table_schema = current_schema() ORDER BY table_name, ordinal_position"))
        return [(str(t), str(c)) for t, c in rows]
    found = []
    for (table,) in await app.store.fetch(Query("SELECT name FROM sqlite_master WHERE type = 'table'")):
        for col in await app.store.fetch(Query(f"SELECT name FROM pragma_table_info('{table}')")):
            found.append((str(table), str(col[0])))
    return found


async def traces(app: App, db: str, needles: tuple[str, ...]) -> list[tuple[str, str, str]]:
    """(table, column, needle) for every column of the database in which a needle occurs (case-insensitive,
    anywhere in the value as text)."""
    forms = sorted({f for n in needles for f in (n, json.dumps(n)[1:-1])})  # JSON text escapes non-ASCII
    hits = []
    for table, col in await tables_and_columns(app, db):
        for needle in forms:
            n = await app.store.fetch(Query(f"SELECT COUNT(*) FROM {table} WHERE LOWER(CAST({col} AS TEXT))"
                                            " LIKE :pattern"), pattern=f"%{needle.lower()}%")
            if n[0][0]:
                hits.append((table, col, needle))
    return hits
