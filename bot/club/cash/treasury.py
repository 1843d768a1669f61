"""The cash box beyond the fines: members added without a game (/kasse member), entry fees (/kasse fee),
the club's dues (/kasse dues: monthly or yearly, booked on the day by the scheduler, bot/schedule/scheduler.py)
and expenses (/kasse expense) — so that the till (paid in − paid out) stands beside what is owed."""

from __future__ import annotations

from collections.abc import Sequence
from datetime import UTC, datetime, tzinfo

from bot.app.turn import Turn
from bot.club.cash import attendance as cash_attendance
from bot.club.cash import entries
from bot.club.cash import members as cash_members
from bot.club.cash import storage as cash_storage
from bot.club.cash.entries import ISO, amount_and_reason, balance_after, enter, reason_text
from bot.club.cash.rules import decimals, permit
from bot.club.cash.storage import Settings
from bot.club.charts import chat_zone
from bot.games.plugin import Services
from bot.schedule.own_posts import register_post
from bot.schedule.scheduler import Job, cancel_job, pending, schedule_job
from bot.storage.sql import Tx
from bot.texts.option_words import mention_id
from core import names
from core.club.cash import ledger as cash
from core.club.cash.ledger import Catalogue, Kind, Line
from core.errors import GameError
from core.messages import Actor, Chat, Inbound, Message, Text
from core.money import Money

OWNER = cash_storage.JOBS  # the scheduler's owner of the cash box's jobs (`dues:<period>`, `remind:<month>`)
EVERY = {"month": "cash.every.month", "year": "cash.every.year"}
EVERY_WORDS = {"month": "cash.words.monthly", "year": "cash.words.yearly"}


def next_period(now: float, every: str, tz: tzinfo = UTC) -> tuple[str, float]:
    """The next period's name and the moment it begins in the chat's time zone (/timezone): midnight of
    the 1st of next month ("2026-04"), or of 1 January next year ("2027") — so the dues are booked on the
    club's own day."""
    t = datetime.fromtimestamp(now, tz)
    if every == "year":
        return str(t.year + 1), datetime(t.year + 1, 1, 1, tzinfo=tz).timestamp()
    year, month = (t.year + 1, 1) if t.month == 12 else (t.year, t.month + 1)
    return f"{year}-{month:02d}", datetime(year, month, 1, tzinfo=tz).timestamp()


async def zone_of(svc: Services, platform: str, chat_id: str) -> tzinfo:
    """The chat's time zone, for a job that has no inbound."""
    return await chat_zone(svc, Inbound(Actor(platform, "", ""), Chat(platform, chat_id, False)))


def name_before_amount(words: Sequence[str]) -> tuple[str, list[str]]:
    """`NAME … AMOUNT …`: a new member's name is every word before the amount."""
    i = next((i for i, w in enumerate(words) if cash.looks_like_amount(w)), len(words))
    name = names.clean(" ".join(words[:i]))
    if not name or i == len(words):
        raise GameError("kegeln.cash.fee_usage")
    return name[:40], list(words[i:])


async def cmd_member(svc: Services, turn: Turn, words: Sequence[str]) -> None:
    """`member NAME [@account]`: a member of the cash box without a game (booked like any other; charged
    the dues), optionally linked to their chat account (their statement privately, a reminder).
    `member NAME off`: one who left — no more dues; their lines and balance stay."""
    ib = turn.inbound
    if len(words) >= 2 and words[-1].casefold() in svc.catalogs.words("cash.words.off") | {"off"}:
        key = names.key(" ".join(words[:-1]))

        async def drop(tx: Tx) -> None:
            if not await cash_storage.drop_member(tx, ib.chat.platform, ib.chat.chat_id, key):
                raise GameError("kegeln.cash.unknown_member", name=names.clean(" ".join(words[:-1]))[:40])
        await enter(svc, turn, lambda _s, _c, _lines: [], {}, "collect", drop)
        turn.messages.append(Message(ib.chat, Text("cash.member_left", {"name": names.clean(" ".join(words[:-1]))})))
        return
    account = None
    if len(words) >= 2 and (words[-1].startswith("@") or mention_id(words[-1]) is not None):
        account = await svc.players.find(ib, words[-1], for_scorer=True)
        if account.user_id in ib.bots:
            raise GameError("bot_opponent")
        words = words[:-1]
    name = names.clean(" ".join(words))[:40]
    if not name or any(cash.looks_like_amount(w) for w in words):  # a name, not an amount typed by mistake
        raise GameError("kegeln.cash.member_usage")
    known = await cash_members.members(svc.store, ib.chat.platform, ib.chat.chat_id)
    name = known.get(names.key(name), name)

    async def add(tx: Tx) -> None:
        await cash_storage.add_member(tx, ib.chat.platform, ib.chat.chat_id, names.key(name), name, svc.clock(),
                                      account.user_id if account else "")
    await enter(svc, turn, lambda _s, _c, _lines: [], {}, "collect", add)  # the treasurer's, with the box off too
    turn.messages.append(Message(ib.chat, Text("cash.member_added", {"name": name}) if account is None else
                                 Text("cash.member_linked", {"name": name, "account": account.name})))


async def cmd_me(svc: Services, turn: Turn, words: Sequence[str]) -> None:
    """`me`: the asker's own statement, sent privately (where the platform cannot write privately, the
    group is told how to open the private chat, as for /mydata); only for an account linked to a member."""
    ib = turn.inbound
    mine = await cash_members.linked(svc.store, ib.chat.platform, ib.chat.chat_id, ib.actor.user_id)
    if mine is None:
        raise GameError("kegeln.cash.not_linked")
    text = await entries.statement(svc, ib, ib.chat.platform, ib.chat.chat_id, *mine)
    turn.messages.append(Message(ib.actor, text, about=ib.chat, fallback=Message(
        Chat(ib.chat.platform, ib.chat.chat_id, False), Text("cash.no_private", {"name": ib.actor.name}))))


async def reminders(svc: Services, platform: str, chat_id: str, user_ids: Sequence[str]) -> list[Message]:
    """A private reminder to each of `user_ids` (those who opted in) who is linked to a member here and
    owes: their statement, addressed to the account alone — never a message in the group."""
    linked = await cash_storage.linked(svc.store, platform, chat_id)
    s = await cash_storage.settings(svc.store, platform, chat_id)
    balances = cash.balances(b.line() for b in await cash_storage.book(svc.store, platform, chat_id))
    group = Chat(platform, chat_id, False)
    system = Inbound(Actor(platform, "", ""), group)
    out: list[Message] = []
    for user_id in dict.fromkeys(user_ids):
        if user_id not in linked or balances.get(linked[user_id][0], 0) <= 0:
            continue
        key, name = linked[user_id]
        mine = await entries.statement(svc, system, platform, chat_id, key, name)
        text = Text("cash.reminder", {"amount": Money(balances[key], s.currency), "statement": mine})
        out.append(Message(Actor(platform, user_id, name), text, about=group))
    return out


async def cmd_fee(svc: Services, turn: Turn, words: Sequence[str]) -> None:
    """`fee NAME AMOUNT [REASON]`: an entry fee; a name new to the club becomes a member of the box."""
    ib = turn.inbound
    typed_name, rest = name_before_amount(words)
    known = await cash_members.members(svc.store, ib.chat.platform, ib.chat.chat_id)
    key = names.key(typed_name)
    name = known.get(key, typed_name)

    def make(s: Settings, _c: Catalogue, _lines: list[Line]) -> list[Line]:
        typed, reason = amount_and_reason(rest, s)
        value = cash.parse_amount(typed, s.currency, decimals(s.currency), ISO)
        return [Line(Kind.FEE, key, value, by=ib.actor.user_id, at=svc.clock(), note=reason)]

    async def add(tx: Tx) -> None:
        await cash_storage.add_member(tx, ib.chat.platform, ib.chat.chat_id, key, name, svc.clock())
    s, lines, new = await enter(svc, turn, make, {key: name}, also=add)
    turn.messages.append(Message(ib.chat, Text("cash.booked_fee", {
        "name": name, "amount": Money(new[0].amount, s.currency), "by": ib.actor.name,
        "balance": Money(balance_after(lines, new, key), s.currency), "reason": reason_text(new[0].note)})))


async def cmd_expense(svc: Services, turn: Turn, words: Sequence[str]) -> None:
    """`expense AMOUNT REASON`: money the club paid out (lane rent, the trip), with what it was for; it
    lowers the till, never a member's balance. Booked with the box off too (as payments are)."""
    ib = turn.inbound

    def make(s: Settings, _c: Catalogue, _lines: list[Line]) -> list[Line]:
        typed, reason = amount_and_reason(words, s)
        if not reason:
            raise GameError("kegeln.cash.expense_usage")
        value = cash.parse_amount(typed, s.currency, decimals(s.currency), ISO)
        return [Line(Kind.EXPENSE, cash.CLUB, value, by=ib.actor.user_id, at=svc.clock(), note=reason)]
    if not words:
        raise GameError("kegeln.cash.expense_usage")
    s, lines, new = await enter(svc, turn, make, {}, "collect")
    turn.messages.append(Message(ib.chat, Text("cash.booked_expense", {
        "amount": Money(new[0].amount, s.currency), "by": ib.actor.name, "reason": reason_text(new[0].note),
        "till": Money(cash.till([*lines, *new]), s.currency)})))


async def cmd_dues(svc: Services, turn: Turn, words: Sequence[str]) -> None:
    """`dues AMOUNT monthly|yearly`: the club's dues, booked to each member of the box on the 1st of each
    month (or on 1 January) by the scheduler; `dues off` stops them. The treasurer's."""
    ib = turn.inbound
    chat = ib.chat
    said = [w.casefold() for w in words]
    off = bool(said) and said[0] in svc.catalogs.words("cash.words.off") | {"off"}
    every = "" if off else next((e for e, key in EVERY_WORDS.items() if said and said[-1] in
                                 svc.catalogs.words(key) | {e, e + "ly"}), "")
    if not off and (len(said) < 2 or not every):
        raise GameError("kegeln.cash.dues_usage")
    now = svc.clock()
    tz = await chat_zone(svc, ib)
    old = [j for j in await pending(svc.store, OWNER, chat.platform, chat.chat_id) if j.key.startswith("dues:")]

    async def job(tx: Tx) -> tuple[Settings, str, float]:
        await tx.lock_chat(chat.platform, chat.chat_id)
        s, _c = await cash_storage.settings_in(tx, chat.platform, chat.chat_id)
        permit("collect", s, ib.actor)  # the treasurer's, with the box off too (no dues are booked then)
        amount = 0 if off else cash.parse_amount(" ".join(words[:-1]).replace(" ", ""), s.currency,
                                                 decimals(s.currency), ISO)
        s = s._replace(dues=amount, dues_every=every)
        await cash_storage.save_settings(tx, chat.platform, chat.chat_id, s)
        for j in old:
            await cancel_job(OWNER, chat.platform, chat.chat_id, j.key)(tx)
        period, due = next_period(now, every or "month", tz)
        if not off:
            await schedule_job(OWNER, chat.platform, chat.chat_id, f"dues:{period}", due, {"period": period}, now)(tx)
        return s, period, due
    s, _period, due = await svc.store.run(job)
    if off:
        turn.messages.append(Message(chat, Text("cash.dues_off")))
        return
    turn.messages.append(Message(chat, Text("cash.dues_set", {
        "amount": Money(s.dues, s.currency), "every": Text(EVERY[every]),
        "date": datetime.fromtimestamp(due, tz).date()})))


REMIND_HOUR = 9 * 3600.0  # a reminder comes on the 1st of the month at 09:00 in the chat's zone, not at midnight


async def cmd_remind(svc: Services, turn: Turn, words: Sequence[str]) -> None:
    """`remind on|off`: a member linked to their account opts in to (or out of) a private reminder on the
    1st of each month while they owe — never a message in the group."""
    ib = turn.inbound
    chat = ib.chat
    said = words[0].casefold() if words else ""
    on = said in svc.catalogs.words("cash.words.on") | {"on"}
    if not on and said not in svc.catalogs.words("cash.words.off") | {"off"}:
        raise GameError("kegeln.cash.remind_usage")
    if await cash_members.linked(svc.store, chat.platform, chat.chat_id, ib.actor.user_id) is None:
        raise GameError("kegeln.cash.not_linked")
    now = svc.clock()
    period, due = next_period(now, "month", await chat_zone(svc, ib))

    async def job(tx: Tx) -> None:
        await cash_storage.set_remind(tx, chat.platform, chat.chat_id, ib.actor.user_id, on)
        if on:  # the chat's one monthly job (the same key again moves nothing but its time)
            await schedule_job(OWNER, chat.platform, chat.chat_id, f"remind:{period}", due + REMIND_HOUR,
                               {"period": period}, now)(tx)
    await svc.store.run(job)
    turn.messages.append(Message(chat, Text("cash.remind_on" if on else "cash.remind_off", {"name": ib.actor.name}),
                                 only_for_actor=True))


async def remind_post(svc: Services, job: Job) -> list[Message]:
    """The month's reminders: each opted-in linked member who owes gets their statement privately; the
    next month's job is set while anyone is opted in."""
    users = await cash_storage.reminded(svc.store, job.platform, job.chat_id)
    if users:
        following, due = next_period(max(svc.clock(), job.due) + 1, "month",
                                     await zone_of(svc, job.platform, job.chat_id))
        await svc.store.run(schedule_job(OWNER, job.platform, job.chat_id, f"remind:{following}", due + REMIND_HOUR,
                                         {"period": following}, svc.clock()))
    return await reminders(svc, job.platform, job.chat_id, users)


async def cash_post(svc: Services, job: Job) -> list[Message]:
    """The cash box's scheduled jobs: a period's dues, the month's reminders, an evening's absent offered."""
    if job.key.startswith("remind:"):
        return await remind_post(svc, job)
    if job.key.startswith("absent:"):
        return await cash_attendance.offer_post(svc, job)
    return await dues_post(svc, job)


async def dues_post(svc: Services, job: Job) -> list[Message]:
    """The scheduler's job of a period: its dues booked to each member of the box who has none of it yet
    (once, however often the job runs), the next period's job set, and a line in the group saying so."""
    period = str(job.payload.get("period", ""))
    now = svc.clock()
    tz = await zone_of(svc, job.platform, job.chat_id)

    async def run(tx: Tx) -> tuple[Settings, list[Line]]:
        await tx.lock_chat(job.platform, job.chat_id)
        s, _c = await cash_storage.settings_in(tx, job.platform, job.chat_id)
        if not s.dues or not s.dues_every or not period:
            return s, []
        members = await cash_storage.added_in(tx, job.platform, job.chat_id)
        lines = await cash_storage.lines_in(tx, job.platform, job.chat_id)
        new = cash.dues_lines(members, s.dues, period, lines, now) if s.enabled else []
        await cash_storage.append(tx, job.platform, job.chat_id, new, members)
        following, due = next_period(max(now, job.due) + 1, s.dues_every, tz)
        await schedule_job(OWNER, job.platform, job.chat_id, f"dues:{following}", due, {"period": following}, now)(tx)
        return s, new
    s, new = await svc.store.run(run)
    if not new:
        return []
    return [Message(Chat(job.platform, job.chat_id, False), Text("cash.dues_booked", {
        "period": period, "amount": Money(s.dues, s.currency), "n": len(new)}))]


register_post(OWNER, cash_post)
