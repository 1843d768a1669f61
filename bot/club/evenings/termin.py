"""The club evenings, bot-side: /termin (set, show, move, cancel the next evening), the ✅/❌ answers
by button kept up to date in one list message, and the reminders the bot posts by itself a day and an
hour before (the plugin's `scheduled` hook, bot/schedule/own_posts.py)."""

from __future__ import annotations

import re
from dataclasses import replace
from datetime import tzinfo
from functools import cache

from babel.dates import get_day_names

from bot.app.turn import Turn
from bot.club import roles as club_roles
from bot.club.charts import chat_zone
from bot.club.evenings import storage as tstore
from bot.club.host import action
from bot.games.plugin import Services
from bot.schedule.own_posts import register_post
from bot.schedule.scheduler import Job
from bot.schedule.zones import zone
from core import names
from core.club import termin
from core.club.roles import Act
from core.errors import GameError
from core.messages import Button, Chat, Inbound, Message, Text, group_of

ANSWER_ARG = re.compile(r"t([0-9]{1,18})([yn])")  # a ChatButton's argument: `<host>:<chat>:t<evening>y|n`
MAX_NAME = 40  # characters of an answerer's name kept on the list


@cache
def _weekdays(languages: tuple[str, ...]) -> dict[str, int]:
    """Weekday names (wide and abbreviated, CLDR via Babel) of the languages, the first language's
    meaning winning where two disagree."""
    out: dict[str, int] = {}
    for lang in reversed(languages):
        for width in ("wide", "abbreviated"):
            for day, name in get_day_names(width, locale=lang).items():
                out[str(name).casefold().rstrip(".")] = int(day)
    return out


def date_words(svc: Services, lang: str) -> termin.Words:
    """The words a /termin date may be typed with, in every language (the chat's first)."""
    languages = (lang, *(lg for lg in svc.catalogs.languages if lg != lang))
    return termin.Words(_weekdays(languages), svc.catalogs.words("termin.words.today"),
                        svc.catalogs.words("termin.words.tomorrow"), svc.catalogs.words("termin.words.at"))


async def may_plan(svc: Services, ib: Inbound) -> None:
    """Setting, moving and cancelling the evening is the club's: a chat admin, an appointed scorer or the
    treasurer (core/club/roles.py) — a role, never games played; anyone else is told who may."""
    await club_roles.require(svc, ib.actor, ib.chat, Act.PLAN)


async def cmd_termin(svc: Services, turn: Turn, args: tuple[str, ...]) -> None:
    """/termin: the next evening and its list; /termin DAY TIME [PLACE/NOTE] sets (or moves) it;
    /termin cancel (absagen, avboka, отмена, отмяна) cancels it."""
    ib = turn.inbound
    words = " ".join(args).split()
    now = svc.clock()
    tz = await chat_zone(svc, ib)
    if not words:
        ev = await tstore.current(svc.store, ib.chat.platform, ib.chat.chat_id, now)
        if ev is None:
            raise GameError("termin.none")
        shown = await svc.store.run(tstore.show_job(ev.id))  # a new list message: the answers now edit this one
        turn.messages.append(await list_message(svc, ib.chat, replace(ev, shown=shown), tz))
        return
    if len(words) == 1 and words[0].casefold() in svc.catalogs.words("termin.words.cancel"):
        await may_plan(svc, ib)
        gone = await svc.store.run(tstore.cancel_plan_job(ib.chat.platform, ib.chat.chat_id, now))
        if gone is None:
            raise GameError("termin.none")
        when = termin.local(gone.starts, tz)  # the list message says so, its buttons gone; the reply too
        turn.messages.append(Message(ib.chat, Text("termin.list_cancelled", {"when": when}), edit_key=gone.edit_key))
        turn.messages.append(Message(ib.chat, Text("termin.cancelled", {"when": when, "name": ib.actor.name})))
        return
    await may_plan(svc, ib)  # who may comes first: a refused user is told that, not how to type a date
    planned = termin.parse(words, termin.local(now, tz), date_words(svc, await svc.lang(ib)))
    done = await svc.store.run(tstore.plan_job(ib.chat.platform, ib.chat.chat_id, planned.when.timestamp(),
                                               planned.note, ib.actor.user_id, now))
    if done.moved:
        said = "termin.unchanged" if done.same else "termin.moved_asked" if done.cleared else "termin.moved"
        turn.messages.append(Message(ib.chat, Text(said, {"name": ib.actor.name})))
    turn.messages.append(await list_message(svc, ib.chat, done.evening, tz))


def answer_buttons(svc: Services, chat_id: str, ev: tstore.Evening) -> tuple[tuple[Button, ...], ...]:
    prefix = action(svc, chat_id, f"t{ev.id}")
    return ((Button(Text("termin.yes"), prefix + "y"), Button(Text("termin.no"), prefix + "n")),)


async def list_texts(svc: Services, ev: tstore.Evening, tz: tzinfo) -> dict[str, object]:
    """The parameters every evening text shares: when, the note, who comes and who does not."""
    yes, no = termin.roster(await tstore.answers(svc.store, ev.id))
    nobody = Text("termin.nobody")
    return {"when": termin.local(ev.starts, tz), "note": Text("termin.note", {"note": ev.note}) if ev.note else "",
            "yes_n": len(yes), "yes": ", ".join(yes) or nobody, "no_n": len(no), "no": ", ".join(no) or nobody}


async def list_message(svc: Services, chat: Chat, ev: tstore.Evening, tz: tzinfo) -> Message:
    """The evening's one list message: edited in place (`edit_key`) whenever an answer changes it."""
    return Message(chat, Text("termin.list", await list_texts(svc, ev, tz)), answer_buttons(svc, chat.chat_id, ev),
                   edit_key=ev.edit_key)


async def answer(svc: Services, turn: Turn, chat: Chat, arg: str) -> bool:
    """✅ or ❌ (`<host>:<chat>:t<evening>y|n`; bot/app/routing.py has checked that it is pressed in that chat):
    the actor's one answer, changed by pressing the other; the list message is edited, nothing new is posted.
    A button of another chat's evening, a cancelled or begun one does nothing. False: no /termin button."""
    m = ANSWER_ARG.fullmatch(arg)
    if m is None:
        return False
    ib = turn.inbound
    if ib.chat.private or (ib.chat.platform, ib.chat.chat_id) != (chat.platform, chat.chat_id):
        raise GameError("termin.stale")
    yes = m.group(2) == "y"
    name = names.clean(ib.actor.name)[:MAX_NAME] or ib.actor.user_id[:MAX_NAME]
    done = await svc.store.run(tstore.answer_job(int(m.group(1)), chat.platform, chat.chat_id, ib.actor.user_id,
                                                 name, yes, svc.clock()))
    if done is None:
        raise GameError("termin.stale")
    ev, changed = done
    turn.notice = Text("termin.you_yes" if yes else "termin.you_no")
    if changed:  # the same answer again edits nothing: a flood of presses posts nothing
        turn.messages.append(await list_message(svc, ib.chat, ev, await chat_zone(svc, ib)))
    return True


async def reminder(svc: Services, job: Job) -> list[Message]:
    """A reminder of the evening a job names (`termin:<id>:day|hour`), posted in the chat (and topic) it
    was set in; nothing for an evening cancelled, moved away from this job, or already begun — and no
    day-before reminder once the hour's is due (a bot that was down posts only the latter)."""
    kind = job.key.rsplit(":", 1)[-1]
    ev = await tstore.evening(svc.store, int(job.payload.get("evening", -1)))
    now = svc.clock()
    if (ev is None or ev.cancelled is not None or (ev.platform, ev.chat_id) != (job.platform, job.chat_id)
            or ev.starts != float(job.payload.get("starts", -1)) or now >= ev.starts
            or (kind == "day" and now >= ev.starts - termin.HOUR_BEFORE)):
        return []
    tz = zone(await svc.store.chat_tz(job.platform, group_of(job.chat_id)))
    chat = Chat(job.platform, job.chat_id, False)
    key = "termin.remind_hour" if kind == "hour" else "termin.remind_day"
    return [Message(chat, Text(key, await list_texts(svc, ev, tz)), answer_buttons(svc, chat.chat_id, ev))]


register_post(tstore.OWNER, reminder)  # the reminders are the club's own posts (no game's)
