"""Where the database keeps a chat user's data: the declarations /mydata and /forgetme act on.

A table that holds a chat account's id or display name is declared once, as a `Personal` entry: the
shared tables here (`shared`), a game's or a feature's own on its plugin (`GamePlugin.personal`, a
tuple, default empty). A column that only looks personal (a Kegel club member's name, typed by the
scorer: the club's records, not an account) is declared as `Kept`, with the reason.
tests/yourdata/test_declared.py fails for any column of the database named like a person's
(`user_id`, `name`, `*_by` …) that no entry declares, so a new table cannot be forgotten silently."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from typing import Literal

# The neutral name of a forgotten player, stored instead of their name and shown as "former player" in
# the reader's language (bot/texts/i18n.py). U+2063 is a format character: core.names.clean drops it from every
# name a user gives, so no living player's name can be or contain it.
FORMER = "\u2063former player\u2063"
TOKEN_PREFIX = "former-"  # a forgotten player's id: this and random hex, the same in all their rows


@dataclass(frozen=True)
class Personal:
    """A table's rows of one chat user: found by `user` (their id) on `platform`, optionally only
    `where` (SQL over the table's columns; it may name `:platform`). /forgetme deletes them
    (`forget="delete"`: settings, memberships) or anonymises them (the id becomes the player's token,
    `name` the neutral `FORMER`), so that other players' results stay as they were. `json`: columns of
    JSON text naming the user (a game's state, an event's data), rewritten in every row that names them
    (`key`: the row's id column); `chat`: chat id columns, rewritten where the chat is the user's
    private chat (whose id is the user's own id on Telegram and the console). `export`: shown by /mydata."""

    table: str
    user: str = ""
    name: str = ""
    forget: Literal["anonymise", "delete"] = "anonymise"
    where: str = ""
    json: tuple[str, ...] = ()
    key: str = ""
    chat: tuple[str, ...] = ()
    platform: str = "platform"
    export: bool = True
    prefix: str = ""  # the `user` column holds this and the id (a user's own /lang choice: `u:<id>`)
    version: str = ""  # a row version a rewrite of `json` counts up (a running game's compare-and-set)

    def columns(self) -> set[str]:
        return {c for c in (self.user, self.name, *self.json, *self.chat) if c}


@dataclass(frozen=True)
class Kept:
    """Columns that look personal but are no chat account's: kept by /forgetme, with the reason."""

    table: str
    columns: tuple[str, ...]
    why: str


def shared(rated_in_chat: Iterable[str] = ()) -> tuple[Personal | Kept, ...]:
    """The shared tables (bot/storage/migrations.py); a game's own tables are declared on its plugin.
    `rated_in_chat`: the games whose players are names within a chat (`GamePlugin.rated_in_chat`), whose
    ratings and achievements are the club's records, not an account's."""
    kinds = sorted(rated_in_chat)
    not_local = "kind NOT IN ({})".format(", ".join(f"'{k}'" for k in kinds)) if kinds else ""
    return (
        Personal("users", user="user_id", name="name", forget="delete"),
        Personal("chat_members", user="user_id", forget="delete", chat=("chat_id",)),
        Personal("chats", user="chat_id", forget="delete", prefix="u:"),  # their own /lang (bot/texts/render.py)
        Personal("chats", user="chat_id", forget="delete", export=False),  # their private chat's settings
        Personal("seats", user="user_id", chat=("chat_id",)),
        Personal("results", user="user_id", name="name", chat=("chat_id",)),
        # a Kegel club's ratings are its members' (names, not accounts): kept like the club's records
        Personal("ratings", user="user_id", name="name", where=not_local, chat=("chat_id",)),
        Personal("rating_history", user="user_id", where=not_local, chat=("chat_id",)),
        Personal("games", json=("state",), key="id", version="version", chat=("chat_id",)),
        Personal("events", json=("data",), key="id", platform="",  # the events of this platform's games
                 where="game_id IN (SELECT id FROM games WHERE platform = :platform)"),
        # a Kegel member's achievements are the club's records too (docs/retention.md)
        Personal("achievements", user="user_id", name="name", where=not_local, chat=("chat_id",)),
        Personal("forget_requests", user="user_id", forget="delete", export=False),
        Personal("ping_optins", user="user_id", forget="delete"),  # who asked to be mentioned (bot/retention/)
        Kept("scheduled_jobs", ("leased_by",), "the process holding a job, not a person"),
    )


def entries(declared: Iterable[Personal | Kept]) -> tuple[Personal, ...]:
    return tuple(d for d in declared if isinstance(d, Personal))
