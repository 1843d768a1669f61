"""Attendance meets money: after a /termin evening the treasurer is offered its ❌ list to charge the
absent the evening's average, with one confirmation button (`<host>:<chat>:cash_absent_<evening>`, bot/club/host.py)."""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime, tzinfo

from bot.app.turn import Turn
from bot.club.cash import entries
from bot.club.cash import members as cash_members
from bot.club.cash import storage as cash_storage
from bot.club.cash.rules import permit
from bot.club.charts import chat_zone
from bot.club.evenings import storage as termin_storage
from bot.club.host import action
from bot.games.plugin import Services
from bot.schedule.scheduler import Job, schedule_job
from bot.storage.sql import Query, Tx
from core import names
from core.errors import GameError
from core.messages import Actor, Button, Chat, Inbound, Message, Text

ACTION = "cash_absent_"  # the offer's button: `<host>:<chat>:cash_absent_<evening id>` (no colon in an arg)
WINDOW = 2 * 86_400.0  # an evening is offered up to two days after it began
OFFER_AFTER = 4 * 3600.0  # the offer comes four hours after the evening began (at once if that is past)
LAST_BEGUN = Query("SELECT id, starts FROM kegel_evening_dates WHERE platform = :platform AND chat_id = :chat_id"
                   " AND cancelled IS NULL AND starts <= :now AND starts >= :since ORDER BY starts DESC, id DESC"
                   " LIMIT 1")
JOB_SET = Query("SELECT 1 FROM scheduled_jobs WHERE owner = :owner AND platform = :platform AND chat_id = :chat_id"
                " AND key = :key")  # done or not: an evening is offered once


async def absent_members(svc: Services, ev: termin_storage.Evening) -> tuple[dict[str, str], list[str]]:
    """The ❌ answers of an evening as members of the box (an account linked to a member, else a member
    of the answer's name: names.key → name), and the answers that are nobody's member (named, not charged)."""
    known = await cash_members.members(svc.store, ev.platform, ev.chat_id)
    found: dict[str, str] = {}
    nobody: list[str] = []
    for a in await termin_storage.answers(svc.store, ev.id):
        if a.yes:
            continue
        hit = await cash_members.linked(svc.store, ev.platform, ev.chat_id, a.user_id)
        if hit is None and names.key(a.name) in known:
            hit = (names.key(a.name), known[names.key(a.name)])
        if hit is None:
            nobody.append(a.name)
        else:
            found[hit[0]] = hit[1]
    return found, nobody


async def schedule_offer(tx: Tx, platform: str, chat_id: str, now: float) -> None:
    """In a finished game's transaction (cash_fines.py): the last /termin evening that has begun gets its
    offer job, once (`absent:<evening id>`, due four hours after it began)."""
    row = await tx.fetchrow(LAST_BEGUN, platform=platform, chat_id=chat_id, now=now, since=now - WINDOW)
    if row is None:
        return
    key = f"absent:{int(row[0])}"
    if await tx.fetchrow(JOB_SET, owner=cash_storage.JOBS, platform=platform, chat_id=chat_id, key=key) is None:
        await schedule_job(cash_storage.JOBS, platform, chat_id, key, max(now, float(row[1]) + OFFER_AFTER),
                           {"evening": int(row[0])}, now)(tx)


async def offer_post(svc: Services, job: Job) -> list[Message]:
    """The evening's offer, posted by itself in the group for the treasurer (notified): its ❌ members not
    charged yet and the button; nothing where the club charges no average, or nobody is left to charge."""
    ev = await termin_storage.evening(svc.store, int(job.payload.get("evening", 0)))
    s = await cash_storage.settings(svc.store, job.platform, job.chat_id)
    if ev is None or ev.cancelled is not None or not (s.enabled and s.charge_absent and s.treasurer_id):
        return []
    members, nobody = await absent_members(svc, ev)
    charged = {b.member for b in await cash_storage.book_since(svc.store, job.platform, job.chat_id, ev.starts)
               if b.kind == "absent"}
    members = {k: n for k, n in members.items() if k not in charged}
    if not members:
        return []
    group = Chat(job.platform, job.chat_id, False)
    zone_of = await chat_zone(svc, Inbound(Actor(job.platform, "", ""), group))
    return [offer_message(svc, group, ev, members, nobody, zone_of).notify(s.treasurer_id).named(s.treasurer_name)]


def offer_message(svc: Services, chat: Chat, ev: termin_storage.Evening, members: dict[str, str], nobody: list[str],
                  tz: tzinfo) -> Message:
    day = datetime.fromtimestamp(ev.starts, tz).date()
    text = Text("cash.absent_offer", {"date": day, "names": ", ".join(members.values()),
                                      "nobody": Text("cash.absent_nobody", {"names": ", ".join(nobody)})
                                      if nobody else ""})
    return Message(chat, text, ((Button(Text("cash.absent_button"), action(svc, chat.chat_id, f"{ACTION}{ev.id}")),),))


async def offer(svc: Services, turn: Turn, words: Sequence[str]) -> None:
    """`absent` without names: the last /termin evening that has begun (in the last two days), its ❌ list
    as members and one button that charges them — offered to the treasurer."""
    ib = turn.inbound
    chat = ib.chat
    s = await cash_storage.settings(svc.store, chat.platform, chat.chat_id)
    permit("treasurer", s, ib.actor)
    if not s.charge_absent:
        raise GameError("kegeln.cash.absent_off")
    now = svc.clock()
    rows = await svc.store.fetch(LAST_BEGUN, platform=chat.platform, chat_id=chat.chat_id, now=now, since=now - WINDOW)
    ev = await termin_storage.evening(svc.store, int(rows[0][0])) if rows else None
    if ev is None:
        raise GameError("kegeln.cash.no_evening")
    members, nobody = await absent_members(svc, ev)
    if not members:
        raise GameError("kegeln.cash.nobody_absent")
    turn.messages.append(offer_message(svc, chat, ev, members, nobody, await chat_zone(svc, ib)))


async def confirmed(svc: Services, turn: Turn, chat: Chat, arg: str) -> None:
    """The offer's button: the treasurer (checked in the booking's transaction) charges the evening's ❌
    list as it stands now; a second press is refused (`absent_twice`), another chat's evening is stale."""
    ev_id = arg.removeprefix(ACTION)
    ev = await termin_storage.evening(svc.store, int(ev_id)) if ev_id.isdigit() else None
    if ev is None or (ev.platform, ev.chat_id) != (chat.platform, chat.chat_id) or ev.cancelled is not None:
        raise GameError("stale_button")
    members, _nobody = await absent_members(svc, ev)
    if not members:
        raise GameError("kegeln.cash.nobody_absent")
    await entries.charge_absent(svc, turn, members, "", ev.starts)
