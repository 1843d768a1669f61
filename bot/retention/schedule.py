"""When a chat's own posts are due (bot/schedule/scheduler.py jobs): the next time of day in the chat's zone, and
arming a chat's morning post and weekly table anew after a setting changed.

Each run is a job of its own, keyed by its day (`morning:2026-12-03`, `weekly:2026-12-07`): a run
schedules the next one before it is marked done, and writing the same key again only moves that job,
so a run repeated after a crash never makes a second next one. Changing a time, the week's first day
or the /timezone cancels the chat's pending runs and arms the next one at the new time."""

from __future__ import annotations

from datetime import date, datetime, time, timedelta

from bot.games.plugin import Services, morning_poster
from bot.retention.settings import PostSettings, post_settings
from bot.schedule.scheduler import cancel_job, pending, schedule_job
from bot.schedule.zones import zone
from bot.storage.sql import Query, Tx, TxJob
from core.messages import TABLE_SEP, Chat

WEEKLY_OWNER = "weekly"  # no game's: a handler of its own (bot/schedule/own_posts.py `register_post`)
MORNING, WEEKLY = "morning", "weekly"  # the keys' prefixes
_TABLES = Query(  # the chats of a group with post settings: the group itself and its forum topics
    "SELECT chat_id FROM chat_posts WHERE platform = :platform AND (chat_id = :group OR chat_id LIKE :topics)")
_RAN = Query("SELECT 1 FROM scheduled_jobs WHERE owner = :owner AND platform = :platform AND chat_id = :chat_id"
             " AND key = :key AND done IS NOT NULL")


def parse_time(text: str) -> str | None:
    """"8", "8:00", "08:00", "8.30", "0830" → "HH:MM"; None when it is no time of day."""
    t = text.strip().replace(".", ":").replace("h", ":")
    if t.isdigit() and len(t) == 4:
        t = f"{t[:2]}:{t[2:]}"
    hours, _, minutes = t.partition(":")
    if not hours.isdigit() or len(hours) > 2 or (minutes and (not minutes.isdigit() or len(minutes) != 2)):
        return None
    h, m = int(hours), int(minutes or 0)
    return f"{h:02d}:{m:02d}" if h < 24 and m < 60 else None


def at(day: date, hhmm: str, tz: str | None) -> float:
    """`day` at `hhmm` in the zone (a time the clocks skip is read as the zone's rules place it)."""
    h, m = (int(x) for x in hhmm.split(":"))
    return datetime.combine(day, time(h, m), zone(tz)).timestamp()


def next_run(hhmm: str, tz: str | None, after: float, weekday: int | None = None) -> tuple[str, float]:
    """The first day (ISO) whose `hhmm` in the zone comes after `after` (only days of `weekday`, if
    given: 0 Monday … 6 Sunday), and that moment."""
    first = datetime.fromtimestamp(after, zone(tz)).date()
    for i in range(15):
        day = first + timedelta(days=i)
        if weekday is not None and day.weekday() != weekday:
            continue
        due = at(day, hhmm, tz)
        if due > after:
            return day.isoformat(), due
    raise AssertionError("no day in two weeks")  # unreachable: every weekday comes within 8 days


def day_after(day: str, tz: str | None) -> float:
    """When the day after `day` begins in the zone: a run schedules its next one from there."""
    return datetime.combine(date.fromisoformat(day) + timedelta(days=1), time(), zone(tz)).timestamp()


async def _next(svc: Services, chat: Chat, owner: str, prefix: str, hhmm: str, tz: str | None, after: float,
                weekday: int | None = None) -> TxJob:
    """The job of the next run after `after` — a later day's where that day's run was made already
    (a time moved later the same day posts no second time that day)."""
    while True:
        day, due = next_run(hhmm, tz, after, weekday)
        key = f"{prefix}:{day}"
        if not await svc.store.fetch(_RAN, owner=owner, platform=chat.platform, chat_id=chat.chat_id, key=key):
            return schedule_job(owner, chat.platform, chat.chat_id, key, due, {"day": day}, svc.clock())
        after = day_after(day, tz)


async def next_after(svc: Services, chat: Chat, owner: str, prefix: str, hhmm: str, day: str,
                     weekday: int | None = None) -> TxJob:
    """The job of the run after the one of `day` (which is running now): on a later day, at `hhmm`."""
    tz = await svc.store.chat_tz(chat.platform, chat.group)
    return await _next(svc, chat, owner, prefix, hhmm, tz, max(svc.clock(), day_after(day, tz)), weekday)


async def rearm(svc: Services, chat: Chat, settings: PostSettings | None = None) -> None:
    """Cancel the chat's pending morning and weekly runs and arm the next ones its settings ask for."""
    settings = settings or await post_settings(svc.store, chat.platform, chat.chat_id)
    tz = await svc.store.chat_tz(chat.platform, chat.group)
    now = svc.clock()
    morning = morning_poster(svc.plugins)  # the morning post is a game's (the daily puzzle's `scheduled` hook)
    owners = ((morning, MORNING), (WEEKLY_OWNER, WEEKLY)) if morning else ((WEEKLY_OWNER, WEEKLY),)
    jobs = [cancel_job(j.owner, j.platform, j.chat_id, j.key) for owner, prefix in owners
            for j in await pending(svc.store, owner, chat.platform, chat.chat_id) if j.key.startswith(prefix + ":")]
    if settings.morning and morning:
        jobs.append(await _next(svc, chat, morning, MORNING, settings.morning, tz, now))
    if settings.weekly:
        jobs.append(await _next(svc, chat, WEEKLY_OWNER, WEEKLY, settings.weekly, tz, now, settings.week_start))

    async def all_of(tx: Tx) -> None:
        for job in jobs:
            await job(tx)
    await svc.store.run(all_of)


async def rearm_group(svc: Services, chat: Chat) -> None:
    """After a /timezone change: arm anew the posts of the group and of each of its forum topics (they
    share its zone)."""
    rows = await svc.store.fetch(_TABLES, platform=chat.platform, group=chat.group, topics=f"{chat.group}{TABLE_SEP}%")
    for (chat_id,) in rows:
        await rearm(svc, Chat(chat.platform, str(chat_id), False))
