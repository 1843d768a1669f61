"""The treasurer's bookings in the cash book (/kasse pay, fine, correct, absent, carry), the fine
catalogue (/kasse fines), a season's cash book as CSV (/kasse book) and the season's cash totals in
/jahresrueckblick. Every booking checks who may (`permit`) in the transaction that appends its lines."""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from datetime import datetime

from bot.games.kegeln import cash_storage, storage
from bot.games.kegeln.cash_rules import decimals, permit
from bot.games.kegeln.cash_storage import Settings
from bot.games.kegeln.charts import chat_zone
from bot.games.kegeln.season import season_start, season_year
from bot.services import Handling, Services
from bot.storage.sql import Tx
from core import names
from core.errors import GameError
from core.games.kegeln import cash
from core.games.kegeln import cash_report as report
from core.games.kegeln.cash import Catalogue, Fine, Kind, Line, Trigger
from core.games.kegeln.evenings import evening_of, evening_starts
from core.messages import Inbound, Message, Text
from core.money import Money

Make = Callable[[Settings, Catalogue, list[Line]], list[Line]]
CODE = re.compile(r"\w{1,20}")
CURRENCY = re.compile(cash.CURRENCY, re.I)


async def known_member(svc: Services, ib: Inbound, written: str) -> tuple[str, str]:
    """A club member as typed → (names.key, the name as the club writes it): one with a finished game
    here or a line in this chat's cash book; anyone else is refused (a typo books nobody's money)."""
    name = names.clean(written)
    if not name:
        raise GameError("kegeln.cash.usage")
    key = names.key(name)
    line = await storage.member(svc.store, ib.chat.platform, ib.chat.chat_id, name)
    if line is not None:
        return key, line.name
    booked = await cash_storage.names_of(svc.store, ib.chat.platform, ib.chat.chat_id)
    if key in booked:
        return key, booked[key]
    raise GameError("kegeln.cash.unknown_member", name=name[:40])


async def book(svc: Services, turn: Handling, make: Make, shown: dict[str, str]) -> tuple[Settings, list[Line],
                                                                                          list[Line]]:
    """The treasurer's lines (`make` from the settings, catalogue and book as this transaction reads them)
    appended in one transaction that first checks that the actor is the treasurer, under the chat's lock
    (a second carry or absent charge made at the same moment sees the first): (settings, the book before,
    the new lines)."""
    ib = turn.inbound
    chat = ib.chat

    async def job(tx: Tx) -> tuple[Settings, list[Line], list[Line]]:
        await tx.lock_chat(chat.platform, chat.chat_id)  # two bookings at once (PostgreSQL): one after the other
        s, catalogue = await cash_storage.settings_in(tx, chat.platform, chat.chat_id)
        permit("treasurer", s, ib.actor)
        lines = await cash_storage.lines_in(tx, chat.platform, chat.chat_id)
        new = make(s, catalogue, lines)
        await cash_storage.append(tx, chat.platform, chat.chat_id, new, shown, ib.actor.name)
        return s, lines, new
    done: tuple[Settings, list[Line], list[Line]] = await svc.store.run(job)
    return done


def name_and_last(words: Sequence[str]) -> tuple[str, str]:
    """NAME … LAST (a name may have spaces; the last word is the amount or fine, with a currency sign
    written apart glued back: `2,50 €`)."""
    if len(words) >= 3 and CURRENCY.fullmatch(words[-1]):
        words = [*words[:-2], words[-2] + words[-1]]
    if len(words) < 2:
        raise GameError("kegeln.cash.usage")
    return " ".join(words[:-1]), words[-1]


def balance_after(lines: list[Line], new: list[Line], member: str) -> int:
    return cash.balances([*lines, *new]).get(member, 0)


async def cmd_pay(svc: Services, turn: Handling, words: Sequence[str]) -> None:
    """`pay NAME AMOUNT`: money paid in (a negative line: the member owes that much less)."""
    ib = turn.inbound
    written, amount = name_and_last(words)
    key, name = await known_member(svc, ib, written)

    def make(s: Settings, _c: Catalogue, _lines: list[Line]) -> list[Line]:
        value = cash.parse_amount(amount, s.currency, decimals(s.currency))
        return [Line(Kind.PAYMENT, key, -value, by=ib.actor.user_id, at=svc.clock())]
    s, lines, new = await book(svc, turn, make, {key: name})
    turn.messages.append(Message(ib.chat, Text("cash.booked_payment", {
        "name": name, "amount": Money(-new[0].amount, s.currency), "by": ib.actor.name,
        "balance": balance_shown(balance_after(lines, new, key), s.currency)})))


async def cmd_fine(svc: Services, turn: Handling, words: Sequence[str]) -> None:
    """`fine NAME FINE-or-AMOUNT`: a fine of the catalogue (its amount) or of an amount typed."""
    ib = turn.inbound
    written, what = name_and_last(words)
    key, name = await known_member(svc, ib, written)

    def make(s: Settings, catalogue: Catalogue, _lines: list[Line]) -> list[Line]:
        fine = catalogue.fine(what.casefold())
        if fine is None and not what[:1].isdigit():
            raise GameError("kegeln.cash.unknown_fine", fine=what[:20])
        value = fine.amount if fine is not None else cash.parse_amount(what, s.currency, decimals(s.currency))
        if not value:
            raise GameError("kegeln.cash.unknown_fine", fine=what[:20])
        return [Line(Kind.FINE, key, value, fine.code if fine else "", by=ib.actor.user_id, at=svc.clock())]
    s, lines, new = await book(svc, turn, make, {key: name})
    params = {"name": name, "amount": Money(new[0].amount, s.currency), "by": ib.actor.name,
              "balance": balance_shown(balance_after(lines, new, key), s.currency)}
    if new[0].code:  # a fine of the catalogue names its code; one typed as an amount has none to show
        turn.messages.append(Message(ib.chat, Text("cash.booked_fine", {**params, "fine": new[0].code})))
    else:
        turn.messages.append(Message(ib.chat, Text("cash.booked_fine_amount", params)))


async def cmd_correct(svc: Services, turn: Handling, words: Sequence[str]) -> None:
    """`correct NAME +AMOUNT|-AMOUNT`: a correction of an earlier line, as a new line (nothing is ever
    rewritten)."""
    ib = turn.inbound
    written, amount = name_and_last(words)
    key, name = await known_member(svc, ib, written)

    def make(s: Settings, _c: Catalogue, _lines: list[Line]) -> list[Line]:
        value = cash.parse_signed(amount, s.currency, decimals(s.currency))
        return [Line(Kind.CORRECTION, key, value, by=ib.actor.user_id, at=svc.clock())]
    s, lines, new = await book(svc, turn, make, {key: name})
    sign = "+" if new[0].amount > 0 else "−"
    turn.messages.append(Message(ib.chat, Text("cash.booked_correction", {
        "name": name, "sign": sign, "amount": Money(abs(new[0].amount), s.currency), "by": ib.actor.name,
        "balance": balance_shown(balance_after(lines, new, key), s.currency)})))


async def cmd_absent(svc: Services, turn: Handling, words: Sequence[str]) -> None:
    """`absent NAME[, NAME…]`: tonight's average fine of those who were there, charged to each absent
    member — where the club chose so (/kasse average on), once per member and evening."""
    ib = turn.inbound
    text = " ".join(words)
    parts = [p for p in (text.split(",") if "," in text else text.split()) if p.strip()]
    if not parts:
        raise GameError("kegeln.cash.usage")
    members = dict([await known_member(svc, ib, p) for p in parts])
    tz = await chat_zone(svc, ib)
    since = evening_starts(evening_of(svc.clock(), tz), tz)  # tonight's club evening (core/games/kegeln/evenings.py)
    there = await storage.members_since(svc.store, ib.chat.platform, ib.chat.chat_id, since)

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
        return cash.absent_charges(fines, list(members), svc.clock(), ib.actor.user_id)
    s, _lines, new = await book(svc, turn, make, members)
    turn.messages.append(Message(ib.chat, Text("cash.booked_absent", {
        "names": ", ".join(members.values()), "amount": Money(new[0].amount, s.currency), "by": ib.actor.name})))


async def cmd_carry(svc: Services, turn: Handling, words: Sequence[str]) -> None:
    """`carry`: the year's close — every balance of the earlier seasons carried into the current one."""
    ib = turn.inbound
    start = await season_start(svc, ib)
    year = start.year_at(svc.clock())
    shown = await cash_storage.names_of(svc.store, ib.chat.platform, ib.chat.chat_id)
    _s, _lines, new = await book(svc, turn, lambda _s, _c, lines: cash.carried(lines, year, svc.clock(),
                                                                                ib.actor.user_id), shown)
    opened = [shown.get(ln.member, ln.member) for ln in new if ln.season == year]
    turn.messages.append(Message(ib.chat, Text("cash.carried", {"season": start.label(year),
                                                                "names": ", ".join(opened)})
                                 if opened else Text("cash.carry_none", {"season": start.label(year)})))


# ---------------------------------------------------------------- one member's lines
KIND_TEXTS = {Kind.AUTO: "cash.kind.auto", Kind.FINE: "cash.kind.fine", Kind.ABSENT: "cash.kind.absent",
              Kind.PAYMENT: "cash.kind.payment", Kind.CORRECTION: "cash.kind.correction",
              Kind.MERGED: "cash.kind.merged", Kind.CARRY: "cash.kind.carry"}


async def member_view(svc: Services, turn: Handling, words: Sequence[str]) -> None:
    """`/kasse NAME`: a member's balance and newest lines (at most `list_lines`), dated in the chat's zone;
    a word that is neither an action nor a member here is refused as such."""
    ib = turn.inbound
    try:
        key, name = await known_member(svc, ib, " ".join(words))
    except GameError as refused:
        if refused.code != "kegeln.cash.unknown_member":
            raise
        raise GameError("kegeln.cash.unknown_action", word=" ".join(words)[:20]) from None
    s = await cash_storage.settings(svc.store, ib.chat.platform, ib.chat.chat_id)
    mine = [b for b in await cash_storage.book(svc.store, ib.chat.platform, ib.chat.chat_id) if b.member == key]
    tz = await chat_zone(svc, ib)
    shown = [Text("cash.member_line", {
        "date": datetime.fromtimestamp(b.at, tz).date(), "what": Text(KIND_TEXTS[Kind(b.kind)]),
        "fine": f" {b.code}" if b.code else "", "amount": Money(b.amount, s.currency),
        "game": f" (#{b.game_id})" if b.game_id else ""})
        for b in mine[-svc.list_lines:]]
    if len(mine) > svc.list_lines:
        shown.insert(0, Text("board.more", {"n": len(mine) - svc.list_lines}))
    turn.messages.append(Message(ib.chat, Text("cash.member", {
        "name": name, "balance": balance_shown(sum(b.amount for b in mine), s.currency),
        "lines": shown or [Text("cash.empty")]})))


def balance_shown(amount: int, currency: str) -> Money | Text:
    """A member's balance as the balances list says it: what they owe as the amount, a credit as
    "0,40 € in credit" (cash.balance_credit) — never as a negative number beside a correction's minus."""
    return Text("cash.balance_credit", {"amount": Money(-amount, currency)}) if amount < 0 else Money(amount, currency)


# ---------------------------------------------------------------- the catalogue
async def cmd_fines(svc: Services, turn: Handling, words: Sequence[str]) -> None:
    """`fines`: the catalogue; `fines CODE AMOUNT [EMOJI]` sets or adds one (0 for an automatic one
    books it no more), `fines CODE off` removes one — the treasurer's."""
    ib = turn.inbound
    chat = ib.chat
    if not words:
        _s, catalogue = await cash_storage.catalogue(svc.store, chat.platform, chat.chat_id)
        turn.messages.append(Message(chat, catalogue_text(catalogue)))
        return
    code = words[0].casefold()
    if not CODE.fullmatch(code):
        raise GameError("kegeln.cash.bad_code", fine=words[0][:20])
    if len(words) < 2:
        raise GameError("kegeln.cash.fines_usage")
    off = words[1].casefold() in svc.catalogs.words("cash.words.off") | {"off"}

    async def job(tx: Tx) -> Catalogue:
        await tx.lock_chat(chat.platform, chat.chat_id)
        s, catalogue = await cash_storage.settings_in(tx, chat.platform, chat.chat_id)
        permit("treasurer", s, ib.actor)
        old = catalogue.fine(code)
        if off:
            if old is None:
                raise GameError("kegeln.cash.unknown_fine", fine=code)
            fines = [f for f in catalogue.fines if f.code != code]
        else:
            amount = 0 if words[1] == "0" and old is not None and old.trigger is not Trigger.MANUAL else \
                cash.parse_amount(words[1], s.currency, decimals(s.currency))
            emoji = words[2][:8] if len(words) > 2 else (old.emoji if old else "💶")
            fine = Fine(code, emoji, amount, old.trigger if old else Trigger.MANUAL)
            fines = [fine if f.code == code else f for f in catalogue.fines] + ([] if old else [fine])
        checked = cash.checked(fines, s.currency)
        await cash_storage.save_fines(tx, chat.platform, chat.chat_id, s, checked)
        return Catalogue(checked, s.currency, s.charge_absent)
    turn.messages.append(Message(chat, catalogue_text(await svc.store.run(job))))


def catalogue_text(catalogue: Catalogue) -> Text:
    trigger = {Trigger.PUMPE: Text("cash.trigger.pumpe"), Trigger.LOST: Text("cash.trigger.lost"),
               Trigger.MANUAL: Text("cash.trigger.manual")}
    return Text("cash.catalogue", {"currency": catalogue.currency, "lines": [
        Text("cash.fine_line", {"emoji": f.emoji, "code": f.code, "amount": Money(f.amount, catalogue.currency),
                                "trigger": trigger[f.trigger]}) for f in catalogue.fines]})


# ---------------------------------------------------------------- the year's close: CSV and the review
async def send_csv(svc: Services, turn: Handling, words: Sequence[str]) -> None:
    """`book [SEASON]`: the season's cash book (default: the current season) as a CSV file."""
    ib = turn.inbound
    start = await season_start(svc, ib)
    year = season_year(tuple(words)) if words else start.year_at(svc.clock())
    s = await cash_storage.settings(svc.store, ib.chat.platform, ib.chat.chat_id)
    lines = await cash_storage.book(svc.store, ib.chat.platform, ib.chat.chat_id, year)
    label = start.label(year)
    if not lines:
        turn.messages.append(Message(ib.chat, Text("cash.csv_empty", {"season": label})))
        return
    data = report.book_csv([report.CsvLine(b.at, label, b.name, b.kind, b.code, b.amount, b.game_id, b.by_name,
                                           b.note) for b in lines], s.currency, decimals(s.currency))
    turn.messages.append(Message(ib.chat, Text("cash.csv", {"season": label, "n": len(lines),
                                                            "total": Money(sum(b.amount for b in lines),
                                                                           s.currency)}),
                                 file=(report.file_name(ib.chat.chat_id, label), data)))


async def review_lines(svc: Services, ib: Inbound, args: tuple[str, ...]) -> list[Text]:
    """The season's cash in /jahresrueckblick: fines booked, paid in, and what is open at its end (every
    line of it and the seasons before); nothing for a club whose book has no line of the season."""
    start = await season_start(svc, ib)
    year = season_year(args) if args else start.year_at(svc.clock())
    s = await cash_storage.settings(svc.store, ib.chat.platform, ib.chat.chat_id)
    lines = [b.line() for b in await cash_storage.book(svc.store, ib.chat.platform, ib.chat.chat_id)]
    season = [ln for ln in lines if ln.season == year]
    if not season:
        return []
    fines = sum(ln.amount for ln in season if ln.kind in (Kind.AUTO, Kind.FINE, Kind.ABSENT))
    return [Text("cash.review", {"fines": Money(fines, s.currency), "paid": Money(cash.paid(season), s.currency),
                                 "open": Money(cash.total(ln for ln in lines if ln.season <= year), s.currency)})]
