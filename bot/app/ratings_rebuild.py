"""`python -m bot ratings rebuild`: every skill rating and its history, replayed from scratch.

The stored finished games are the source: each game's row keeps its final state (and the event
log the bot's level of a game against the bot), so a replay asks every game's own `rated` hook
(bot/games/plugin.py `GamePlugin.rated`) for the same `Match` the game gave when it ended — no game's
rating rules are written twice. The matches are folded in the order the games ended
(`core.ratings.rebuild`: per chat and across chats) and the store replaces the `ratings` and
`rating_history` tables with the result in one transaction; if a game ended during the replay (or a
/kegelmerge rewrote stored states), the replay runs again (a game that ends during that transaction
is rated on top of it afterwards). `/kegelmerge` replays one Kegel club's ratings through the same
functions (`replay_local`).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from bot.app.move_types import results
from bot.app.runner import loaded
from bot.games.plugin import Services
from bot.storage import fair_play
from bot.storage.base import FinishedStamp, GameRow
from bot.storage.store import RatingsMoved
from core import ratings

ATTEMPTS = 5


@dataclass(frozen=True)
class Rebuilt:
    games: int  # finished games replayed
    rated: int  # of them, rated
    ratings: int  # ratings written (per chat and across chats)
    steps: int  # history rows written


async def matches(svc: Services, finished: Sequence[tuple[GameRow, float]],
                  decided: Mapping[int, bool] | None = None) -> list[ratings.Rated]:
    """The rated ones among finished games (with the times they ended) as matches, in the given order:
    each game's own `rated` hook on its stored final state, with the pair cap's decision when the game
    ended (`decided`, bot/storage/fair_play.py: it matched the players by keyed hash, which no /forgetme
    changes)."""
    decided = decided or {}
    rated = []
    for row, at in finished:
        plugin = svc.plugins.get(row.kind)
        if plugin is None:
            continue
        game, state = loaded(row)
        match = await plugin.rated(svc, row, state, results(game, state))
        if match is not None:
            rated.append(ratings.Rated(row.platform, row.chat_id, row.kind, row.id, at, match, decided.get(row.id)))
    return rated


async def replay(svc: Services) -> tuple[FinishedStamp, list[ratings.Rated]]:
    """Which games have ended (how many, and their versions: `Store.finished_stamp`), and the rated ones
    among them as matches, in the order they ended."""
    finished = await svc.store.finished_games()
    decided = {int(g): bool(c) for g, c in await svc.store.fetch(fair_play.DECISIONS)}  # the pair cap's, live
    return svc.store.finished_stamp(finished), await matches(svc, finished, decided)


async def replay_local(svc: Services, finished: Sequence[tuple[GameRow, float]]
                       ) -> tuple[list[ratings.Step], list[ratings.Step]]:
    """The ratings and their history of one chat's games of one kind rated in that chat only
    (`GamePlugin.rated_in_chat`), replayed from `finished` — every finished game of that chat and kind in the
    order they ended — exactly as `rebuild` replays them: the Kegel club's, after /kegelmerge renamed a
    member in its stored games (bot/club/records.py `merge_job`, in the merge's transaction)."""
    if any(not svc.plugins[row.kind].rated_in_chat for row, _at in finished):
        raise ValueError("only the games of a kind rated in its chat alone can be replayed for one chat")
    current, history = ratings.rebuild(await matches(svc, finished))
    return list(current.values()), history


async def rebuild(svc: Services) -> Rebuilt:
    """Replay every finished game and replace the ratings and their history in one transaction."""
    for _ in range(ATTEMPTS):
        finished, rated = await replay(svc)
        current, history = ratings.rebuild(rated)
        try:
            await svc.store.rewrite_ratings(list(current.values()), history, finished)
        except RatingsMoved:
            continue
        return Rebuilt(finished[0], len(rated), len(current), len(history))
    raise RatingsMoved(f"games kept ending during {ATTEMPTS} replays; run the rebuild again")
