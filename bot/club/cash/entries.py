"""The treasurer's entries, each booked as lines into the cash book (the ledger) (/kasse pay, fine, correct,
absent, carry), the fine catalogue (/kasse fines), a season's cash book as CSV (/kasse book) and the season's
cash totals in /jahresrueckblick. Every booking checks who may (`permit`) in the transaction that appends its
lines.
"""

from __future__ import annotations

import asyncio
import re
from collections.abc import Awaitable, Callable, Sequence
from dataclasses import replace
from datetime import datetime

from babel.numbers import get_decimal_symbol, list_currencies

from bot.app.turn import Turn
from bot.club import records
from bot.club.cash import fine_names as cash_names
from bot.club.cash import members as cash_members
from bot.club.cash import storage as cash_storage
from bot.club.cash.rules import decimals, permit
from bot.club.cash.storage import Settings
from bot.club.cash.xlsx import book_xlsx
from bot.club.charts import chat_zone
from bot.club.season import season_start, season_year
from bot.games.plugin import Services
from bot.storage.sql import Tx
from core import names
from core.club.cash import export as report
from core.club.cash import ledger as cash
from core.club.cash.ledger import Catalogue, Fine, Kind, Line, Trigger
from core.club.evenings import evening_of, evening_starts
from core.errors import GameError
from core.messages import Inbound, Message, Text
from core.money import Money

Make = Callable[[Settings, Catalogue, list[Line]], list[Line]]
CODE = re.compile(r"\w{1,20}")
ISO = frozenset(list_currencies())  # the codes a three-letter word beside an amount may be (`5 USD`)


async def known_member(svc: Services, ib: Inbound, written: str) -> tuple[str, str]:
    """A club member as typed → (names.key, the name as the club writes it) (cash_members.py `members`);
    anyone else is refused (a typo books nobody's money)."""
    key, name, rest = await member_and_rest(svc, ib, written.split())
    if rest:
        raise GameError("kegeln.cash.unknown_member", name=names.clean(written)[:40])
    return key, name


async def member_and_rest(svc: Services, ib: Inbound, words: Sequence[str]) -> tuple[str, str, list[str]]:
    """`NAME …`: the known member the first words name (the longest match: "Anna Lena 2" is Anna Lena),
    their name as the club writes it, and the words after it."""
    known = await cash_members.members(svc.store, ib.chat.platform, ib.chat.chat_id)
    key, rest = cash.member_words(words, known)
    return key, known[key], rest


async def enter(svc: Services, turn: Turn, make: Make, shown: dict[str, str], need: str = "treasurer",
                also: Callable[[Tx], Awaitable[None]] | None = None) -> tuple[Settings, list[Line], list[Line]]:
    """The treasurer's lines (`make` from the settings, catalogue and book as this transaction reads them)
    appended in one transaction that first checks that the actor is the treasurer, under the chat's lock
    (a second carry or absent charge made at the same moment sees the first): (settings, the book before,
    the new lines)."""
    ib = turn.inbound
    chat = ib.chat

    async def job(tx: Tx) -> tuple[Settings, list[Line], list[Line]]:
        await tx.lock_chat(chat.platform, chat.chat_id)  # two bookings at once (PostgreSQL): one after the other
        s, catalogue = await cash_storage.settings_in(tx, chat.platform, chat.chat_id)
        permit(need, s, ib.actor)
        lines = await cash_storage.lines_in(tx, chat.platform, chat.chat_id)
        new = make(s, catalogue, lines)
        await cash_storage.append(tx, chat.platform, chat.chat_id, new, shown, ib.actor.name)
        if also is not None:  # more writes of the booking, in its transaction (a new member of the box)
            await also(tx)
        return s, lines, new
    done: tuple[Settings, list[Line], list[Line]] = await svc.store.run(job)
    return done


def amount_and_reason(words: Sequence[str], s: Settings) -> tuple[str, str]:
    """`AMOUNT [REASON…]` (a currency written apart glued back: `2,50 €`): the amount's text, the reason."""
    typed, used = cash.amount_words(words, s.currency, ISO)
    return typed, cash.reason_of(words[used:])


def reason_text(reason: str) -> Text | str:
    return Text("cash.reason", {"reason": reason}) if reason else ""


def balance_after(lines: list[Line], new: list[Line], member: str) -> int:
    return cash.balances([*lines, *new]).get(member, 0)


async def cmd_pay(svc: Services, turn: Turn, words: Sequence[str]) -> None:
    """`pay NAME AMOUNT [REASON]`: money paid in (a negative line: the member owes that much less) — taken
    with the cash box off too (turning it off stops new games' fines, never collecting)."""
    ib = turn.inbound
    key, name, rest = await member_and_rest(svc, ib, words)

    def make(s: Settings, _c: Catalogue, _lines: list[Line]) -> list[Line]:
        typed, reason = amount_and_reason(rest, s)
        value = cash.parse_amount(typed, s.currency, decimals(s.currency), ISO)
        return [Line(Kind.PAYMENT, key, -value, by=ib.actor.user_id, at=svc.clock(), note=reason)]
    s, lines, new = await enter(svc, turn, make, {key: name}, "collect")
    turn.messages.append(Message(ib.chat, Text("cash.booked_payment", {
        "name": name, "amount": Money(-new[0].amount, s.currency), "by": ib.actor.name,
        "balance": balance_shown(balance_after(lines, new, key), s.currency), "reason": reason_text(new[0].note)})))


MAX_FINE_WORDS = 4  # words a fine's name may have (`zu spät`, `letzter Platz`)


def fine_and_rest(catalogue: Catalogue, words: Sequence[str], aliases: dict[str, str]) -> tuple[Fine | None, int]:
    """The fine the first words name (the longest match, in any language), and the words it took."""
    for n in range(min(len(words), MAX_FINE_WORDS), 0, -1):
        fine = catalogue.find(" ".join(words[:n]), aliases)
        if fine is not None:
            return fine, n
    return None, 0


async def cmd_fine(svc: Services, turn: Turn, words: Sequence[str]) -> None:
    """`fine NAME FINE-or-AMOUNT [REASON]`: a fine of the catalogue (its amount; its name in any language)
    or of an amount typed, with the reason after it (`/kasse strafe Birgit 0,30 Handy am Tisch`)."""
    ib = turn.inbound
    key, name, rest = await member_and_rest(svc, ib, words)
    if not rest:
        raise GameError("kegeln.cash.usage")
    aliases = cash_names.aliases(svc)

    def make(s: Settings, catalogue: Catalogue, _lines: list[Line]) -> list[Line]:
        fine, used = fine_and_rest(catalogue, rest, aliases)
        if fine is not None:
            value, reason = fine.amount, cash.reason_of(rest[used:])
        elif cash.looks_like_amount(rest[0]):
            typed, reason = amount_and_reason(rest, s)
            value = cash.parse_amount(typed, s.currency, decimals(s.currency), ISO)
        else:
            raise GameError("kegeln.cash.unknown_fine", fine=rest[0][:20])
        if not value:
            raise GameError("kegeln.cash.unknown_fine", fine=rest[0][:20])
        return [Line(Kind.FINE, key, value, fine.code if fine else "", by=ib.actor.user_id, at=svc.clock(),
                     note=reason)]
    s, lines, new = await enter(svc, turn, make, {key: name})
    _s, catalogue = await cash_storage.catalogue(svc.store, ib.chat.platform, ib.chat.chat_id)
    text = "cash.booked_fine" if new[0].code else "cash.booked_fine_amount"
    turn.messages.append(Message(ib.chat, Text(text, {
        "name": name, "fine": cash_names.label(catalogue, new[0].code), "amount": Money(new[0].amount, s.currency),
        "by": ib.actor.name, "balance": balance_shown(balance_after(lines, new, key), s.currency),
        "reason": reason_text(new[0].note)})))


async def cmd_correct(svc: Services, turn: Turn, words: Sequence[str]) -> None:
    """`correct NAME +AMOUNT|-AMOUNT [REASON]`: a correction of an earlier line, as a new line (nothing is
    ever rewritten)."""
    ib = turn.inbound
    key, name, rest = await member_and_rest(svc, ib, words)

    def make(s: Settings, _c: Catalogue, _lines: list[Line]) -> list[Line]:
        typed, reason = amount_and_reason(rest, s)
        value = cash.parse_signed(typed, s.currency, decimals(s.currency), ISO)
        return [Line(Kind.CORRECTION, key, value, by=ib.actor.user_id, at=svc.clock(), note=reason)]
    s, lines, new = await enter(svc, turn, make, {key: name}, "collect")
    turn.messages.append(Message(ib.chat, Text("cash.booked_correction", {
        "name": name, "amount": signed(new[0].amount, s.currency), "by": ib.actor.name,
        "balance": balance_shown(balance_after(lines, new, key), s.currency), "reason": reason_text(new[0].note)})))


def signed(amount: int, currency: str) -> Text | Money:
    """A signed amount with one minus sign: the locale's, as Babel writes a negative; `+` before a positive."""
    return Text("cash.plus", {"amount": Money(amount, currency)}) if amount > 0 else Money(amount, currency)


def absent_words(words: Sequence[str], known: dict[str, str]) -> tuple[dict[str, str], str]:
    """`NAME[, NAME…] [REASON]`: the members (each the longest match; a comma ends a name) and the reason
    after the last one. A part between commas that names nobody is refused (a typo charges nobody)."""
    parts = [p.split() for p in " ".join(words).split(",")]
    found: dict[str, str] = {}
    reason = ""
    for i, part in enumerate(parts):
        while part:
            hit = cash.longest_member(part, known)
            if hit is None:
                if not found or i < len(parts) - 1:
                    cash.member_words(part, known)  # refused, naming what was typed
                reason = cash.reason_of(part)
                break
            found[hit[0]] = known[hit[0]]
            part = part[hit[1]:]
    if not found:
        raise GameError("kegeln.cash.usage")
    return found, reason


async def cmd_absent(svc: Services, turn: Turn, words: Sequence[str]) -> None:
    """`absent NAME[, NAME…] [REASON]`: tonight's average fine of those who were there, charged to each
    absent member — where the club chose so (/kasse average on), once per member and evening."""
    ib = turn.inbound
    known = await cash_members.members(svc.store, ib.chat.platform, ib.chat.chat_id)
    members, reason = absent_words(words, known)
    await charge_absent(svc, turn, members, reason, svc.clock())


async def charge_absent(svc: Services, turn: Turn, members: dict[str, str], reason: str, when: float) -> None:
    """The average fine of the club evening at `when` (now, or a /termin evening's start) charged to each
    of `members` (names.key → name) — where the club chose so, once per member and evening."""
    ib = turn.inbound
    tz = await chat_zone(svc, ib)
    since = evening_starts(evening_of(when, tz), tz)  # that club evening (core/club/evenings.py)
    there = await records.members_since(svc.store, ib.chat.platform, ib.chat.chat_id, since)

    def make(s: Settings, _c: Catalogue, lines: list[Line]) -> list[Line]:
        if not s.charge_absent:
            raise GameError("kegeln.cash.absent_off")
        fines = {names.key(m.name): 0 for m in there}
        for ln in lines:
            if ln.at >= since and ln.kind in (Kind.AUTO, Kind.FINE) and ln.member in fines:
                fines[ln.member] += ln.amount
            if ln.at >= since and ln.kind is Kind.ABSENT and ln.member in members:
                raise GameError("kegeln.cash.absent_twice", name=members[ln.member][:40])
        for key, name in members.items():
            if key in fines:  # as core refuses it, named as the club writes them
                raise GameError("kegeln.cash.was_there", name=name[:40])
        return [replace(ln, note=reason)
                for ln in cash.absent_charges(fines, list(members), svc.clock(), ib.actor.user_id)]
    s, _lines, new = await enter(svc, turn, make, members)
    turn.messages.append(Message(ib.chat, Text("cash.booked_absent", {
        "names": ", ".join(members.values()), "amount": Money(new[0].amount, s.currency), "by": ib.actor.name,
        "reason": reason_text(reason)})))


async def cmd_carry(svc: Services, turn: Turn, words: Sequence[str]) -> None:
    """`carry`: the year's close — every balance of the earlier seasons carried into the current one."""
    ib = turn.inbound
    start = await season_start(svc, ib)
    year = start.year_at(svc.clock())
    shown = await cash_storage.names_of(svc.store, ib.chat.platform, ib.chat.chat_id)
    _s, _lines, new = await enter(svc, turn, lambda _s, _c, lines: cash.carried(lines, year, svc.clock(),
                                                                                ib.actor.user_id), shown)
    opened = [shown.get(ln.member, ln.member) for ln in new if ln.season == year]
    turn.messages.append(Message(ib.chat, Text("cash.carried", {"season": start.label(year),
                                                                "names": ", ".join(opened)})
                                 if opened else Text("cash.carry_none", {"season": start.label(year)})))


# the export's columns (core/club/cash/export.py CSV_HEADER) → their names in the reader's language
COLUMNS = {"date": "cash.col.date", "season": "cash.col.season", "member": "cash.col.member", "kind": "cash.col.kind",
           "fine": "cash.col.fine", "amount": "cash.col.amount", "currency": "cash.col.currency",
           "game": "cash.col.game", "booked_by": "cash.col.booked_by", "note": "cash.col.note"}


# ---------------------------------------------------------------- one member's lines
KIND_TEXTS = {Kind.AUTO: "cash.kind.auto", Kind.FINE: "cash.kind.fine", Kind.ABSENT: "cash.kind.absent",
              Kind.PAYMENT: "cash.kind.payment", Kind.CORRECTION: "cash.kind.correction",
              Kind.MERGED: "cash.kind.merged", Kind.CARRY: "cash.kind.carry", Kind.FEE: "cash.kind.fee",
              Kind.DUES: "cash.kind.dues", Kind.EXPENSE: "cash.kind.expense"}


async def member_view(svc: Services, turn: Turn, words: Sequence[str]) -> None:
    """`/kasse NAME`: a member's balance and newest lines (at most `list_lines`), dated in the chat's zone;
    a word that is neither an action nor a member here is refused as such."""
    ib = turn.inbound
    try:
        key, name = await known_member(svc, ib, " ".join(words))
    except GameError as refused:
        if refused.code != "kegeln.cash.unknown_member":
            raise
        raise GameError("kegeln.cash.unknown_action", word=" ".join(words)[:20]) from None
    turn.messages.append(Message(ib.chat, await statement(svc, ib, ib.chat.platform, ib.chat.chat_id, key, name)))


async def statement(svc: Services, ib: Inbound, platform: str, chat_id: str, key: str, name: str) -> Text:
    """A member's balance and newest lines (at most `list_lines`), each with its reason, dated in the
    chat's zone: in the group (/kasse NAME) or privately (/kasse me, a reminder)."""
    s, catalogue = await cash_storage.catalogue(svc.store, platform, chat_id)
    mine = [b for b in await cash_storage.book(svc.store, platform, chat_id) if b.member == key]
    tz = await chat_zone(svc, ib)
    shown = [Text("cash.member_line", {
        "date": datetime.fromtimestamp(b.at, tz).date(), "what": what(catalogue, b.kind, b.code),
        "amount": Money(b.amount, s.currency), "game": f" (#{b.game_id})" if b.game_id else "",
        "reason": reason_text(b.note)})
        for b in mine[-svc.list_lines:]]
    if len(mine) > svc.list_lines:
        shown.insert(0, Text("board.more", {"n": len(mine) - svc.list_lines}))
    return Text("cash.member", {"name": name, "balance": balance_shown(sum(b.amount for b in mine), s.currency),
                                "lines": shown or [Text("cash.empty")]})


def what(catalogue: Catalogue, kind: str, code: str) -> Text:
    """A line's kind, with its fine's name where it has one (in the club's or the reader's language)."""
    plain = Text(KIND_TEXTS[Kind(kind)])
    return Text("cash.kind_fine", {"kind": plain, "fine": cash_names.label(catalogue, code)}) if code else plain


def balance_shown(amount: int, currency: str) -> Money | Text:
    """A member's balance as the balances list says it: what they owe as the amount, a credit as
    "0,40 € in credit" (cash.balance_credit) — never as a negative number beside a correction's minus."""
    return Text("cash.balance_credit", {"amount": Money(-amount, currency)}) if amount < 0 else Money(amount, currency)


# ---------------------------------------------------------------- the catalogue
async def cmd_fines(svc: Services, turn: Turn, words: Sequence[str]) -> None:
    """`fines`: the catalogue; `fines NAME AMOUNT [EMOJI]` sets or adds one (0 for an automatic one books
    it no more), `fines NAME off` removes one, `fines NAME rename NEW NAME` renames one (an automatic one
    too) — the treasurer's. A fine is named by its name in the club's catalogue or any language's word."""
    ib = turn.inbound
    chat = ib.chat
    if not words:
        _s, catalogue = await cash_storage.catalogue(svc.store, chat.platform, chat.chat_id)
        turn.messages.append(Message(chat, catalogue_text(catalogue)))
        return
    aliases = cash_names.aliases(svc)
    off_words = svc.catalogs.words("cash.words.off") | {"off"}
    rename_words = svc.catalogs.words("cash.words.rename") | {"rename"}

    async def job(tx: Tx) -> Catalogue:
        await tx.lock_chat(chat.platform, chat.chat_id)
        s, catalogue = await cash_storage.settings_in(tx, chat.platform, chat.chat_id)
        permit("treasurer", s, ib.actor)
        old, used = fine_and_rest(catalogue, words, aliases)
        if old is None:  # a new fine: one word, its code
            if not CODE.fullmatch(words[0]):
                raise GameError("kegeln.cash.bad_code", fine=words[0][:20])
            used = 1
        rest = list(words[used:])
        if not rest:
            raise GameError("kegeln.cash.fines_usage")
        said = rest[0].casefold()
        if said in off_words or said in rename_words:
            if old is None:
                raise GameError("kegeln.cash.unknown_fine", fine=words[0][:20])
            if said in off_words:
                fines = [f for f in catalogue.fines if f.code != old.code]
            else:
                name = names.clean(" ".join(rest[1:]))
                if not name or len(name) > cash.MAX_NAME:
                    raise GameError("kegeln.cash.bad_name", most=cash.MAX_NAME)
                fines = [replace(f, name=name) if f.code == old.code else f for f in catalogue.fines]
        else:
            amount = 0 if rest[0] == "0" and old is not None and old.trigger is not Trigger.MANUAL else \
                cash.parse_amount(rest[0], s.currency, decimals(s.currency), ISO)
            emoji = rest[1][:8] if len(rest) > 1 else (old.emoji if old else "💶")
            fine = replace(old, emoji=emoji, amount=amount) if old else Fine(words[0].casefold(), emoji, amount,
                                                                             name=words[0])
            fines = [fine if old and f.code == old.code else f for f in catalogue.fines] + ([] if old else [fine])
        checked = cash.checked(fines, s.currency)
        await cash_storage.save_fines(tx, chat.platform, chat.chat_id, s, checked)
        return Catalogue(checked, s.currency, s.charge_absent)
    turn.messages.append(Message(chat, catalogue_text(await svc.store.run(job))))


def catalogue_text(catalogue: Catalogue) -> Text:
    trigger = {Trigger.PUMPE: Text("cash.trigger.pumpe"), Trigger.LOST: Text("cash.trigger.lost"),
               Trigger.MANUAL: Text("cash.trigger.manual")}
    return Text("cash.catalogue", {"currency": catalogue.currency, "lines": [
        Text("cash.fine_line", {"emoji": f.emoji, "code": cash_names.fine_label(f),
                                "amount": Money(f.amount, catalogue.currency), "trigger": trigger[f.trigger]})
        for f in catalogue.fines]})


# ---------------------------------------------------------------- the year's close: CSV and the review
async def send_csv(svc: Services, turn: Turn, words: Sequence[str]) -> None:
    """`book [SEASON]`: the season's cash book (default: the current season) as a CSV file in the reader's
    conventions and as an XLSX workbook (cash_export.py)."""
    ib = turn.inbound
    start = await season_start(svc, ib)
    year = season_year(tuple(words)) if words else start.year_at(svc.clock())
    s, catalogue = await cash_storage.catalogue(svc.store, ib.chat.platform, ib.chat.chat_id)
    lines = await cash_storage.book(svc.store, ib.chat.platform, ib.chat.chat_id, year)
    label = start.label(year)
    if not lines:
        turn.messages.append(Message(ib.chat, Text("cash.csv_empty", {"season": label})))
        return
    lang = await svc.lang(ib)

    def fine(code: str) -> str:
        return svc.catalogs.render(cash_names.label(catalogue, code), lang) if code else ""
    header = [svc.catalogs.render(Text(COLUMNS[c]), lang) for c in report.CSV_HEADER]
    kinds = {k.value: svc.catalogs.render(Text(key), lang) for k, key in KIND_TEXTS.items()}
    rows = [report.CsvLine(b.at, label, b.name, b.kind, fine(b.code), b.amount, b.game_id, b.by_name, b.note)
            for b in lines]
    places = decimals(s.currency)
    data = report.book_csv(rows, s.currency, places, get_decimal_symbol(lang), header, kinds)
    sheets = (svc.catalogs.render(Text("cash.sheet_book"), lang), svc.catalogs.render(Text("cash.sheet_sums"), lang))
    turn.messages.append(Message(ib.chat, Text("cash.csv", {"season": label, "n": len(lines),
                                                            "total": Money(sum(b.amount for b in lines),
                                                                           s.currency)}),
                                 file=(report.file_name(ib.chat.chat_id, label), data)))
    # openpyxl writes a season of 5000 lines in about 0.8 s: in a thread, as the pictures are (bot/solver/thinking.py)
    xlsx = await asyncio.to_thread(book_xlsx, rows, s.currency, places, sheets, header, kinds)
    turn.messages.append(Message(ib.chat, Text("cash.xlsx", {"season": label}), file=(
        report.file_name(ib.chat.chat_id, label, "xlsx"), xlsx)))


async def review_lines(svc: Services, ib: Inbound, args: tuple[str, ...]) -> list[Text]:
    """The season's cash in /jahresrueckblick: fines booked, paid in, and what is open at its end — the
    figure /kasse calls open (what the members who owe owe, credit not netted), over every line of the
    season and the seasons before; nothing for a club whose book has no line of the season."""
    start = await season_start(svc, ib)
    year = season_year(args) if args else start.year_at(svc.clock())
    s = await cash_storage.settings(svc.store, ib.chat.platform, ib.chat.chat_id)
    lines = [b.line() for b in await cash_storage.book(svc.store, ib.chat.platform, ib.chat.chat_id)]
    season = [ln for ln in lines if ln.season == year]
    if not season:
        return []
    fines = sum(ln.amount for ln in season if ln.kind in (Kind.AUTO, Kind.FINE, Kind.ABSENT))
    return [Text("cash.review", {"fines": Money(fines, s.currency), "paid": Money(cash.paid(season), s.currency),
                                 "open": Money(cash.open_sum(ln for ln in lines if ln.season <= year), s.currency)})]
