"""Every column of the database that may hold a chat user's id or name is declared for /mydata and
/forgetme (bot/yourdata/declare.py: the shared tables, and each game's `GamePlugin.personal`): a table
added without its declaration fails here, read from the database itself, not from a list."""

from __future__ import annotations

import re

from bot.app.app import App
from bot.games.plugin import personal
from bot.yourdata.declare import Kept, Personal
from bot.yourdata.erase import scrub
from tests.yourdata.players import tables_and_columns

# a column named like one that holds a person: an id, a name, who did something
PERSONAL_LOOKING = re.compile(r"(^|_)(user|user_id|name|member|by|author|winner|treasurer|attendee|player)s?($|_)")


async def test_every_personal_looking_column_is_declared(app: App, db: str) -> None:
    declared = {(d.table, c) for d in personal() if isinstance(d, Personal) for c in d.columns()}
    kept = {(d.table, c) for d in personal() if isinstance(d, Kept) for c in d.columns}
    columns = await tables_and_columns(app, db)
    looking = {(t, c) for t, c in columns if PERSONAL_LOOKING.search(c)}
    assert {("results", "user_id"), ("results", "name"), ("scheduled_jobs", "leased_by")} <= looking
    undeclared = sorted(looking - declared - kept)
    assert undeclared == [], f"declare these for /mydata and /forgetme (bot/yourdata/declare.py): {undeclared}"
    tables = {t for t, _c in columns}
    assert {d.table for d in personal()} <= tables  # no declaration names a table that does not exist


def test_scrub_replaces_ids_keys_mentions_and_the_name_beside_the_id() -> None:
    state = {"player": {"user_id": "42", "name": "Zeb"}, "other": {"user_id": "7", "name": "Ann"},
             "secrets": {"42": "1234", "7": "5678"}, "turn": "42", "note": "<@42> vs <@7>", "n": 42,
             "rows": [["42", "1234"]]}
    assert scrub(state, "42", "former-x") == {
        "player": {"user_id": "former-x", "name": "\u2063former player\u2063"},
        "other": {"user_id": "7", "name": "Ann"}, "secrets": {"former-x": "1234", "7": "5678"},
        "turn": "former-x", "note": "<@former-x> vs <@7>", "n": 42, "rows": [["former-x", "1234"]]}
    # another player whose id contains theirs is not touched
    other = {"player": {"user_id": "421", "name": "Ann"}, "turn": "421", "note": "<@421> <@4>", "secrets": {"421": "1"}}
    assert scrub(other, "42", "former-x") == other
