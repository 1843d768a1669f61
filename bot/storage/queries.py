"""Every statement of the stores, written once in the neutral dialect of bot/storage/sql.py.

Written so that both databases run them as they are: `COUNT(*) FILTER (WHERE …)` for counts by
condition, CASE for the rest, upserts with `ON CONFLICT … DO UPDATE`, `RETURNING` for generated ids,
and `COLLATE "C"` (byte order; SQLite's BINARY) wherever text decides an order.
"""

from __future__ import annotations

from bot.storage.sql import Query

_GAME_COLS = "id, platform, chat_id, private, kind, state, over, version"
_G_COLS = ", ".join("g." + c.strip() for c in _GAME_COLS.split(","))


def _in_chat(head: str, tail: str = "") -> tuple[Query, Query]:
    """A query over one chat or over every chat of the platform: (everywhere, in the chat `:chat_id`)."""
    return Query(head + tail), Query(head + " AND chat_id = :chat_id" + tail)


def _count(condition: str) -> str:
    return f"COUNT(*) FILTER (WHERE {condition})"


_WIN, _DRAW, _LOSS, _ABANDONED, _GAVE_UP = (_count(f"outcome = '{o}'")
                                           for o in ("win", "draw", "loss", "abandoned", "gave_up"))


# ---------------------------------------------------------------- games
GET_GAME = Query(f"SELECT {_GAME_COLS} FROM games WHERE id = :id")
SEATED_GAMES = Query(f"SELECT {_G_COLS} FROM seats s JOIN games g ON g.id = s.game_id"
                     " WHERE s.active = 1 AND s.platform = :platform AND s.user_id = :user_id ORDER BY g.id")
SEATED_GAMES_IN_CHAT = Query(f"SELECT {_G_COLS} FROM seats s JOIN games g ON g.id = s.game_id"
                             " WHERE s.active = 1 AND s.platform = :platform AND s.user_id = :user_id"
                             " AND s.chat_id = :chat_id ORDER BY g.id")
CHAT_GAMES = Query(f"SELECT {_GAME_COLS} FROM games WHERE over = 0 AND platform = :platform"
                   " AND chat_id = :chat_id ORDER BY id")
IDLE_GAMES = Query(f"SELECT {_GAME_COLS} FROM games WHERE over = 0 AND updated < :before ORDER BY id")
LAST_GAMES = Query(  # by the game's chat: a daily attempt's seat has a key of its own (store.create_game)
    f"SELECT {_G_COLS} FROM seats s JOIN games g ON g.id = s.game_id WHERE g.platform = :platform"
    " AND g.chat_id = :chat_id AND s.user_id = :user_id ORDER BY g.id DESC LIMIT :limit")
EVENT_LOG = Query("SELECT type, data FROM events WHERE game_id = :game_id ORDER BY id")

COUNT_RUNNING = Query(  # a chat's running games, and those among them the creator sits or sat in
    "SELECT COUNT(*), " + _count("EXISTS (SELECT 1 FROM seats s WHERE s.game_id = g.id AND s.user_id = :creator)")
    + " FROM games g WHERE g.over = 0 AND g.platform = :platform AND g.chat_id = :chat_id")
INSERT_GAME = Query("INSERT INTO games (platform, chat_id, private, kind, state, created, updated)"
                    " VALUES (:platform, :chat_id, :private, :kind, :state, :now, :now) RETURNING id")
UPDATE_GAME = Query(  # the compare-and-set of a move: no row when another writer won
    "UPDATE games SET state = :state, over = :over, version = version + 1, updated = :now"
    " WHERE id = :id AND version = :version RETURNING version")
INSERT_SEAT = Query("INSERT INTO seats (game_id, platform, chat_id, user_id) VALUES (:game_id, :platform, :chat_id,"
                    " :user_id) ON CONFLICT (game_id, user_id) DO UPDATE SET active = 1")
RELEASE_SEAT = Query("UPDATE seats SET active = 0 WHERE game_id = :game_id AND user_id = :user_id")
RELEASE_SEATS = Query("UPDATE seats SET active = 0 WHERE game_id = :game_id")
RELEASE_SEATS_BUT = Query("UPDATE seats SET active = 0 WHERE game_id = :game_id AND user_id != :keep")
INSERT_EVENT = Query("INSERT INTO events (game_id, type, data, at) VALUES (:game_id, :type, :data, :at)")
INSERT_RESULT = Query(
    "INSERT INTO results (game_id, platform, chat_id, user_id, name, kind, outcome, attempts, length, repeats,"
    " rating, side, at) VALUES (:game_id, :platform, :chat_id, :user_id, :name, :kind, :outcome, :attempts,"
    " :length, :repeats, :rating, :side, :at)")

# ---------------------------------------------------------------- idempotency
WAS_SEEN = Query("SELECT 1 FROM seen WHERE platform = :platform AND event_id = :event_id")
INSERT_SEEN = Query(  # a row back: stored; none: delivered before
    "INSERT INTO seen (platform, event_id, at) VALUES (:platform, :event_id, :at) ON CONFLICT DO NOTHING RETURNING 1")

# ---------------------------------------------------------------- chats and users
CHAT_LANG = Query("SELECT lang FROM chats WHERE platform = :platform AND chat_id = :chat_id")
CHAT_TZ = Query("SELECT tz FROM chats WHERE platform = :platform AND chat_id = :chat_id")
SET_CHAT_TZ = Query("INSERT INTO chats (platform, chat_id, tz) VALUES (:platform, :chat_id, :tz)"
                    " ON CONFLICT (platform, chat_id) DO UPDATE SET tz = excluded.tz")
SET_CHAT_TITLE = Query("INSERT INTO chats (platform, chat_id, title) VALUES (:platform, :chat_id, :title)"
                       " ON CONFLICT (platform, chat_id) DO UPDATE SET title = excluded.title")
ADD_CHAT_MEMBER = Query("INSERT INTO chat_members (platform, chat_id, user_id) VALUES (:platform, :chat_id, :user_id)"
                        " ON CONFLICT DO NOTHING")
CHAT_TITLE_FOR = Query(  # a group's title, only for a user who has acted in it
    "SELECT c.title FROM chats c JOIN chat_members m ON m.platform = c.platform AND m.chat_id = c.chat_id"
    " WHERE c.platform = :platform AND c.chat_id = :chat_id AND m.user_id = :user_id")
SET_CHAT_LANG = Query("INSERT INTO chats (platform, chat_id, lang) VALUES (:platform, :chat_id, :lang)"
                      " ON CONFLICT (platform, chat_id) DO UPDATE SET lang = excluded.lang")
SAVE_USER = Query("INSERT INTO users (platform, user_id, name, locale) VALUES (:platform, :user_id, :name, :locale)"
                  " ON CONFLICT (platform, user_id) DO UPDATE SET name = excluded.name,"
                  " locale = COALESCE(excluded.locale, users.locale)")
USER_NAME = Query("SELECT name FROM users WHERE platform = :platform AND user_id = :user_id")
USER_LOCALE = Query("SELECT locale FROM users WHERE platform = :platform AND user_id = :user_id")
USERS_IN_CHAT = Query(  # the users seen in a chat: acted in it, a result there, or a seat in a running game
    "SELECT user_id, name FROM users WHERE platform = :platform AND user_id IN"
    " (SELECT user_id FROM chat_members WHERE platform = :platform AND chat_id = :chat_id"
    " UNION SELECT user_id FROM results WHERE platform = :platform AND chat_id = :chat_id"
    " UNION SELECT user_id FROM seats WHERE platform = :platform AND chat_id = :chat_id AND active = 1)"
    ' ORDER BY user_id COLLATE "C"')
USER_SEEN_IN_CHAT = Query(  # a user this chat has seen: acted in it, a result there, or a seat in a running game
    "SELECT 1 FROM chat_members WHERE platform = :platform AND chat_id = :chat_id AND user_id = :user_id"
    " UNION ALL SELECT 1 FROM results WHERE platform = :platform AND chat_id = :chat_id AND user_id = :user_id"
    " UNION ALL SELECT 1 FROM seats WHERE platform = :platform AND chat_id = :chat_id AND user_id = :user_id"
    " AND active = 1 LIMIT 1")
USERS_NAMED = Query("SELECT user_id, name FROM users WHERE platform = :platform AND lower(name) = lower(:name)"
                    ' ORDER BY user_id COLLATE "C" LIMIT :limit')

# A Telegram group became a supergroup: every table with a chat_id moves along. Rows that would
# collide with the new chat's own (an active seat of the same player, the chat's settings) stay behind.
MIGRATE_CHAT = (  # the shared tables; each game moves its own (bot/storage/schemas.py `chat_moves`)
    *(Query(f"UPDATE {table} SET chat_id = :new WHERE platform = :platform AND chat_id = :old")
      for table in ("games", "results")),
    Query("UPDATE seats SET chat_id = :new WHERE platform = :platform AND chat_id = :old AND NOT (active = 1"
          " AND EXISTS (SELECT 1 FROM seats t WHERE t.platform = seats.platform AND t.chat_id = :new"
          " AND t.user_id = seats.user_id AND t.active = 1))"),
    Query("UPDATE chats SET chat_id = :new WHERE platform = :platform AND chat_id = :old"
          " AND NOT EXISTS (SELECT 1 FROM chats c WHERE c.platform = :platform AND c.chat_id = :new)"),
    Query("UPDATE chat_members SET chat_id = :new WHERE platform = :platform AND chat_id = :old AND NOT EXISTS"
          " (SELECT 1 FROM chat_members c WHERE c.platform = :platform AND c.chat_id = :new"
          " AND c.user_id = chat_members.user_id)"),
    Query("UPDATE rating_history SET chat_id = :new WHERE platform = :platform AND chat_id = :old AND NOT EXISTS"
          " (SELECT 1 FROM ratings r WHERE r.platform = :platform AND r.chat_id = :new"
          " AND r.kind = rating_history.kind AND r.user_id = rating_history.user_id)"),  # before the ratings move
    Query("UPDATE ratings SET chat_id = :new WHERE platform = :platform AND chat_id = :old AND NOT EXISTS"
          " (SELECT 1 FROM ratings r WHERE r.platform = :platform AND r.chat_id = :new AND r.kind = ratings.kind"
          " AND r.user_id = ratings.user_id)"),
    Query("UPDATE scheduled_jobs SET chat_id = :new WHERE platform = :platform AND chat_id = :old AND NOT EXISTS"
          " (SELECT 1 FROM scheduled_jobs j WHERE j.owner = scheduled_jobs.owner AND j.platform = :platform"
          " AND j.chat_id = :new AND j.key = scheduled_jobs.key)"),
    # the chat's own posts and who asked to be mentioned in them (bot/retention/settings.py, migration 12)
    Query("UPDATE chat_posts SET chat_id = :new WHERE platform = :platform AND chat_id = :old AND NOT EXISTS"
          " (SELECT 1 FROM chat_posts c WHERE c.platform = :platform AND c.chat_id = :new)"),
    Query("UPDATE ping_optins SET chat_id = :new WHERE platform = :platform AND chat_id = :old AND NOT EXISTS"
          " (SELECT 1 FROM ping_optins p WHERE p.platform = :platform AND p.chat_id = :new"
          " AND p.user_id = ping_optins.user_id)"),
    Query("UPDATE tv_links SET chat_id = :new WHERE platform = :platform AND chat_id = :old AND NOT EXISTS"
          " (SELECT 1 FROM tv_links t WHERE t.platform = :platform AND t.chat_id = :new)"),  # the TV page's link
    # the achievements earned in the chat, and a /forgetme confirmation asked there (migration 14)
    Query("UPDATE achievements SET chat_id = :new WHERE platform = :platform AND chat_id = :old AND NOT EXISTS"
          " (SELECT 1 FROM achievements a WHERE a.platform = :platform AND a.chat_id = :new"
          " AND a.kind = achievements.kind AND a.user_id = achievements.user_id AND a.code = achievements.code)"),
    Query("UPDATE forget_requests SET chat_id = :new WHERE platform = :platform AND chat_id = :old"),
)

# ---------------------------------------------------------------- statistics
STATS, STATS_IN_CHAT = _in_chat(
    f"SELECT kind, COUNT(*), {_WIN}, {_DRAW}, {_LOSS}, {_ABANDONED}, {_GAVE_UP}"
    " FROM results WHERE platform = :platform AND user_id = :user_id", ' GROUP BY kind ORDER BY kind COLLATE "C"')
TOP = Query(
    f'SELECT MAX(name COLLATE "C"), {_WIN}, {_DRAW}, {_LOSS}, COUNT(*) FROM results'
    " WHERE platform = :platform AND chat_id = :chat_id"
    " AND kind = :kind AND user_id != :skip GROUP BY user_id ORDER BY 2 DESC, 5 ASC, 1 LIMIT :limit")
# ↑ the one order of a wins table, here and in /top week|month|season (bot/retention/periods.py `_WINS`): the most
# wins; equal wins, fewer games (the tie-break a reader can check in both); then the name

# ---------------------------------------------------------------- skill ratings (core/ratings.py)
RATING_CLAIM = Query(  # the prior rating (a new player's, games 0), with the row locked until commit
    "INSERT INTO ratings (platform, chat_id, kind, user_id, name, mu, sigma, games, updated)"
    " VALUES (:platform, :chat_id, :kind, :user_id, :name, :mu, :sigma, 0, :updated)"
    " ON CONFLICT (platform, chat_id, kind, user_id) DO UPDATE SET games = ratings.games RETURNING mu, sigma, games")
SAVE_RATING = Query(
    "INSERT INTO ratings (platform, chat_id, kind, user_id, name, mu, sigma, games, updated)"
    " VALUES (:platform, :chat_id, :kind, :user_id, :name, :mu, :sigma, :games, :updated)"
    " ON CONFLICT (platform, chat_id, kind, user_id) DO UPDATE SET name = excluded.name, mu = excluded.mu,"
    " sigma = excluded.sigma, games = excluded.games, updated = excluded.updated")
INSERT_RATING_STEP = Query(
    "INSERT INTO rating_history (game_id, platform, chat_id, kind, user_id, mu, sigma, games, at)"
    " VALUES (:game_id, :platform, :chat_id, :kind, :user_id, :mu, :sigma, :games, :at)")
PLAYER_RATINGS = Query(  # a player's ratings in one chat (or '*': across chats), per game kind
    "SELECT kind, name, mu, sigma, games FROM ratings WHERE platform = :platform AND chat_id = :chat_id"
    ' AND user_id = :user_id ORDER BY kind COLLATE "C"')
RATING_STEPS = Query(  # a player's last rated games in one chat and game, newest first
    "SELECT at, mu, sigma, games FROM rating_history WHERE platform = :platform AND chat_id = :chat_id"
    " AND kind = :kind AND user_id = :user_id ORDER BY id DESC LIMIT :limit")
TOP_RATED_EVERYWHERE = Query(  # this chat's rated players by their rating across chats, with this chat's names
    "SELECT h.user_id, h.name, a.mu, a.sigma, a.games FROM ratings h JOIN ratings a ON a.platform = h.platform"
    " AND a.chat_id = :everywhere AND a.kind = h.kind AND a.user_id = h.user_id WHERE h.platform = :platform"
    " AND h.chat_id = :chat_id AND h.kind = :kind"
    ' ORDER BY a.mu - 3 * a.sigma DESC, a.games DESC, h.name COLLATE "C" LIMIT :limit')
# the replay of `python -m bot ratings rebuild`: finished games in the order they ended, which is the
# order of their last events (the final move logs its events in its transaction); or one chat's of one kind
_FINISHED = f"SELECT {_GAME_COLS}, updated FROM games g WHERE over = 1"
_ENDED = " ORDER BY COALESCE((SELECT MAX(e.id) FROM events e WHERE e.game_id = g.id), 0), updated, id"
FINISHED_GAMES = Query(_FINISHED + _ENDED)
FINISHED_GAMES_OF = Query(_FINISHED + " AND platform = :platform AND chat_id = :chat_id AND kind = :kind" + _ENDED)
SET_FINISHED_STATE = Query(  # a finished game's final state rewritten: its time stays (the replay's order),
    # its version counts the change (a rebuild that replayed the state before sees it: FINISHED_STAMP)
    "UPDATE games SET state = :state, version = version + 1 WHERE id = :id AND over = 1")
FINISHED_STAMP = Query(  # what the rebuild's replay saw: a game ended, or a stored final state changed
    "SELECT COUNT(*), COALESCE(SUM(version), 0) FROM games WHERE over = 1")
CLEAR_RATINGS = Query("DELETE FROM ratings")
CLEAR_RATING_HISTORY = Query("DELETE FROM rating_history")
CLEAR_RATINGS_OF = Query("DELETE FROM ratings WHERE platform = :platform AND chat_id = :chat_id AND kind = :kind")
CLEAR_RATING_HISTORY_OF = Query("DELETE FROM rating_history WHERE platform = :platform AND chat_id = :chat_id"
                                " AND kind = :kind")
SAVE_REBUILT = Query(
    "INSERT INTO ratings (platform, chat_id, kind, user_id, name, mu, sigma, games, updated)"
    " VALUES (:platform, :chat_id, :kind, :user_id, :name, :mu, :sigma, :games, :updated)")
TOP_RATED = Query(  # the conservative rating (openskill's ordinal, mu - 3 sigma) first
    "SELECT user_id, name, mu, sigma, games FROM ratings WHERE platform = :platform AND chat_id = :chat_id"
    ' AND kind = :kind ORDER BY mu - 3 * sigma DESC, games DESC, name COLLATE "C" LIMIT :limit')

