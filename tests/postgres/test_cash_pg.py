"""The cash box on PostgreSQL: the App tests of tests/games/kegeln/test_cash_app.py collected again with a
postgresql:// `db` — the cash book's schema, its writes in the move's and the merge's transactions, the
treasurer's bookings, the CSV and the carry — and two processes booking one game's fines at once."""

from tests.games.kegeln.test_cash_app import (  # noqa: F401  (collected here again, on PostgreSQL)
    test_a_cancelled_game_takes_its_fines_back,
    test_a_teams_fine_is_spread_over_its_members,
    test_amounts_never_go_fractional_or_overflow,
    test_another_chat_sees_and_books_nothing_of_this_one,
    test_fines_follow_the_throws_and_undo_books_them_back,
    test_nothing_is_booked_before_the_club_turns_it_on,
    test_only_the_treasurer_books_money_and_each_refusal_says_why,
    test_the_absent_pay_the_evenings_average,
    test_the_cash_book_as_csv_and_the_carry,
    test_the_catalogue_is_the_clubs,
    test_the_merge_moves_the_fines,
    test_the_year_review_shows_the_seasons_cash,
    test_two_processes_book_each_fine_once,
)
