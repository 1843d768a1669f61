"""The club's tables and the Schemas that build them, with what /forgetme and /mydata do with their data.

Two lists, by where each table was first shipped — a shipped migration never changes, and a list's
version is kept under its owner's name (`schema_versions`), so moving a table to another list would need
a migration of that bookkeeping that every store applies in one order; not worth the risk:
- `club` (bot/club/storage.py): the roles and the roster; its entry 2 gives the evenings' reminders an
  owner of their own.
- the tables shipped under the club's game's own name (`kegeln`): the evenings (`kegel_evening_*`,
  bot/club/evenings/storage.py) and the cash box (`kegel_cash_*`, bot/club/cash/storage.py), built by
  `shipped_under(kind)`; the game's plugin names that Schema (the owner is its kind), the club owns
  every read and write of them.
The club's records (`kegeln_games`, `kegeln_members`, `kegeln_throws`, `kegeln_seasons`) are in the shared
list (bot/storage/migrations.py 2 and 7); bot/club/records.py reads and writes them."""

from __future__ import annotations

from bot.club import records
from bot.club import storage as roster
from bot.club.cash import storage as cash
from bot.club.evenings import storage as evenings
from bot.storage.schemas import Schema
from bot.yourdata.declare import Kept, Personal

CLUB = roster.SCHEMA


def shipped_under(owner: str) -> Schema:
    """The evenings' and the cash box's tables, as first shipped in the club's game's own list (`owner`,
    the game's kind: its version number is kept under that name): the evenings' entry first, then the
    cash box's; and the moves of every club table with a chat id that is in no list of the club's own."""
    return Schema(owner, evenings.EVENING_MIGRATIONS + cash.CASH_MIGRATIONS,
                  chat_moves=(*records.CHAT_MOVES, *evenings.EVENING_CHAT_MOVES, *cash.CHAT_MOVES))


# the club's records: members are names the scorer types, not accounts (a /forgetme keeps them)
PERSONAL = (
    Kept("kegeln_members", ("member", "name"), "a club member's name: the club's records"),
    Kept("kegeln_throws", ("member", "name"), "a club member's name: the club's records"),
    Kept("kegeln_games", ("winner",), "a club member's name: the club's records"),
    # the club evenings: who set one, who answered — accounts, so personal; anonymised, so that an
    # evening's list and counts stay as they were
    Personal("kegel_evening_dates", user="set_by"),
    Personal("kegel_evening_answers", user="user_id", name="name", platform="",
             where="evening_id IN (SELECT id FROM kegel_evening_dates WHERE platform = :platform)"),
    # the cash box: the treasurer and who booked a line are accounts, anonymised (the lines, amounts and
    # balances stay: a member is the club's record, kept)
    Personal("kegel_cash_settings", user="treasurer_id", name="treasurer_name"),
    Personal("kegel_cash_book", user="by_id", name="by_name"),
    Kept("kegel_cash_book", ("member", "name"), "a club member's name: the club's records"),
    Kept("kegel_cash_members", ("member", "name"), "a club member's name: the club's records"),
    Personal("kegel_cash_members", user="user_id"),  # the account linked to a member: unlinked
    Kept("kegel_cash_fines", ("name",), "a fine's name the club chose: nobody's data"),
    # the club's roles and roster: an appointed scorer is an account (the role goes); a member's linked
    # account is anonymised (the member, a name, stays the club's)
    Personal("club_roles", user="user_id", name="name", forget="delete"),
    Personal("club_roles", user="by_id"),
    Personal("club_members", user="user_id"),
    Personal("club_members", user="added_by"),
    Kept("club_members", ("member", "name"), "a club member's name: the club's roster"),
)
