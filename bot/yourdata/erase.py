"""/forgetme's erasure: one write job that deletes or anonymises a chat user's rows everywhere they
are declared (bot/yourdata/declare.py), and the pure rewrite of the JSON that names them."""

from __future__ import annotations

import json
from collections.abc import Sequence
from typing import Any

from bot.storage.sql import Query, Tx, TxJob
from bot.yourdata.declare import FORMER, Personal


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


def forget_job(platform: str, uid: str, token: str, declared: Sequence[Personal]) -> TxJob:
    """Delete the user's rows where they are declared so, else give them the token and the neutral name;
    rewrite every JSON text that names them; the user's private chat (its id is theirs) becomes the token's."""

    async def job(tx: Tx) -> None:
        params = {"platform": platform, "uid": uid, "token": token, "former": FORMER}
        for p in declared:
            if p.user and p.forget == "delete":
                await tx.execute(Query(f"DELETE FROM {p.table} WHERE {_platform(p)}{p.user} = :uid{_where(p)}"),
                                 **_used(p, params | {"uid": p.prefix + uid}))
        for p in declared:
            if p.user and p.forget == "anonymise":
                named = f", {p.name} = :former" if p.name else ""
                await tx.execute(Query(f"UPDATE {p.table} SET {p.user} = :token{named}"
                                       f" WHERE {_platform(p)}{p.user} = :uid{_where(p)}"),
                                 **_used(p, params | {"uid": p.prefix + uid, "token": p.prefix + token},
                                         named=bool(p.name), token=True))
            for col in p.chat:
                await tx.execute(Query(f"UPDATE {p.table} SET {col} = :token WHERE {_platform(p)}{col} = :uid"),
                                 **_used(p, params, token=True))
            for col in p.json:
                rows = await tx.fetch(Query(f"SELECT {p.key}, {col} FROM {p.table}"
                                            f" WHERE {col} LIKE :pattern ESCAPE '\\'"), pattern=like(uid))
                for key, text in rows:
                    new = json.dumps(scrub(json.loads(text), uid, token))
                    await tx.execute(Query(f"UPDATE {p.table} SET {col} = :text WHERE {p.key} = :key"),
                                     text=new, key=key)

    return job


def _used(p: Personal, params: dict[str, str], named: bool = False, token: bool = False) -> dict[str, str]:
    """The parameters a statement names (asyncpg refuses unused ones)."""
    keep = {"uid"} | ({"platform"} if p.platform else set()) | ({"former"} if named else set()) | (
        {"token"} if token else set())
    return {k: v for k, v in params.items() if k in keep}
