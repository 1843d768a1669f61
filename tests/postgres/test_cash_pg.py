"""The cash box on PostgreSQL: the App tests of tests/club/test_cash_app.py collected again with a
postgresql:// `db` — the cash book's schema, its writes in the move's and the merge's transactions, the
treasurer's bookings, the CSV and the carry, and of test_cash_treasurer.py (fine names, reasons, members,
fees, dues, expenses, the export, a linked member, the evening's absent) — and two processes booking one
game's fines at once."""

import asyncio

import pytest

from bot.app.app import App
from bot.club.cash import storage as cash_storage
from bot.storage.sql import Tx
from core.club.cash.ledger import Line
from tests.app.conftest import Clock
from tests.app.harness import Table
from tests.club.test_cash_app import (  # noqa: F401  (collected here again, on PostgreSQL)
    admin,
    book,
    test_a_cancelled_game_takes_its_fines_back,
    test_a_members_lines,
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
    test_two_processes_carry_and_charge_once,
    turned_on,
)
from tests.club.test_cash_treasurer import (  # noqa: F401  (the treasurer's book, on PostgreSQL too)
    test_a_linked_member_opts_in_to_a_monthly_private_reminder,
    test_a_linked_member_reads_their_statement_privately_and_is_reminded,
    test_a_merged_member_keeps_their_place_in_the_box_and_one_who_left_pays_no_dues,
    test_a_reason_on_every_manual_line_in_the_statement_and_the_export,
    test_after_an_evening_the_offer_comes_by_itself_once,
    test_an_automatic_fine_is_renamed_and_booked_under_its_new_name,
    test_members_fees_dues_expenses_and_the_till,
    test_the_box_off_stops_new_games_never_collecting,
    test_the_dues_come_on_the_clubs_own_day_and_dues_off_leaves_the_reminders,
    test_the_evenings_absent_are_offered_to_the_treasurer_with_one_button,
    test_the_export_is_a_real_xlsx_and_a_csv_in_the_readers_conventions,
)
from tests.club.test_season import at, game
from tests.games.kegeln.conftest import table  # noqa: F401  (alice, the club's scorer: her games are club games)


async def test_a_carry_made_twice_at_the_same_moment_is_booked_once(
        table: Table, db: str, clock: Clock, monkeypatch: pytest.MonkeyPatch) -> None:  # noqa: F811
    """Two processes close the year at the same moment, each transaction pausing between reading the book
    and appending (as a slow connection would): the chat's lock makes the second read after the first
    commit, so the balance is carried once. Without the lock both would carry it (tested: it fails so)."""
    lines_in = cash_storage.lines_in

    async def slow(tx: Tx, platform: str, chat_id: str) -> list[Line]:
        lines = await lines_in(tx, platform, chat_id)
        await asyncio.sleep(0.3)
        return lines
    other = await App.open(db, seed=7, clock=clock, idle_timeout=3600)
    try:
        clock.now = at(2025, 11, 7)
        await turned_on(table)
        await game(table, "high", {"Birgit": (0, 9), "Klaus": (5, 5)})
        clock.now = at(2026, 1, 9)
        monkeypatch.setattr(cash_storage, "lines_in", slow)
        await asyncio.gather(admin(table, "/kasse carry"), admin(Table(other), "/kasse carry"))
        carried = [(m, a) for m, k, a, *_ in await book(table) if k == "carry"]
        assert sorted(carried) == [("birgit", -60), ("birgit", 60)]
    finally:
        await other.close()
