"""Skill ratings on PostgreSQL: the operators' rebuild gives exactly the stored ratings and history,
which agree with openskill per chat and across chats (`db` is a postgresql:// URL here, see conftest),
also after /kegelmerge (and who may merge, its confirmation, a game started during the merge);
two games of one player that end at once on two connections both count in the rating across chats."""

import asyncio

from bot.storage.postgres import PostgresStore
from bot.storage.sql import Tx
from core import ratings
from core.ratings import Match
from tests.app.test_newcomer_discount import test_a_win_over_a_newcomer_counts_for_less  # noqa: F401
from tests.app.test_ratings_rebuild import (  # noqa: F401  (collected here again, on PostgreSQL)
    test_rebuild_gives_exactly_the_stored_ratings_and_history,
)
from tests.club.test_merge_ratings import (  # noqa: F401  (collected here again, on PostgreSQL)
    test_a_game_after_the_merge_rates_on_top_of_it,
    test_rating_and_top_after_the_merge,
    test_the_merge_stores_what_a_rebuild_gives,
)
from tests.club.test_merge_trust import (  # noqa: F401  (collected here again, on PostgreSQL)
    test_a_confirmation_pressed_by_someone_else_is_refused,
    test_a_game_started_with_the_old_name_during_the_merge_is_seen,
    test_a_scorer_of_a_running_game_cannot_merge_members_of_games_others_scored,
    test_a_stale_confirmation_after_the_records_changed_is_refused,
)


async def test_two_games_of_one_player_ending_at_once_both_count_across_chats(pg_url: str) -> None:
    """Two chats' games of alice end at once (two transactions): the second one's rating job waits
    for the first one's rows and rates on top of them — no lost update of the rating across chats."""
    store = PostgresStore(pg_url)
    await store.open()
    try:
        first = Match((("alice",), ("bob",)), (1.0, 2.0), {"alice": "Alice", "bob": "Bob"})
        second = Match((("alice",), ("carl",)), (1.0, 2.0), {"alice": "Alice", "carl": "Carl"})
        g1 = await store.create_game("test", "g1", False, "duel", {}, [], [], 1.0)
        g2 = await store.create_game("test", "g2", False, "duel", {}, [], [], 1.0)
        written = asyncio.Event()

        async def slow(tx: Tx) -> None:  # the first game's transaction stays open a moment after its writes
            await store.rating_job("test", "g1", "duel", first, 1.0, g1)(tx)
            written.set()
            await asyncio.sleep(0.3)

        async def then() -> None:
            await written.wait()
            await store.run(store.rating_job("test", "g2", "duel", second, 2.0, g2))

        await asyncio.gather(store.run(slow), then())
        current, _history = ratings.rebuild([ratings.Rated("test", "g1", "duel", g1, 1.0, first),
                                             ratings.Rated("test", "g2", "duel", g2, 2.0, second)])
        want = current[("test", ratings.EVERYWHERE, "duel", "alice")].rating  # carl is newer: the discount
        got = (await store.player_ratings("test", ratings.EVERYWHERE, "alice"))["duel"]
        assert (got.mu, got.sigma, got.games) == (want.mu, want.sigma, 2)
    finally:
        await store.close()
