"""The cash box's storage (core/club/cash/ledger.py): the club's tables `kegel_cash_*` (shipped in Kegeln's own
schema: bot/club/schema.py) — a chat's settings, its fine catalogue and the append-only cash book — their
queries, rows and write jobs.

The cash book is only ever inserted into: no statement here updates or deletes a line (a correction is a new
line); the one UPDATE moves a Telegram group's book to its supergroup's id (`CHAT_MOVES`). Everything is keyed
by platform and chat: no query reads another chat's money. Rows are built by column name (storage.Select).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import NamedTuple

from bot.club.records import SEASON_START, _select
from bot.storage.base import Store
from bot.storage.migrations import Migration
from bot.storage.sql import Query, Tx
from core.club.cash.ledger import DEFAULT_FINES, Catalogue, Fine, Kind, Line, Trigger
from core.club.season import Start

CASH_MIGRATIONS: tuple[Migration, ...] = (
    # kegeln 2 (after the evenings' 1, EVENING_MIGRATIONS): the cash box — settings per chat, its fine catalogue,
    # the append-only cash book
    Migration("""
    CREATE TABLE kegel_cash_settings (
        platform       TEXT NOT NULL,
        chat_id        TEXT NOT NULL,
        enabled        INTEGER NOT NULL DEFAULT 0,
        currency       TEXT NOT NULL DEFAULT 'EUR',
        charge_absent  INTEGER NOT NULL DEFAULT 0,
        custom_fines   INTEGER NOT NULL DEFAULT 0,
        treasurer_id   TEXT NOT NULL DEFAULT '',
        treasurer_name TEXT NOT NULL DEFAULT '',
        PRIMARY KEY (platform, chat_id)
    );
    CREATE TABLE kegel_cash_fines (
        platform TEXT NOT NULL,
        chat_id  TEXT NOT NULL,
        code     TEXT NOT NULL,
        emoji    TEXT NOT NULL,
        amount   INTEGER NOT NULL,
        trigger  TEXT NOT NULL,
        seq      INTEGER NOT NULL,
        PRIMARY KEY (platform, chat_id, code)
    );
    CREATE TABLE kegel_cash_book (
        id       {SERIAL} PRIMARY KEY,
        platform TEXT NOT NULL,
        chat_id  TEXT NOT NULL,
        at       {REAL} NOT NULL,
        season   INTEGER NOT NULL,
        member   TEXT NOT NULL,
        name     TEXT NOT NULL,
        kind     TEXT NOT NULL,
        amount   {BIGINT} NOT NULL,
        code     TEXT NOT NULL DEFAULT '',
        note     TEXT NOT NULL DEFAULT '',
        game_id  {BIGINT},
        by_id    TEXT NOT NULL DEFAULT '',
        by_name  TEXT NOT NULL DEFAULT ''
    );
    CREATE INDEX kegel_cash_book_chat ON kegel_cash_book (platform, chat_id, season);
    CREATE INDEX kegel_cash_book_game ON kegel_cash_book (game_id);
    """),
    # kegeln 3: a fine's name as the club calls it (seeded in the chat's language; '' = the reader's language)
    Migration("""
    ALTER TABLE kegel_cash_fines ADD COLUMN name TEXT NOT NULL DEFAULT '';
    """),
    # kegeln 4: members the treasurer added (no game needed: an entry fee, dues), each maybe linked to a chat
    # account (their own statement privately, a monthly reminder they opted in to), and the club's dues
    Migration("""
    CREATE TABLE kegel_cash_members (
        platform TEXT NOT NULL,
        chat_id  TEXT NOT NULL,
        member   TEXT NOT NULL,
        name     TEXT NOT NULL,
        at       {REAL} NOT NULL,
        user_id  TEXT NOT NULL DEFAULT '',
        remind   INTEGER NOT NULL DEFAULT 0,
        PRIMARY KEY (platform, chat_id, member)
    );
    ALTER TABLE kegel_cash_settings ADD COLUMN dues {BIGINT} NOT NULL DEFAULT 0;
    ALTER TABLE kegel_cash_settings ADD COLUMN dues_every TEXT NOT NULL DEFAULT '';
    """),
)

# A Telegram group became a supergroup (bot/storage/store.py `migrate_chat`): the cash box moves along —
# the only UPDATE of the cash book, which changes the chat's id and nothing of a line
CHAT_MOVES = (
    Query("UPDATE kegel_cash_settings SET chat_id = :new WHERE platform = :platform AND chat_id = :old AND NOT"
          " EXISTS (SELECT 1 FROM kegel_cash_settings c WHERE c.platform = :platform AND c.chat_id = :new)"),
    Query("UPDATE kegel_cash_fines SET chat_id = :new WHERE platform = :platform AND chat_id = :old AND NOT"
          " EXISTS (SELECT 1 FROM kegel_cash_fines c WHERE c.platform = :platform AND c.chat_id = :new)"),
    Query("UPDATE kegel_cash_book SET chat_id = :new WHERE platform = :platform AND chat_id = :old"),
    Query("UPDATE kegel_cash_members SET chat_id = :new WHERE platform = :platform AND chat_id = :old AND NOT"
          " EXISTS (SELECT 1 FROM kegel_cash_members c WHERE c.platform = :platform AND c.chat_id = :new)"),
)


class Settings(NamedTuple):
    """A chat's cash box settings (a chat without a row: off, EUR, nobody is treasurer)."""

    enabled: bool = False
    currency: str = "EUR"
    charge_absent: bool = False
    custom_fines: bool = False
    treasurer_id: str = ""
    treasurer_name: str = ""
    dues: int = 0  # the club's dues in minor units, booked to each member the treasurer added …
    dues_every: str = ""  # … every "month" (on the 1st) or "year" (on 1 January); "" for none


class BookLine(NamedTuple):
    """One stored line of the cash book, with the member's name as written and who booked it."""

    id: int
    at: float
    season: int
    member: str
    name: str
    kind: str
    amount: int
    code: str
    note: str
    game_id: int | None
    by_id: str
    by_name: str

    def line(self) -> Line:
        return Line(Kind(self.kind), self.member, int(self.amount), self.code, self.game_id, self.by_id,
                    float(self.at), self.note, int(self.season))


class FineRow(NamedTuple):
    code: str
    emoji: str
    amount: int
    trigger: str
    name: str


JOBS = "kegeln_cash"  # the scheduler's owner of the cash box's jobs (cash_club.py: dues, reminders; the absent offer)
_WHERE = " WHERE platform = :platform AND chat_id = :chat_id"
SETTINGS = _select(Settings, {f: f for f in Settings._fields}, "FROM kegel_cash_settings" + _WHERE)
FINES = _select(FineRow, {f: f for f in FineRow._fields}, "FROM kegel_cash_fines" + _WHERE + " ORDER BY seq")
_BOOK = {f: f for f in BookLine._fields}
BOOK = _select(BookLine, _BOOK, "FROM kegel_cash_book" + _WHERE + " ORDER BY id")
BOOK_OF_SEASON = _select(BookLine, _BOOK, "FROM kegel_cash_book" + _WHERE + " AND season = :season ORDER BY id")
BOOK_OF_GAME = _select(BookLine, _BOOK, "FROM kegel_cash_book" + _WHERE + " AND game_id = :game_id ORDER BY id")
BOOK_SINCE = _select(BookLine, _BOOK, "FROM kegel_cash_book" + _WHERE + " AND at >= :since ORDER BY id")
IN_USE = Query(  # one read for a move in a chat without a cash box: is it on, or has this game lines?
    "SELECT (SELECT enabled FROM kegel_cash_settings" + _WHERE + ") AS enabled,"
    " EXISTS (SELECT 1 FROM kegel_cash_book WHERE game_id = :game_id) AS booked")
INSERT_LINE = Query(
    "INSERT INTO kegel_cash_book (platform, chat_id, at, season, member, name, kind, amount, code, note, game_id,"
    " by_id, by_name) VALUES (:platform, :chat_id, :at, :season, :member, :name, :kind, :amount, :code, :note,"
    " :game_id, :by_id, :by_name)")
LATEST_NAMES = Query("SELECT member, name FROM kegel_cash_book" + _WHERE + " ORDER BY id")  # the last wins
SAVE_SETTINGS = Query(
    "INSERT INTO kegel_cash_settings (platform, chat_id, enabled, currency, charge_absent, custom_fines,"
    " treasurer_id, treasurer_name, dues, dues_every) VALUES (:platform, :chat_id, :enabled, :currency,"
    " :charge_absent, :custom_fines, :treasurer_id, :treasurer_name, :dues, :dues_every)"
    " ON CONFLICT (platform, chat_id) DO UPDATE SET"
    " enabled = excluded.enabled, currency = excluded.currency, charge_absent = excluded.charge_absent,"
    " custom_fines = excluded.custom_fines, treasurer_id = excluded.treasurer_id,"
    " treasurer_name = excluded.treasurer_name, dues = excluded.dues, dues_every = excluded.dues_every")
ADDED = Query("SELECT member, name FROM kegel_cash_members" + _WHERE + " ORDER BY at, member")
ADD_MEMBER = Query("INSERT INTO kegel_cash_members (platform, chat_id, member, name, at, user_id)"
                   " VALUES (:platform, :chat_id, :member, :name, :at, :user_id)"
                   " ON CONFLICT (platform, chat_id, member) DO UPDATE SET name = excluded.name, user_id ="
                   " CASE WHEN excluded.user_id <> '' THEN excluded.user_id ELSE kegel_cash_members.user_id END")
UNLINK = Query("UPDATE kegel_cash_members SET user_id = ''" + _WHERE + " AND user_id = :user_id AND member <> :member")
LINKED = Query("SELECT member, name, user_id FROM kegel_cash_members" + _WHERE + " AND user_id <> '' ORDER BY member")
DROP_MEMBER = Query("DELETE FROM kegel_cash_members" + _WHERE + " AND member = :member")  # left the club: no dues
MERGE_MEMBER = (  # /kegelmerge OLD NEW: OLD's place in the box (and its link) goes to NEW, once
    Query("UPDATE kegel_cash_members SET user_id = (SELECT o.user_id FROM kegel_cash_members o WHERE"
          " o.platform = :platform AND o.chat_id = :chat_id AND o.member = :old), remind = (SELECT o.remind FROM"
          " kegel_cash_members o WHERE o.platform = :platform AND o.chat_id = :chat_id AND o.member = :old)"
          + _WHERE + " AND member = :new AND user_id = '' AND EXISTS (SELECT 1 FROM kegel_cash_members o WHERE"
          " o.platform = :platform AND o.chat_id = :chat_id AND o.member = :old)"),
    Query("UPDATE kegel_cash_members SET member = :new, name = :new_name" + _WHERE + " AND member = :old AND NOT"
          " EXISTS (SELECT 1 FROM kegel_cash_members o WHERE o.platform = :platform AND o.chat_id = :chat_id"
          " AND o.member = :new)"),
    Query("DELETE FROM kegel_cash_members" + _WHERE + " AND member = :old"),
)
REMIND = Query("UPDATE kegel_cash_members SET remind = :remind" + _WHERE + " AND user_id = :user_id")
REMINDED = Query("SELECT user_id FROM kegel_cash_members" + _WHERE + " AND user_id <> '' AND remind = 1"
                 " ORDER BY member")
CLEAR_FINES = Query("DELETE FROM kegel_cash_fines" + _WHERE)  # the catalogue, never the book
INSERT_FINE = Query("INSERT INTO kegel_cash_fines (platform, chat_id, code, emoji, amount, trigger, seq, name)"
                    " VALUES (:platform, :chat_id, :code, :emoji, :amount, :trigger, :seq, :name)")


def _settings(rows: Sequence[Sequence[object]]) -> Settings:
    if not rows:
        return Settings()
    s: Settings = SETTINGS.build(rows[0])
    return s._replace(enabled=bool(s.enabled), charge_absent=bool(s.charge_absent), custom_fines=bool(s.custom_fines),
                      dues=int(s.dues))


def _catalogue(settings: Settings, rows: Sequence[Sequence[object]]) -> Catalogue:
    fines = tuple(Fine(f.code, f.emoji, int(f.amount), Trigger(f.trigger), str(f.name or ""))
                  for f in (FINES.build(r) for r in rows))
    return Catalogue(fines if settings.custom_fines else DEFAULT_FINES, settings.currency, settings.charge_absent)


# ---------------------------------------------------------------- reads
async def settings(store: Store, platform: str, chat_id: str) -> Settings:
    return _settings(await store.fetch(SETTINGS.query, platform=platform, chat_id=chat_id))


async def catalogue(store: Store, platform: str, chat_id: str) -> tuple[Settings, Catalogue]:
    """The chat's settings and fine catalogue (the defaults until the club changed it)."""
    s = await settings(store, platform, chat_id)
    return s, _catalogue(s, await store.fetch(FINES.query, platform=platform, chat_id=chat_id) if s.custom_fines
                         else [])


async def book(store: Store, platform: str, chat_id: str, season: int | None = None) -> list[BookLine]:
    """The chat's cash book (one season's, or all of it), oldest first."""
    if season is None:
        rows: list[BookLine] = await BOOK.all(store, platform=platform, chat_id=chat_id)
    else:
        rows = await BOOK_OF_SEASON.all(store, platform=platform, chat_id=chat_id, season=season)
    return rows


async def book_since(store: Store, platform: str, chat_id: str, since: float) -> list[BookLine]:
    rows: list[BookLine] = await BOOK_SINCE.all(store, platform=platform, chat_id=chat_id, since=since)
    return rows


async def names_of(store: Store, platform: str, chat_id: str) -> dict[str, str]:
    """Each member (names.key) → the name the book last wrote them with (not the club's own lines)."""
    return {str(m): str(n) for m, n in await store.fetch(LATEST_NAMES, platform=platform, chat_id=chat_id) if m}


async def added(store: Store, platform: str, chat_id: str) -> dict[str, str]:
    """The members the treasurer added to the box (names.key → name), in the order they were added."""
    return {str(m): str(n) for m, n in await store.fetch(ADDED, platform=platform, chat_id=chat_id)}


async def added_in(tx: Tx, platform: str, chat_id: str) -> dict[str, str]:
    return {str(m): str(n) for m, n in await tx.fetch(ADDED, platform=platform, chat_id=chat_id)}


async def add_member(tx: Tx, platform: str, chat_id: str, member: str, name: str, at: float,
                     user_id: str = "") -> None:
    """A member of the box (again: the name as now written); `user_id`: the chat account linked to them
    (one account is one member: linked to another before, that link ends)."""
    if user_id:
        await tx.execute(UNLINK, platform=platform, chat_id=chat_id, member=member, user_id=user_id)
    await tx.execute(ADD_MEMBER, platform=platform, chat_id=chat_id, member=member, name=name, at=at, user_id=user_id)


async def linked(store: Store, platform: str, chat_id: str) -> dict[str, tuple[str, str]]:
    """Each linked chat account (user id) → (member key, name)."""
    return {str(u): (str(m), str(n)) for m, n, u in await store.fetch(LINKED, platform=platform, chat_id=chat_id)}


# ---------------------------------------------------------------- reads and writes inside a transaction
async def settings_in(tx: Tx, platform: str, chat_id: str) -> tuple[Settings, Catalogue]:
    """`catalogue`, read in a write job's own transaction."""
    row = await tx.fetchrow(SETTINGS.query, platform=platform, chat_id=chat_id)
    s = _settings([row] if row is not None else [])
    fines = await tx.fetch(FINES.query, platform=platform, chat_id=chat_id) if s.custom_fines else []
    return s, _catalogue(s, fines)


async def in_use(tx: Tx, platform: str, chat_id: str, game_id: int) -> bool:
    """Whether a move of this game books anything: the cash box is on, or the game has lines already."""
    row = await tx.fetchrow(IN_USE, platform=platform, chat_id=chat_id, game_id=game_id)
    return row is not None and (bool(row[0]) or bool(row[1]))


async def game_lines_in(tx: Tx, platform: str, chat_id: str, game_id: int) -> list[Line]:
    return [BOOK_OF_GAME.build(r).line()
            for r in await tx.fetch(BOOK_OF_GAME.query, platform=platform, chat_id=chat_id, game_id=game_id)]


async def lines_in(tx: Tx, platform: str, chat_id: str) -> list[Line]:
    return [BOOK.build(r).line() for r in await tx.fetch(BOOK.query, platform=platform, chat_id=chat_id)]


async def season_in(tx: Tx, platform: str, chat_id: str, at: float) -> int:
    """The club season a line booked at `at` belongs to (the chat's season start, /saison)."""
    row = await tx.fetchrow(SEASON_START.query, platform=platform, chat_id=chat_id)
    start = SEASON_START.build(row) if row is not None else Start()
    return start.year_at(at)


async def append(tx: Tx, platform: str, chat_id: str, lines: Sequence[Line], names: dict[str, str],
                 by_name: str = "") -> None:
    """Lines appended to the cash book (the season each is given, else the one of its time); `names`:
    each member's name as written (else the member key)."""
    rows = []
    seasons: dict[float, int] = {}  # one read of the season start per time (a move's lines share theirs)
    for ln in lines:
        if not ln.season and ln.at not in seasons:
            seasons[ln.at] = await season_in(tx, platform, chat_id, ln.at)
        season = ln.season or seasons[ln.at]
        rows.append({"platform": platform, "chat_id": chat_id, "at": ln.at, "season": season, "member": ln.member,
                     "name": names.get(ln.member, ln.member), "kind": ln.kind.value, "amount": ln.amount,
                     "code": ln.code, "note": ln.note, "game_id": ln.game, "by_id": ln.by, "by_name": by_name})
    if rows:
        await tx.executemany(INSERT_LINE, rows)


async def save_settings(tx: Tx, platform: str, chat_id: str, s: Settings) -> None:
    await tx.execute(SAVE_SETTINGS, platform=platform, chat_id=chat_id, enabled=int(s.enabled),
                     currency=s.currency, charge_absent=int(s.charge_absent), custom_fines=int(s.custom_fines),
                     treasurer_id=s.treasurer_id, treasurer_name=s.treasurer_name, dues=int(s.dues),
                     dues_every=s.dues_every)


async def save_fines(tx: Tx, platform: str, chat_id: str, s: Settings, fines: Sequence[Fine]) -> None:
    """The club's catalogue as it is now (and the settings that say it is the club's own)."""
    await save_settings(tx, platform, chat_id, s._replace(custom_fines=True))
    await tx.execute(CLEAR_FINES, platform=platform, chat_id=chat_id)
    await tx.executemany(INSERT_FINE, [{"platform": platform, "chat_id": chat_id, "code": f.code, "emoji": f.emoji,
                                        "amount": f.amount, "trigger": f.trigger.value, "seq": i,
                                        "name": f.name}
                                       for i, f in enumerate(fines)])


async def set_remind(tx: Tx, platform: str, chat_id: str, user_id: str, on: bool) -> None:
    """A linked member's own choice: a monthly private reminder while they owe, or none."""
    await tx.execute(REMIND, platform=platform, chat_id=chat_id, user_id=user_id, remind=int(on))


async def reminded(store: Store, platform: str, chat_id: str) -> list[str]:
    """The linked accounts that opted in to the reminder."""
    return [str(u) for (u,) in await store.fetch(REMINDED, platform=platform, chat_id=chat_id)]


async def drop_member(tx: Tx, platform: str, chat_id: str, member: str) -> bool:
    """A member who left: out of the box's list (no more dues); their lines stay. Whether one was there."""
    known = member in await added_in(tx, platform, chat_id)
    await tx.execute(DROP_MEMBER, platform=platform, chat_id=chat_id, member=member)
    return known


async def merge_member(tx: Tx, platform: str, chat_id: str, old: str, new: str, new_name: str) -> None:
    """/kegelmerge: the member OLD's place in the box and link are NEW's (NEW keeps a link of its own)."""
    for query in MERGE_MEMBER:
        await tx.execute(query, platform=platform, chat_id=chat_id, old=old, new=new, new_name=new_name)
