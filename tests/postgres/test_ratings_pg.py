"""Skill ratings on PostgreSQL: the operators' rebuild gives exactly the stored ratings and history,
which agree with openskill per chat and across chats (`db` is a postgresql:// URL here, see conftest)."""

from tests.app.test_ratings_rebuild import (  # noqa: F401  (collected here again, on PostgreSQL)
    test_rebuild_gives_exactly_the_stored_ratings_and_history,
)
