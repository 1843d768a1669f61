"""Fair play that survives /forgetme: the repetition rule's memory of rated pairs, by keyed hash only.

The pair cap (`core.ratings.repeated`: at most 3 rated games of the same players a day) must still know
a returning account after a /forgetme rewrote its old rows to a random token. So each rated game of human
players leaves a row in `rated_pairs` (migration 15): the game, when it ended, whether the cap counted
it, and — only for the cap's 24 hours — `core.ratings.pair_hash` of its players' platform ids under the
bot's own key (`fair_play_key`, 32 random bytes drawn once, at the first rated game). Older hashes are
set to NULL (`forget_old`) by the next rated game or /forgetme; the decision stays, so the ratings rebuild
decides every game as the live rule did (bot/app/ratings_rebuild.py). docs/retention.md says what is kept.
`shares`: the newcomer discount's inputs, read as the rebuild tracks them."""

from __future__ import annotations

import secrets

from bot.storage.sql import Query, Tx
from core import ratings

KEY = Query("SELECT key FROM fair_play_key WHERE id = 1")
NEW_KEY = Query("INSERT INTO fair_play_key (id, key) VALUES (1, :key)")
SINCE = Query("SELECT at FROM rated_pairs WHERE platform = :platform AND kind = :kind AND pair = :pair"
              " AND counted = 1 AND at >= :since")
NOTE = Query("INSERT INTO rated_pairs (game_id, platform, kind, pair, at, counted)"
             " VALUES (:game_id, :platform, :kind, :pair, :at, :counted)")
FORGET_OLD = Query("UPDATE rated_pairs SET pair = NULL WHERE pair IS NOT NULL AND at < :before")
BEFORE = Query(  # a pair's rated games of the day the upgrade to migration 15 came: not in `rated_pairs`,
    # so matched by ids in the history across chats, as the rule did before (with all their players)
    "SELECT game_id, user_id, at FROM rating_history WHERE platform = :platform AND chat_id = :chat_id"
    " AND kind = :kind AND at >= :since AND game_id NOT IN (SELECT game_id FROM rated_pairs)"
    " AND game_id IN (SELECT game_id FROM rating_history WHERE platform = :platform AND chat_id = :chat_id"
    " AND kind = :kind AND user_id = :user_id AND at >= :since)")
DECISIONS = Query("SELECT game_id, counted FROM rated_pairs")
FIRST_RATED = Query("SELECT MIN(at) FROM rating_history WHERE platform = :platform AND chat_id = :chat_id"
                    " AND kind = :kind AND user_id = :user_id")
UNCLAIM = Query("DELETE FROM ratings WHERE platform = :platform AND chat_id = :chat_id AND kind = :kind"
                " AND user_id = :user_id AND games = 0")


async def key(tx: Tx) -> bytes:
    """The bot's key for the keyed hashes: drawn at the first use and kept in the database."""
    row = await tx.fetchrow(KEY)
    if row is None:
        await tx.insert_unique(NEW_KEY, key=secrets.token_hex(32))  # another process may draw it first
        row = await tx.fetchrow(KEY)
    assert row is not None
    return bytes.fromhex(str(row[0]))


async def forget_old(tx: Tx, now: float) -> None:
    """The pair hashes the cap can no longer need (older than its window) are dropped."""
    await tx.execute(FORGET_OLD, before=now - ratings.PAIR_WINDOW - 1)


async def counted(tx: Tx, platform: str, kind: str, pair: frozenset[str], now: float, game_id: int) -> bool:
    """Whether the repetition rule counts this game of `pair` ending `now` (the same players' rated games
    within the window, matched by keyed hash), noted with the game. The players' rows across chats are
    claimed already (store.py `_claim_pair`): two games of one pair that end at once are decided in turn;
    a game left out drops the empty rows that claim created (a rebuild creates none for it)."""
    hashed = ratings.pair_hash(await key(tx), platform, kind, pair)
    since = now - ratings.PAIR_WINDOW - 1
    times = [float(r[0]) for r in await tx.fetch(SINCE, platform=platform, kind=kind, pair=hashed, since=since)]
    players: dict[int, set[str]] = {}
    ended: dict[int, float] = {}
    for game_id_, user_id, at in await tx.fetch(BEFORE, platform=platform, chat_id=ratings.EVERYWHERE, kind=kind,
                                                since=since, user_id=min(pair)):
        players.setdefault(int(game_id_), set()).add(str(user_id))
        ended[int(game_id_)] = float(at)
    times += [ended[g] for g, who in players.items() if who == pair]
    ok = not ratings.repeated(times, now)
    await tx.execute(NOTE, game_id=game_id, platform=platform, kind=kind, pair=hashed, at=now, counted=int(ok))
    await forget_old(tx, now)
    if not ok:
        for user_id in sorted(pair):
            await tx.execute(UNCLAIM, platform=platform, chat_id=ratings.EVERYWHERE, kind=kind, user_id=user_id)
    return ok


async def shares(tx: Tx, platform: str, kind: str, match: ratings.Match,
                 everywhere: dict[str, ratings.Rating], now: float) -> dict[str, float]:
    """The newcomer discount (`core.ratings.weights`) of a match's players: from their ratings across
    chats before it (`everywhere`, claimed) and when their first rated game of the kind ended (the history
    across chats) — what `core.ratings.rebuild` tracks as it replays."""
    first = {}
    for user_id in match.rated:
        at = await tx.fetchval(FIRST_RATED, platform=platform, chat_id=ratings.EVERYWHERE, kind=kind, user_id=user_id)
        if at is not None:
            first[user_id] = float(at)
    return ratings.weights(match, everywhere, first, now)
