"""/mydata, /forgetme and achievements on PostgreSQL: the same tests, the scan over information_schema."""

from tests.yourdata.test_achievements import (  # noqa: F401
    test_a_week_of_dailies,
    test_earned_once_announced_listed_and_replayed,
)
from tests.yourdata.test_cap_survives_forgetme import test_forgetme_does_not_reset_the_pair_cap  # noqa: F401
from tests.yourdata.test_declared import (  # noqa: F401  (collected here again, on PostgreSQL)
    test_every_personal_looking_column_is_declared,
)
from tests.yourdata.test_forgetme import (  # noqa: F401
    test_a_club_evening_they_set_and_answered_keeps_its_count,
    test_a_kegel_evening_they_score_goes_on,
    test_a_running_game_is_resigned_first,
    test_forgetme_leaves_no_trace_and_the_others_stats_stay,
    test_only_the_asker_here_and_in_time,
    test_the_cash_box_they_kept_keeps_its_lines,
)
from tests.yourdata.test_mydata import test_mydata_sends_the_players_own_data_privately  # noqa: F401
