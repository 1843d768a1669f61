"""/kasse (/cashbox, /kassa, /касса …): the club's cash box — its balances and settings, and the dispatch
to the treasurer's bookings (entries.py); who may do what is decided in cash_rules.py `permit`."""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Sequence

from babel.numbers import list_currencies

from bot.app.turn import Turn
from bot.club.cash import attendance as cash_attendance
from bot.club.cash import entries
from bot.club.cash import fine_names as cash_names
from bot.club.cash import storage as cash_storage
from bot.club.cash import treasury as cash_club
from bot.club.cash.rules import permit
from bot.club.cash.storage import Settings
from bot.club.host import action
from bot.games.plugin import Services
from bot.storage.sql import Tx
from bot.texts.option_words import vocabulary_of
from core.club.cash import ledger as cash
from core.errors import GameError
from core.messages import Button, Chat, Message, Text
from core.money import Money

# each action of /kasse → the catalog list of the words that name it in every language (literal keys)
ACTIONS: dict[str, str] = {
    "on": "cash.words.on", "off": "cash.words.off", "currency": "cash.words.currency",
    "average": "cash.words.average", "treasurer": "cash.words.treasurer", "pay": "cash.words.pay",
    "fine": "cash.words.fine", "correct": "cash.words.correct", "fines": "cash.words.fines",
    "absent": "cash.words.absent", "book": "cash.words.book", "carry": "cash.words.carry",
    "member": "cash.words.member", "fee": "cash.words.fee", "dues": "cash.words.dues", "expense": "cash.words.expense",
    "me": "cash.words.me", "remind": "cash.words.remind",
}
CSV_ACTION = "cash_csv"  # the overview's button: `<host>:<chat>:cash_csv`


def vocabulary(svc: Services) -> dict[str, str]:
    """Every language's words for the actions → the action (a word two actions share is left out)."""
    return vocabulary_of(svc.catalogs, ACTIONS, fold=True)


# ---------------------------------------------------------------- /kasse
async def cmd_kasse(svc: Services, turn: Turn, args: tuple[str, ...]) -> None:
    """/kasse [ACTION …]: alone the balances; else one of ACTIONS with its words, or a member's lines."""
    words = " ".join(args).split()
    if not words:
        await overview(svc, turn)
        return
    action = vocabulary(svc).get(words[0].casefold())
    if action is None:  # a member's name: their lines (else refused as neither)
        await entries.member_view(svc, turn, words)
        return
    await HANDLERS[action](svc, turn, words[1:])


async def overview(svc: Services, turn: Turn) -> None:
    """Each member's balance (most owed first), what is open, in credit and paid in, and the treasurer."""
    ib = turn.inbound
    chat = ib.chat
    s = await cash_storage.settings(svc.store, chat.platform, chat.chat_id)
    book = await cash_storage.book(svc.store, chat.platform, chat.chat_id)
    if not s.enabled and not book:
        turn.messages.append(Message(chat, Text("cash.off_view")))
        return
    lines = [b.line() for b in book]
    shown = {b.member: b.name for b in book}
    owed = sorted(cash.balances(lines).items(), key=lambda mv: (-mv[1], mv[0]))
    rows: list[Text | str] = [Text("cash.line" if v > 0 else "cash.line_credit",
                                   {"name": shown.get(m, m), "amount": Money(abs(v), s.currency)})
                              for m, v in owed[:svc.list_lines]]
    if len(owed) > svc.list_lines:
        rows.append(Text("board.more", {"n": len(owed) - svc.list_lines}))
    # one word per figure, each figure once; none of them negative but the till (the treasurer paid ahead)
    money = {"open": Money(cash.open_sum(lines), s.currency), "credit": Money(cash.credit_sum(lines), s.currency)}
    till = Text("cash.till", {"paid": Money(cash.paid(lines), s.currency),
                              "spent": Money(cash.spent(lines), s.currency),
                              "till": Money(cash.till(lines), s.currency)})
    head = Text("cash.head", {"currency": s.currency, "treasurer": s.treasurer_name or Text("cash.nobody")})
    state = Text("cash.state_on") if s.enabled else Text("cash.state_off")
    turn.messages.append(Message(chat, Text("cash.view", {
        "head": head, "state": state, "lines": rows or [Text("cash.empty")], "sums": [Text("cash.sums", money), till]}),
        ((Button(Text("cash.csv_button"), action(svc, chat.chat_id, CSV_ACTION)),),)))


async def chat_action(svc: Services, turn: Turn, chat: Chat, arg: str) -> None:
    """The overview's CSV button: answered only in the chat it names (bot/app/routing.py has checked the
    origin already; a private chat never gets a club's cash book by a button)."""
    if turn.inbound.chat.chat_id != chat.chat_id or chat.private:
        raise GameError("stale_button")
    if arg.startswith(cash_attendance.ACTION):  # charge an evening's absent (cash_attendance.py)
        await cash_attendance.confirmed(svc, turn, chat, arg)
        return
    if arg != CSV_ACTION:
        raise GameError("stale_button")
    await entries.send_csv(svc, turn, ())


# ---------------------------------------------------------------- settings (a chat admin's)
Change = Callable[[Settings], Settings]


async def change(svc: Services, turn: Turn, need: str, how: Change,
                 check: Callable[[Tx, Settings], Awaitable[None]] | None = None) -> Settings:
    """Settings changed in one transaction that reads them, checks who may (`permit`) and writes them."""
    chat = turn.inbound.chat

    async def job(tx: Tx) -> Settings:
        await tx.lock_chat(chat.platform, chat.chat_id)
        s, _cat = await cash_storage.settings_in(tx, chat.platform, chat.chat_id)
        permit(need, s, turn.inbound.actor)
        if check is not None:
            await check(tx, s)
        new = how(s)
        await cash_storage.save_settings(tx, chat.platform, chat.chat_id, new)
        return new
    done: Settings = await svc.store.run(job)
    return done


async def cmd_on(svc: Services, turn: Turn, words: Sequence[str]) -> None:
    """On: automatic fines are booked from the next move on; whoever turns it on is the treasurer
    until an admin names another. A club that never changed its catalogue gets the default fines named in
    the chat's language (cash_names.py `seeded`): the club's own names from then on."""
    actor = turn.inbound.actor
    chat = turn.inbound.chat
    fines = cash_names.seeded(svc, await svc.lang(turn.inbound))

    async def seed(tx: Tx, s: Settings) -> None:
        if not s.custom_fines:
            await cash_storage.save_fines(tx, chat.platform, chat.chat_id, s, fines)
    s = await change(svc, turn, "admin", lambda s: s._replace(
        enabled=True, custom_fines=True, treasurer_id=s.treasurer_id or actor.user_id,
        treasurer_name=s.treasurer_name or actor.name), seed)
    turn.messages.append(Message(chat, Text("cash.on", {"currency": s.currency, "treasurer": s.treasurer_name})))


async def cmd_off(svc: Services, turn: Turn, words: Sequence[str]) -> None:
    await change(svc, turn, "admin", lambda s: s._replace(enabled=False))
    turn.messages.append(Message(turn.inbound.chat, Text("cash.off")))


async def cmd_currency(svc: Services, turn: Turn, words: Sequence[str]) -> None:
    """A currency (ISO 4217, as Babel knows it), only while the cash book is empty: its lines are minor
    units of the currency they were booked in."""
    code = (words[0] if words else "").upper()
    if code not in list_currencies():
        raise GameError("kegeln.cash.bad_currency", currency=code[:10] or "–")
    chat = turn.inbound.chat

    async def empty_book(tx: Tx, s: Settings) -> None:
        if await cash_storage.lines_in(tx, chat.platform, chat.chat_id) and code != s.currency:
            raise GameError("kegeln.cash.currency_in_use", currency=s.currency)
    await change(svc, turn, "admin", lambda s: s._replace(currency=code), empty_book)
    turn.messages.append(Message(chat, Text("cash.currency_set", {"currency": code})))


async def cmd_average(svc: Services, turn: Turn, words: Sequence[str]) -> None:
    """`average on|off`: whether members who miss an evening are charged its average."""
    said = vocabulary(svc).get(words[0].casefold()) if words else None
    if said not in ("on", "off"):
        raise GameError("kegeln.cash.average_usage")
    await change(svc, turn, "admin", lambda s: s._replace(charge_absent=said == "on"))
    turn.messages.append(Message(turn.inbound.chat, Text("cash.average_on" if said == "on" else "cash.average_off")))


async def cmd_treasurer(svc: Services, turn: Turn, words: Sequence[str]) -> None:
    """`treasurer NAME-or-mention`: a chat admin, or the treasurer, hands the role to a chat user."""
    ib = turn.inbound
    if not words:
        raise GameError("kegeln.cash.treasurer_usage")
    to = await svc.players.find(ib, " ".join(words), for_scorer=True)
    if to.user_id in ib.bots:
        raise GameError("bot_opponent")

    async def not_already(tx: Tx, s: Settings) -> None:
        if s.treasurer_id == to.user_id:
            raise GameError("kegeln.cash.treasurer_already", name=to.name)
    await change(svc, turn, "hand_on", lambda s: s._replace(treasurer_id=to.user_id, treasurer_name=to.name),
                 not_already)
    turn.messages.append(Message(ib.chat, Text("cash.treasurer", {"name": to.name})))


async def absent(svc: Services, turn: Turn, words: Sequence[str]) -> None:
    """`absent NAME…`: charge them; `absent` alone: the last /termin evening's ❌ list offered to charge."""
    await (entries.cmd_absent(svc, turn, words) if words else cash_attendance.offer(svc, turn, words))


HANDLERS: dict[str, Callable[[Services, Turn, Sequence[str]], Awaitable[None]]] = {
    "on": cmd_on, "off": cmd_off, "currency": cmd_currency, "average": cmd_average, "treasurer": cmd_treasurer,
    "pay": entries.cmd_pay, "fine": entries.cmd_fine, "correct": entries.cmd_correct,
    "fines": entries.cmd_fines, "absent": absent, "book": entries.send_csv,
    "carry": entries.cmd_carry, "member": cash_club.cmd_member, "fee": cash_club.cmd_fee,
    "dues": cash_club.cmd_dues, "expense": cash_club.cmd_expense, "me": cash_club.cmd_me,
    "remind": cash_club.cmd_remind,
}
