"""/forgetme's erasure: one write job that deletes or anonymises a chat user's rows everywhere they
are declared (bot/yourdata/declare.py), and the pure rewrite of the JSON that names them."""

from __future__ import annotations

import json
import logging
import re
from collections.abc import Sequence
from typing import Any

from bot.storage import fair_play
from bot.storage.base import Store
from bot.storage.sql import Query, Tx, TxJob
from bot.yourdata.declare import FORMER, Personal

log = logging.getLogger("bot.yourdata")

PRIVATE_CHATS = Query("SELECT DISTINCT g.chat_id FROM games g JOIN seats s ON s.game_id = g.id"
                      " WHERE g.platform = :platform AND g.private = 1 AND s.platform = :platform AND s.user_id = :uid")


def scrub(value: Any, uid: str, token: str) -> Any:
    """`value` (parsed JSON) with the user's id replaced by `token` wherever it is a key, a value or a
    mention (`<@id>`), and the name beside it (`{"user_id": id, "name": …}`) by the neutral `FORMER`."""
    if isinstance(value, dict):
        theirs = uid in value.values()
        out: dict[str, Any] = {}
        for k, v in value.items():
            key = token if k == uid else k
            if theirs and k == "name" and isinstance(v, str):
                out[key] = FORMER
            else:
                out[key] = scrub(v, uid, token)
        return out
    if isinstance(value, list):
        return [scrub(v, uid, token) for v in value]
    if isinstance(value, str):
        if value == uid:
            return token
        return value.replace(f"<@{uid}>", f"<@{token}>")
    return value


def like(uid: str) -> str:
    """A LIKE pattern (escape character `\\`) for JSON text that holds the id (as json.dumps writes it)."""
    inner = json.dumps(uid)[1:-1]
    return "%" + inner.replace("\\", "\\\\").replace("%", "\\%").replace("_", "\\_") + "%"


def _platform(p: Personal) -> str:
    return f"{p.platform} = :platform AND " if p.platform else ""


def _where(p: Personal) -> str:
    return f" AND ({p.where})" if p.where else ""


def forget_job(platform: str, uid: str, token: str, declared: Sequence[Personal], now: float | None = None) -> TxJob:
    """Delete the user's rows where they are declared so, else give them the token and the neutral name;
    rewrite every JSON text that names them; the user's private chats become the token's. The pair cap's
    keyed hashes stay for their 24 hours (bot/storage/fair_play.py); older ones go now (`now`)."""

    async def job(tx: Tx) -> None:
        if now is not None:
            await fair_play.forget_old(tx, now)
        base = {"platform": platform, "former": FORMER}
        # their private chats: the one whose id is theirs (Telegram), and those of their private games
        # (the console's `@name`, a Discord DM channel), read before their seats are anonymised
        seated = await tx.fetch(PRIVATE_CHATS, platform=platform, uid=uid)
        privates = [uid, *sorted({str(r[0]) for r in seated} - {uid})]
        for p in declared:
            if p.user and p.forget == "delete":
                await _run(tx, f"DELETE FROM {p.table} WHERE {_platform(p)}{p.user} = :uid{_where(p)}",
                           base | {"uid": p.prefix + uid})
        for p in declared:
            if p.user and p.forget == "anonymise":
                named = f", {p.name} = :former" if p.name else ""
                await _run(tx, f"UPDATE {p.table} SET {p.user} = :token{named}"
                               f" WHERE {_platform(p)}{p.user} = :uid{_where(p)}",
                           base | {"uid": p.prefix + uid, "token": p.prefix + token})
            for col in p.chat:
                for i, chat in enumerate(privates):
                    await _run(tx, f"UPDATE {p.table} SET {col} = :token WHERE {_platform(p)}{col} = :chat",
                               base | {"chat": chat, "token": token if i == 0 else f"{token}-{i}"})
            for col in p.json:
                rows = await _rows(tx, f"SELECT {p.key}, {col} FROM {p.table}"
                                       f" WHERE {_platform(p)}{col} LIKE :pattern ESCAPE '\\'{_where(p)}",
                                   base | {"pattern": like(uid)})
                counted = f", {p.version} = {p.version} + 1" if p.version else ""
                for key, text in rows:
                    new = json.dumps(scrub(json.loads(text), uid, token))
                    await _run(tx, f"UPDATE {p.table} SET {col} = :text{counted} WHERE {p.key} = :key",
                               {"text": new, "key": key})

    return job


async def leave_nothing(store: Store, declared: Sequence[Personal]) -> None:
    """After the erase, no copy of the old rows on disk: SQLite zeroes what a delete or rewrite frees
    (`secure_delete`, set on every connection) and its write-ahead log, which still holds the rows as they
    were, is checkpointed into the file and truncated; PostgreSQL VACUUMs the tables the erase touched
    (their old row versions leave the tables and indexes; docs/retention.md says what stays)."""
    if not await store.scrub([p.table for p in declared] + ["rated_pairs"]):
        log.warning("the write-ahead log could not be emptied after a /forgetme; it is at the next checkpoint")


_NAMED = re.compile(r"(?<![:\w]):([A-Za-z_]\w*)")


def _bound(sql: str, params: dict[str, Any]) -> dict[str, Any]:
    """The parameters a statement names (asyncpg refuses unused ones)."""
    return {k: params[k] for k in set(_NAMED.findall(sql))}


async def _run(tx: Tx, sql: str, params: dict[str, Any]) -> None:
    await tx.execute(Query(sql), **_bound(sql, params))


async def _rows(tx: Tx, sql: str, params: dict[str, Any]) -> list[Any]:
    return list(await tx.fetch(Query(sql), **_bound(sql, params)))
