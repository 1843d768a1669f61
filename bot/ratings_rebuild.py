"""`python -m bot ratings rebuild`: every skill rating and its history, replayed from scratch.

The stored finished games are the source: each game's row keeps its final state (and the event
log the bot's level of a game against the bot), so a replay asks every game's own `rated` hook
(bot/services.py `GamePlugin.rated`) for the same `Match` the game gave when it ended — no game's
rating rules are written twice. The matches are folded in the order the games ended
(`core.ratings.rebuild`: per chat and across chats) and the store replaces the `ratings` and
`rating_history` tables with the result in one transaction; if a game ended during the replay,
the replay runs again (a game that ends during that transaction is rated on top of it afterwards).
"""

from __future__ import annotations

from dataclasses import dataclass

from bot.services import Services, loaded
from bot.storage.store import RatingsMoved
from core import ratings

ATTEMPTS = 5


@dataclass(frozen=True)
class Rebuilt:
    games: int  # finished games replayed
    rated: int  # of them, rated
    ratings: int  # ratings written (per chat and across chats)
    steps: int  # history rows written


async def replay(svc: Services) -> tuple[int, list[ratings.Rated]]:
    """How many games have ended, and the rated ones among them as matches, in the order they ended."""
    finished = await svc.store.finished_games()
    rated = []
    for row, at in finished:
        plugin = svc.plugins.get(row.kind)
        if plugin is None:
            continue
        game, state = loaded(row)
        match = await plugin.rated(svc, row, state, svc.results(game, state))
        if match is not None:
            rated.append(ratings.Rated(row.platform, row.chat_id, row.kind, row.id, at, match))
    return len(finished), rated


async def rebuild(svc: Services) -> Rebuilt:
    """Replay every finished game and replace the ratings and their history in one transaction."""
    for _ in range(ATTEMPTS):
        finished, rated = await replay(svc)
        current, history = ratings.rebuild(rated)
        try:
            await svc.store.rewrite_ratings(list(current.values()), history, finished)
        except RatingsMoved:
            continue
        return Rebuilt(finished, len(rated), len(current), len(history))
    raise RatingsMoved(f"games kept ending during {ATTEMPTS} replays; run the rebuild again")
