"""The cash box's automatic lines, in the transactions that change what happened: the fines a club game's
throws call for (after each of its moves: bot/club/games.py `move_job`) and a /kegelmerge's moved balance
(in the merge's own transaction). Both only ever append lines (core/club/cash/ledger.py `corrections`, `merged`)."""

from __future__ import annotations

from bot.club.cash import attendance as cash_attendance
from bot.club.cash import storage as cash_storage
from bot.storage.base import GameRow
from bot.storage.sql import Tx, TxJob
from core import names
from core.club.cash import ledger as cash
from core.club.records import Played


def move_job(row: GameRow, new: Played, now: float) -> TxJob:
    """After a move: the difference between what the game's state calls for and what the book holds for
    the game, booked. A chat whose cash box is off books nothing for a game it has not booked yet (nothing
    is booked silently before the club turns it on); a game booked already is kept true to its throws
    (an /undo after the box was turned off still takes its fine back)."""
    async def job(tx: Tx) -> None:
        if not new.club:
            return  # a casual game books nothing (the club's gate, docs/club.md)
        if not await cash_storage.in_use(tx, row.platform, row.chat_id, row.id):
            return  # one read per move for a club without a cash box
        settings, catalogue = await cash_storage.settings_in(tx, row.platform, row.chat_id)
        lines = await cash_storage.game_lines_in(tx, row.platform, row.chat_id, row.id)
        if not settings.enabled and not lines:
            return
        due = cash.corrections(cash.booked(lines, row.id), cash.wanted(new, catalogue), row.id, now)
        written = {names.key(name): name for name in new.names}
        await cash_storage.append(tx, row.platform, row.chat_id, due, written)
        if settings.enabled and settings.charge_absent and new.done:  # an evening's game done: its ❌ list
            # is offered later, once
            await cash_attendance.schedule_offer(tx, row.platform, row.chat_id, now)
    return job


def merge_job(platform: str, chat_id: str, old: str, new: str, old_name: str, new_name: str, now: float,
              by: str, by_name: str) -> TxJob:
    """/kegelmerge OLD NEW (names.key both): OLD's automatic fines per game and the rest of OLD's balance
    moved to NEW, in the merge's transaction (bot/club/records.py `merge_job(after=…)`)."""
    async def job(tx: Tx) -> None:
        lines = await cash_storage.lines_in(tx, platform, chat_id)
        moved = cash.merged(lines, old, new, now, by)
        await cash_storage.append(tx, platform, chat_id, moved, {old: old_name, new: new_name}, by_name)
        await cash_storage.merge_member(tx, platform, chat_id, old, new, new_name)  # the dues follow the name
    return job
