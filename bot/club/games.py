"""How a game reports to the club: after each of its moves the game hands the club what the move did, as
the club's own words for a game (core/club/records.py `Played`), and `move_job` writes what that means for
the club in the move's own transaction (nothing lost on a kill -9). The questions the club asks of a stored
game are bot/club/host.py's `ClubGames`; the club never reads a game's state."""

from __future__ import annotations

from bot.app.runner import both
from bot.club import records
from bot.club import storage as roster
from bot.club.cash import fines
from bot.storage.base import GameRow
from bot.storage.sql import Tx, TxJob
from core.club.records import Played


def move_job(row: GameRow, before: Played, after: Played, now: float) -> TxJob | None:
    """For a game's writes (`GamePlugin.writes`): what the move means for the club, in its transaction —
    on the final move of a completed club game its records and its names on the roster; after every move
    of a club game the cash box's fines kept true to the throws (an /undo or a /cancel takes them back)."""
    if not after.club:
        return None  # a casual game gives the club nothing (docs/club.md)
    jobs: list[TxJob] = [fines.move_job(row, after, now)]
    if after.counts and not before.done:
        jobs.append(record_job(row, after, now))
    return jobs[0] if len(jobs) == 1 else both(jobs[1], jobs[0])  # the records first, then the fines


def record_job(row: GameRow, after: Played, now: float) -> TxJob:
    async def job(tx: Tx) -> None:
        await records.record_in(tx, row.id, row.platform, row.chat_id, after, now)
        await roster.add_in(tx, row.platform, row.chat_id, {m.name.casefold(): m.name for m in after.members},
                            after.scorer, now)
    return job
