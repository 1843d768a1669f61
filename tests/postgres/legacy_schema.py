"""Fixtures: the schema migrations as the bot shipped them before the one SQL layer (SQLite and
PostgreSQL written apart), kept verbatim so that tests can build a database exactly as that code did and
check that today's migrations give the same schema and open it unchanged."""

from __future__ import annotations

SQLITE_V4: list[str] = [
    # 1: games, seats, the event log, results, chats, users, seen inbounds
    """
    CREATE TABLE games (
        id       INTEGER PRIMARY KEY,
        platform TEXT NOT NULL,
        chat_id  TEXT NOT NULL,
        private  INTEGER NOT NULL DEFAULT 0,
        kind     TEXT NOT NULL,
        state    TEXT NOT NULL,
        over     INTEGER NOT NULL DEFAULT 0,
        version  INTEGER NOT NULL DEFAULT 1,
        created  REAL NOT NULL,
        updated  REAL NOT NULL
    );
    CREATE INDEX games_running ON games (over, updated);
    -- who sits in which game. The partial unique index is the rule
    -- "a player is in at most one game per chat at a time"
    CREATE TABLE seats (
        game_id  INTEGER NOT NULL REFERENCES games (id),
        platform TEXT NOT NULL,
        chat_id  TEXT NOT NULL,
        user_id  TEXT NOT NULL,
        active   INTEGER NOT NULL DEFAULT 1,
        PRIMARY KEY (game_id, user_id)
    );
    CREATE UNIQUE INDEX one_game_per_chat ON seats (platform, chat_id, user_id) WHERE active = 1;
    CREATE INDEX seats_user ON seats (platform, user_id) WHERE active = 1;
    CREATE TABLE events (
        id      INTEGER PRIMARY KEY,
        game_id INTEGER NOT NULL REFERENCES games (id),
        type    TEXT NOT NULL,
        data    TEXT NOT NULL,
        at      REAL NOT NULL
    );
    CREATE INDEX events_game ON events (game_id, id);
    CREATE TABLE results (
        game_id  INTEGER NOT NULL REFERENCES games (id),
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
        at       REAL NOT NULL,
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
        at       REAL NOT NULL,
        PRIMARY KEY (platform, event_id)
    );
    """,
    # 2: Hausnummern (kegeln): finished games, per-member lines (club members are names, not
    # chat accounts: `member` is the casefolded name, unique per chat) and the throw log
    """
    CREATE TABLE kegeln_games (
        game_id  INTEGER PRIMARY KEY REFERENCES games (id),
        platform TEXT NOT NULL,
        chat_id  TEXT NOT NULL,
        mode     TEXT NOT NULL,
        digits   INTEGER NOT NULL,
        teams    INTEGER NOT NULL,
        winner   TEXT NOT NULL,
        decided  INTEGER NOT NULL,
        at       REAL NOT NULL
    );
    CREATE TABLE kegeln_members (
        game_id  INTEGER NOT NULL REFERENCES games (id),
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
        at       REAL NOT NULL,
        PRIMARY KEY (game_id, member)
    );
    CREATE INDEX kegeln_members_chat ON kegeln_members (platform, chat_id, member);
    CREATE TABLE kegeln_throws (
        game_id  INTEGER NOT NULL REFERENCES games (id),
        seq      INTEGER NOT NULL,
        platform TEXT NOT NULL,
        chat_id  TEXT NOT NULL,
        member   TEXT NOT NULL,
        name     TEXT NOT NULL,
        pins     INTEGER NOT NULL,
        position INTEGER NOT NULL,
        digit    INTEGER NOT NULL,
        at       REAL NOT NULL,
        PRIMARY KEY (game_id, seq)
    );
    """,
    # 3: Logik records results by side: "white" (the challenger of a first game) or "black"
    """
    ALTER TABLE results ADD COLUMN side TEXT;
    CREATE INDEX results_side ON results (platform, kind, side, chat_id);
    """,
    # 4: the running games of one chat (/accept, /join, /board) without scanning every running game
    """
    CREATE INDEX games_chat_running ON games (platform, chat_id) WHERE over = 0;
    """,
]

POSTGRES_V4: list[str] = [
    # 1: games, seats, the event log, results, chats, users, seen inbounds
    """
    CREATE TABLE games (
        id       BIGSERIAL PRIMARY KEY,
        platform TEXT NOT NULL,
        chat_id  TEXT NOT NULL,
        private  INTEGER NOT NULL DEFAULT 0,
        kind     TEXT NOT NULL,
        state    TEXT NOT NULL,
        over     INTEGER NOT NULL DEFAULT 0,
        version  INTEGER NOT NULL DEFAULT 1,
        created  DOUBLE PRECISION NOT NULL,
        updated  DOUBLE PRECISION NOT NULL
    );
    CREATE INDEX games_running ON games (over, updated);
    CREATE INDEX games_chat ON games (platform, chat_id) WHERE over = 0;
    -- the partial unique index is the rule "a player is in at most one game per chat at a time"
    CREATE TABLE seats (
        game_id  BIGINT NOT NULL REFERENCES games (id),
        platform TEXT NOT NULL,
        chat_id  TEXT NOT NULL,
        user_id  TEXT NOT NULL,
        active   INTEGER NOT NULL DEFAULT 1,
        PRIMARY KEY (game_id, user_id)
    );
    CREATE UNIQUE INDEX one_game_per_chat ON seats (platform, chat_id, user_id) WHERE active = 1;
    CREATE INDEX seats_user ON seats (platform, user_id) WHERE active = 1;
    CREATE TABLE events (
        id      BIGSERIAL PRIMARY KEY,
        game_id BIGINT NOT NULL REFERENCES games (id),
        type    TEXT NOT NULL,
        data    TEXT NOT NULL,
        at      DOUBLE PRECISION NOT NULL
    );
    CREATE INDEX events_game ON events (game_id, id);
    CREATE TABLE results (
        game_id  BIGINT NOT NULL REFERENCES games (id),
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
        at       DOUBLE PRECISION NOT NULL,
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
        at       DOUBLE PRECISION NOT NULL,
        PRIMARY KEY (platform, event_id)
    );
    """,
    # 2: Hausnummern (kegeln): finished games, per-member lines and the throw log
    """
    CREATE TABLE kegeln_games (
        game_id  BIGINT PRIMARY KEY REFERENCES games (id),
        platform TEXT NOT NULL,
        chat_id  TEXT NOT NULL,
        mode     TEXT NOT NULL,
        digits   INTEGER NOT NULL,
        teams    INTEGER NOT NULL,
        winner   TEXT NOT NULL,
        decided  INTEGER NOT NULL,
        at       DOUBLE PRECISION NOT NULL
    );
    CREATE TABLE kegeln_members (
        game_id  BIGINT NOT NULL REFERENCES games (id),
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
        at       DOUBLE PRECISION NOT NULL,
        PRIMARY KEY (game_id, member)
    );
    CREATE INDEX kegeln_members_chat ON kegeln_members (platform, chat_id, member);
    CREATE TABLE kegeln_throws (
        game_id  BIGINT NOT NULL REFERENCES games (id),
        seq      INTEGER NOT NULL,
        platform TEXT NOT NULL,
        chat_id  TEXT NOT NULL,
        member   TEXT NOT NULL,
        name     TEXT NOT NULL,
        pins     INTEGER NOT NULL,
        position INTEGER NOT NULL,
        digit    INTEGER NOT NULL,
        at       DOUBLE PRECISION NOT NULL,
        PRIMARY KEY (game_id, seq)
    );
    """,
    # 3: Logik records results by side: "white" (the challenger of a first game) or "black"
    """
    ALTER TABLE results ADD COLUMN side TEXT;
    CREATE INDEX results_side ON results (platform, kind, side, chat_id);
    """,
    # 4: the running games of one chat: the same index as SQLite's migration 4, under its name
    """
    DROP INDEX IF EXISTS games_chat;
    CREATE INDEX games_chat_running ON games (platform, chat_id) WHERE over = 0;
    """,
]
