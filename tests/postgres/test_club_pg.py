"""The club's wing on PostgreSQL: an older bot's evening reminders moved to the club and posted once."""

from tests.club.test_wing_upgrade import (  # noqa: F401  (collected here again, on PostgreSQL)
    test_the_reminders_of_an_older_bot_are_the_club_s_and_posted,
)
