"""The App's core duel flows, unchanged, on PostgreSQL: `db` is a postgresql:// URL here (see conftest)."""

from bot.app.app import App
from bot.storage.postgres import PostgresStore
from tests.app.test_duel_flow import (  # noqa: F401  (collected here again, on PostgreSQL)
    test_concurrent_guesses_never_lose_or_double_a_move,
    test_duplicate_platform_events_are_applied_once,
    test_many_duels_at_once_all_finish,
    test_open_challenge_and_one_game_per_chat,
    test_resign_records_a_win_for_the_other,
    test_restart_mid_secret_entry_and_mid_duel,
    test_starter_cracks_second_misses,
    test_stats_show_rating_names_in_the_readers_language,
    test_timeout_is_recorded,
    test_wrong_turn_and_invalid_guesses_change_nothing,
)
from tests.app.test_rematch_offers import (  # noqa: F401  (two processes' presses at once: one offer)
    test_two_processes_pressing_rematch_at_once_make_one_offer,
)
from tests.app.test_timed_out_stats import (  # noqa: F401  (timed-out games in /stats and /stats logik)
    test_a_timed_out_practice_is_abandoned_not_lost,
    test_timed_out_logik_games_show_in_stats_logik,
)


async def test_the_app_runs_on_postgres(app: App) -> None:
    assert isinstance(app.store, PostgresStore)


# the table of tests/games/kegeln: alice the club's scorer, so her games are club games (docs/club.md)
# the Kegel season (the season table, the review, the export by season, members merged)
from tests.club.test_season import (  # noqa: E402, F401
    test_export_carries_the_season,
    test_merge_seen_through_the_app,
    test_season_table_and_review_in_every_language,
)
from tests.games.kegeln.conftest import table  # noqa: E402, F401

# Hausnummern (its statistics tables are written by the store's kegeln job in the move's transaction)
# Logik (results by side)
from tests.games.kegeln.test_app import (  # noqa: E402, F401
    test_concurrent_entries_are_serialised,
    test_restart_mid_game,
    test_scorer_hands_over_and_admins_may_act,
    test_statistics_after_a_scripted_evening,
)
from tests.games.logik.test_app_flow import (  # noqa: E402, F401
    test_restart_between_the_two_rows_of_a_round,
    test_statistics_by_side,
)
