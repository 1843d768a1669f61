"""Numbered schema migrations of both stores, applied in order from zero at start.

One list for SQLite and PostgreSQL: entry N is schema version N on both (SQLite keeps the number in
`PRAGMA user_version`, PostgreSQL in the table `schema_version`). The text is written once; the few
column types that differ are tokens rendered per database — `{SERIAL}` (a generated 64-bit id:
INTEGER / BIGSERIAL), `{BIGINT}` (a reference to one: INTEGER / BIGINT), `{REAL}` (REAL / DOUBLE
PRECISION). Flags stay INTEGER 0/1 and JSON stays TEXT on both, so states round-trip byte for byte.
Where a step really differs, the entry carries the other database's statements beside the shared ones.
A schema change is a new entry at the end; an entry once shipped never changes (tests/app/test_store.py
and tests/postgres/test_store_pg.py build databases with the lists shipped before and compare).
A game's own tables are not here: it declares its own list (bot/storage/schemas.py), applied after this one.
"""

from __future__ import annotations

import logging
from dataclasses import dataclass

from bot.storage.sql import Dialect

log = logging.getLogger(__name__)

_TYPES: dict[Dialect, dict[str, str]] = {
    "sqlite": {"{SERIAL}": "INTEGER", "{BIGINT}": "INTEGER", "{REAL}": "REAL"},
    "postgres": {"{SERIAL}": "BIGSERIAL", "{BIGINT}": "BIGINT", "{REAL}": "DOUBLE PRECISION"},
}


@dataclass(frozen=True)
class Migration:
    """One schema version: statements for both databases, plus any that only one of them runs."""

    sql: str
    sqlite: str = ""
    postgres: str = ""

    def text(self, dialect: Dialect) -> str:
        text = self.sql + (self.sqlite if dialect == "sqlite" else self.postgres)
        for token, sql_type in _TYPES[dialect].items():
            text = text.replace(token, sql_type)
        return text


MIGRATIONS: list[Migration] = [
    # 1: games, seats, the event log, results, chats, users, seen inbounds
    Migration("""
    CREATE TABLE games (
        id       {SERIAL} PRIMARY KEY,
        platform TEXT NOT NULL,
        chat_id  TEXT NOT NULL,
        private  INTEGER NOT NULL DEFAULT 0,
        kind     TEXT NOT NULL,
        state    TEXT NOT NULL,
        over     INTEGER NOT NULL DEFAULT 0,
        version  INTEGER NOT NULL DEFAULT 1,
        created  {REAL} NOT NULL,
        updated  {REAL} NOT NULL
    );
    CREATE INDEX games_running ON games (over, updated);
    -- who sits in which game. The partial unique index is the rule
    -- "a player is in at most one game per chat at a time"
    CREATE TABLE seats (
        game_id  {BIGINT} NOT NULL REFERENCES games (id),
        platform TEXT NOT NULL,
        chat_id  TEXT NOT NULL,
        user_id  TEXT NOT NULL,
        active   INTEGER NOT NULL DEFAULT 1,
        PRIMARY KEY (game_id, user_id)
    );
    CREATE UNIQUE INDEX one_game_per_chat ON seats (platform, chat_id, user_id) WHERE active = 1;
    CREATE INDEX seats_user ON seats (platform, user_id) WHERE active = 1;
    CREATE TABLE events (
        id      {SERIAL} PRIMARY KEY,
        game_id {BIGINT} NOT NULL REFERENCES games (id),
        type    TEXT NOT NULL,
        data    TEXT NOT NULL,
        at      {REAL} NOT NULL
    );
    CREATE INDEX events_game ON events (game_id, id);
    CREATE TABLE results (
        game_id  {BIGINT} NOT NULL REFERENCES games (id),
        platform TEXT NOT NULL,
        chat_id  TEXT NOT NULL,
        user_id  TEXT NOT NULL,
        name     TEXT NOT NULL,
        kind     TEXT NOT NULL,
        outcome  TEXT NOT NULL,
        attempts INTEGER,
        length   INTEGER,
        repeats  INTEGER,
        rating   TEXT,
        at       {REAL} NOT NULL,
        PRIMARY KEY (game_id, user_id)
    );
    CREATE INDEX results_chat ON results (platform, chat_id, user_id);
    CREATE INDEX results_user ON results (platform, user_id, kind);
    CREATE TABLE chats (
        platform TEXT NOT NULL,
        chat_id  TEXT NOT NULL,
        lang     TEXT,
        PRIMARY KEY (platform, chat_id)
    );
    CREATE TABLE users (
        platform TEXT NOT NULL,
        user_id  TEXT NOT NULL,
        name     TEXT NOT NULL,
        locale   TEXT,
        PRIMARY KEY (platform, user_id)
    );
    CREATE TABLE seen (
        platform TEXT NOT NULL,
        event_id TEXT NOT NULL,
        at       {REAL} NOT NULL,
        PRIMARY KEY (platform, event_id)
    );
    """),
    # 2: Hausnummern (kegeln): finished games, per-member lines (club members are names, not
    # chat accounts: `member` is the casefolded name, unique per chat) and the throw log
    Migration("""
    CREATE TABLE kegeln_games (
        game_id  {BIGINT} PRIMARY KEY REFERENCES games (id),
        platform TEXT NOT NULL,
        chat_id  TEXT NOT NULL,
        mode     TEXT NOT NULL,
        digits   INTEGER NOT NULL,
        teams    INTEGER NOT NULL,
        winner   TEXT NOT NULL,
        decided  INTEGER NOT NULL,
        at       {REAL} NOT NULL
    );
    CREATE TABLE kegeln_members (
        game_id  {BIGINT} NOT NULL REFERENCES games (id),
        platform TEXT NOT NULL,
        chat_id  TEXT NOT NULL,
        member   TEXT NOT NULL,
        name     TEXT NOT NULL,
        mode     TEXT NOT NULL,
        team     INTEGER,
        number   INTEGER NOT NULL,
        place    INTEGER NOT NULL,
        win      INTEGER NOT NULL,
        throws   INTEGER NOT NULL,
        pins     INTEGER NOT NULL,
        nines    INTEGER NOT NULL,
        pumpen   INTEGER NOT NULL,
        at       {REAL} NOT NULL,
        PRIMARY KEY (game_id, member)
    );
    CREATE INDEX kegeln_members_chat ON kegeln_members (platform, chat_id, member);
    CREATE TABLE kegeln_throws (
        game_id  {BIGINT} NOT NULL REFERENCES games (id),
        seq      INTEGER NOT NULL,
        platform TEXT NOT NULL,
        chat_id  TEXT NOT NULL,
        member   TEXT NOT NULL,
        name     TEXT NOT NULL,
        pins     INTEGER NOT NULL,
        position INTEGER NOT NULL,
        digit    INTEGER NOT NULL,
        at       {REAL} NOT NULL,
        PRIMARY KEY (game_id, seq)
    );
    """),
    # 3: Logik records results by side: "white" (the challenger of a first game) or "black"
    Migration("""
    ALTER TABLE results ADD COLUMN side TEXT;
    CREATE INDEX results_side ON results (platform, kind, side, chat_id);
    """),
    # 4: the running games of one chat (/accept, /join, /board) without scanning every running game.
    # PostgreSQL databases from before this list was one had this index under the name games_chat
    # (their migration 1 made it): it goes, so that every database of version 4 has the same indexes.
    Migration("""
    CREATE INDEX games_chat_running ON games (platform, chat_id) WHERE over = 0;
    """, postgres="""
    DROP INDEX IF EXISTS games_chat;
    """),
    # 5: skill ratings (core/ratings.py) per player, game kind and chat; `user_id` is a Kegeln
    # member's casefolded name in kind "kegeln". `name`: the player's name at their last rated game
    Migration("""
    CREATE TABLE ratings (
        platform TEXT NOT NULL,
        chat_id  TEXT NOT NULL,
        kind     TEXT NOT NULL,
        user_id  TEXT NOT NULL,
        name     TEXT NOT NULL,
        mu       {REAL} NOT NULL,
        sigma    {REAL} NOT NULL,
        games    INTEGER NOT NULL,
        updated  {REAL} NOT NULL,
        PRIMARY KEY (platform, chat_id, kind, user_id)
    );
    """),
    # 6: every rated game's new rating per player (the trend in /stats, the chart of /rating), in
    # the chat and across chats (chat_id '*', core/ratings.py EVERYWHERE; also in `ratings`)
    Migration("""
    CREATE TABLE rating_history (
        id       {SERIAL} PRIMARY KEY,
        game_id  {BIGINT} NOT NULL REFERENCES games (id),
        platform TEXT NOT NULL,
        chat_id  TEXT NOT NULL,
        kind     TEXT NOT NULL,
        user_id  TEXT NOT NULL,
        mu       {REAL} NOT NULL,
        sigma    {REAL} NOT NULL,
        games    INTEGER NOT NULL,
        at       {REAL} NOT NULL
    );
    CREATE INDEX rating_history_player ON rating_history (platform, chat_id, kind, user_id, id);
    """),
    # 7: the Kegel club's season start per chat (month and day; no row: 1 January), see
    # core/club/season.py
    Migration("""
    CREATE TABLE kegeln_seasons (
        platform TEXT NOT NULL,
        chat_id  TEXT NOT NULL,
        month    INTEGER NOT NULL,
        day      INTEGER NOT NULL,
        PRIMARY KEY (platform, chat_id)
    );
    """),
    # 8: the daily puzzle (docs/daily.md): a chat's time zone (its day changes at that zone's midnight);
    # the code of each chat, day and puzzle, drawn once when first asked for; and each player's one
    # attempt at it (the primary key is the rule "one attempt per player, chat, day and puzzle")
    Migration("""
    ALTER TABLE chats ADD COLUMN tz TEXT;
    CREATE TABLE daily_puzzles (
        platform TEXT NOT NULL,
        chat_id  TEXT NOT NULL,
        day      TEXT NOT NULL,
        puzzle   TEXT NOT NULL,
        secret   TEXT NOT NULL,
        lang     TEXT NOT NULL,
        created  {REAL} NOT NULL,
        PRIMARY KEY (platform, chat_id, day, puzzle)
    );
    CREATE TABLE daily_plays (
        platform TEXT NOT NULL,
        chat_id  TEXT NOT NULL,
        day      TEXT NOT NULL,
        puzzle   TEXT NOT NULL,
        user_id  TEXT NOT NULL,
        name     TEXT NOT NULL,
        game_id  {BIGINT} NOT NULL REFERENCES games (id),
        outcome  TEXT NOT NULL DEFAULT 'playing',
        attempts INTEGER NOT NULL DEFAULT 0,
        started  {REAL} NOT NULL,
        finished {REAL},
        PRIMARY KEY (platform, chat_id, day, puzzle, user_id)
    );
    CREATE INDEX daily_plays_game ON daily_plays (game_id);
    CREATE INDEX daily_plays_player ON daily_plays (platform, chat_id, puzzle, user_id, day);
    """),
    # 9: a group's latest title (docs/daily.md "Which chat": private messages name the group), and who
    # has acted in which group (a title is told only to them)
    Migration("""
    ALTER TABLE chats ADD COLUMN title TEXT;
    CREATE TABLE chat_members (
        platform TEXT NOT NULL,
        chat_id  TEXT NOT NULL,
        user_id  TEXT NOT NULL,
        PRIMARY KEY (platform, chat_id, user_id)
    );
    """),
    # 10: when a daily puzzle's day ends in the zone it was drawn for (docs/daily.md: a /timezone change
    # opens no day early and no day twice); NULL for the puzzles drawn before
    Migration("""
    ALTER TABLE daily_puzzles ADD COLUMN ends {REAL};
    """),
    # 11: the bot's own posts at a set time (bot/schedule/scheduler.py): one row per job, claimed by a lease, done once
    Migration("""
    CREATE TABLE scheduled_jobs (
        id          {SERIAL} PRIMARY KEY,
        owner       TEXT NOT NULL,
        platform    TEXT NOT NULL,
        chat_id     TEXT NOT NULL,
        key         TEXT NOT NULL,
        due         {REAL} NOT NULL,
        payload     TEXT NOT NULL,
        attempts    INTEGER NOT NULL DEFAULT 0,
        lease_until {REAL},
        leased_by   TEXT,
        done        {REAL},
        created     {REAL} NOT NULL,
        UNIQUE (owner, platform, chat_id, key)
    );
    CREATE INDEX scheduled_jobs_due ON scheduled_jobs (due) WHERE done IS NULL;
    """),
    # 12: the bot's own posts per chat (bot/retention/settings.py): the morning post's and the weekly table's
    # times (NULL: off), the week's first day (0 Monday … 6 Sunday), how chatty the bot is in the group; and
    # who in a chat asked to be mentioned in them (personal: a user id per chat, erased by /forgetme)
    Migration("""
    CREATE TABLE chat_posts (
        platform   TEXT NOT NULL,
        chat_id    TEXT NOT NULL,
        morning    TEXT,
        weekly     TEXT,
        week_start INTEGER NOT NULL DEFAULT 0,
        noise      TEXT NOT NULL DEFAULT 'all',
        updated    {REAL} NOT NULL,
        PRIMARY KEY (platform, chat_id)
    );
    CREATE TABLE ping_optins (
        platform TEXT NOT NULL,
        chat_id  TEXT NOT NULL,
        user_id  TEXT NOT NULL,
        created  {REAL} NOT NULL,
        PRIMARY KEY (platform, chat_id, user_id)
    );
    """),
    # 13: a chat's TV page (bot/web/, docs/tv.md): one unguessable link token per chat; /tv new replaces it
    Migration("""
    CREATE TABLE tv_links (
        platform TEXT NOT NULL,
        chat_id  TEXT NOT NULL,
        token    TEXT NOT NULL UNIQUE,
        created  {REAL} NOT NULL,
        PRIMARY KEY (platform, chat_id)
    );
    """),
    # 14: achievements (core/achievements.py), each once per player, game kind and chat (`user_id` is a
    # Kegel member's casefolded name in kind "kegeln", as in `ratings`); and the /forgetme confirmations
    # waiting for their button (bot/yourdata/forget.py)
    Migration("""
    CREATE TABLE achievements (
        platform TEXT NOT NULL,
        chat_id  TEXT NOT NULL,
        kind     TEXT NOT NULL,
        user_id  TEXT NOT NULL,
        name     TEXT NOT NULL,
        code     TEXT NOT NULL,
        game_id  {BIGINT} NOT NULL REFERENCES games (id),
        at       {REAL} NOT NULL,
        PRIMARY KEY (platform, chat_id, kind, user_id, code)
    );
    CREATE INDEX achievements_game ON achievements (game_id);
    CREATE TABLE forget_requests (
        platform TEXT NOT NULL,
        nonce    TEXT NOT NULL,
        user_id  TEXT NOT NULL,
        chat_id  TEXT NOT NULL,
        until    {REAL} NOT NULL,
        PRIMARY KEY (platform, nonce)
    );
    """),
    # 15: fair play that survives /forgetme (bot/storage/fair_play.py, docs/retention.md "Your data"): the
    # bot's own key for the keyed hashes (one row, drawn at first use), and per rated game of human players
    # whether the pair cap counted it — with the keyed hash of its players' platform ids only while the
    # cap's 24 hours can still need it (then NULL)
    Migration("""
    CREATE TABLE fair_play_key (
        id  INTEGER PRIMARY KEY,
        key TEXT NOT NULL
    );
    CREATE TABLE rated_pairs (
        game_id  {BIGINT} PRIMARY KEY REFERENCES games (id),
        platform TEXT NOT NULL,
        kind     TEXT NOT NULL,
        pair     TEXT,
        at       {REAL} NOT NULL,
        counted  INTEGER NOT NULL
    );
    CREATE INDEX rated_pairs_pair ON rated_pairs (platform, kind, pair, at);
    CREATE INDEX rated_pairs_hashed ON rated_pairs (at) WHERE pair IS NOT NULL;
    """),
]
