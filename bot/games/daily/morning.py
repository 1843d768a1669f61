"""The morning post (docs/retention.md "The morning post"): yesterday's dailies of a chat, spoiler-free,
posted by the scheduler at the chat's time (`/posts morning 08:00`), with a nudge for today.

Per puzzle played yesterday (or whose streaks yesterday changed): who solved it in how many attempts
and who did not, the best, the streaks kept, saved by a freeze and ended — counts and names only,
never a code or a guess. It mentions only the players who asked for it in this chat (`/pings on`):
`Message.mention` with their names, so Discord pings exactly them (allowed_mentions) and Telegram
writes them as text mentions; everyone else is a plain name."""

from __future__ import annotations

from datetime import date, datetime, timedelta

from bot.games.daily import storage
from bot.games.daily.attempt import play_button
from bot.games.daily.day import today
from bot.games.plugin import Services
from bot.retention import schedule
from bot.retention.settings import pinged, post_settings
from bot.schedule.scheduler import Job
from bot.schedule.zones import zone
from core.games.daily import GAME, presenter, rules
from core.games.daily.streaks import day_change
from core.messages import Chat, Message, Text

GREET_UNTIL = 12  # from noon in the chat's zone a late post (the bot was down) no longer says "Good morning!"

# Discord's allowed_mentions takes at most 100 user ids ("users: Array of user_ids to mention (Max size of
# 100)", https://discord.com/developers/docs/resources/message#allowed-mentions-object): the first 100
# opted-in players of a chat (by id) are mentioned, the others read the post unmentioned
MAX_PINGS = 100


async def scheduled(svc: Services, job: Job) -> list[Message]:
    """A morning run: arm tomorrow's (idempotently, by its key) and post, unless the chat turned the
    post off meanwhile, or the run comes so late that its day is over (a bot down all day posts no
    stale morning)."""
    chat = Chat(job.platform, job.chat_id, False)
    if not job.key.startswith(schedule.MORNING + ":"):
        return []
    settings = await post_settings(svc.store, chat.platform, chat.chat_id)
    if settings.morning is None:
        return []
    day = str(job.payload.get("day") or job.key.split(":", 1)[1])
    await svc.store.run(await schedule.next_after(svc, chat, GAME.kind, schedule.MORNING,
                                                  settings.morning, day))
    if await today(svc, chat) != day:
        return []
    return await morning_post(svc, chat, day)


def _score(outcome: str, attempts: int, puzzle: str) -> str:
    return f"{attempts if outcome == 'solved' else 'X'}/{rules.MAX_ATTEMPTS[puzzle]}"


async def morning_post(svc: Services, chat: Chat, day: str) -> list[Message]:
    """The post of `day`'s morning about the day before."""
    yesterday = (date.fromisoformat(day) - timedelta(days=1)).isoformat()
    sections: list[Text] = []
    for puzzle in rules.PUZZLES:
        history = await storage.daily_history(svc.store, chat.platform, chat.chat_id, puzzle)
        played = [x for x in history if x.day == yesterday]
        solved_days: dict[str, list[str]] = {}
        names: dict[str, str] = {}
        for line in history:
            names[line.user_id] = line.name  # the latest name (the history is by day)
            if line.outcome == "solved":
                solved_days.setdefault(line.user_id, []).append(line.day)
        kept, frozen, lost = [], [], []
        for uid, days in solved_days.items():
            change = day_change(days, yesterday)
            if change.frozen:
                frozen.append(f"{names[uid]} 🔥{change.kept}")
            elif change.kept > 1:
                kept.append(f"{names[uid]} 🔥{change.kept}")
            elif change.lost > 1:
                lost.append(f"{names[uid]} ({change.lost})")
        if not played and not frozen and not lost:
            continue
        ranked = sorted(played, key=lambda x: (x.outcome != "solved", x.attempts if x.outcome == "solved" else 0))
        solvers = [x for x in ranked if x.outcome == "solved"]
        fewest = solvers[0].attempts if solvers else 0
        best = [x.name for x in solvers if x.attempts == fewest]
        sections.append(Text("posts.morning_section", {
            "game": Text(presenter.GAME_KEYS[puzzle]), "solved": len(solvers), "played": len(played),
            "best": Text("posts.morning_best", {"names": ", ".join(best), "n": fewest}) if best else "",
            "results": " · ".join(f"{x.name} {_score(x.outcome, x.attempts, puzzle)}" for x in ranked) or "—",
            "kept": Text("posts.morning_kept", {"names": ", ".join(kept)}) if kept else "",
            "frozen": Text("posts.morning_frozen", {"names": ", ".join(frozen)}) if frozen else "",
            "lost": Text("posts.morning_lost", {"names": ", ".join(lost)}) if lost else ""}))
    when = date.fromisoformat(yesterday)
    tz = await svc.store.chat_tz(chat.platform, chat.group)
    greet = datetime.fromtimestamp(svc.clock(), zone(tz)).hour < GREET_UNTIL
    key, params = ("posts.morning" if greet else "posts.late", {"day": when, "sections": sections}) if sections \
        else ("posts.morning_quiet" if greet else "posts.late_quiet", {"day": when})
    msg = Message(chat, Text(key, params), ((play_button(chat, rules.DEFAULT_PUZZLE),),))
    pings = sorted(await pinged(svc.store, chat.platform, chat.chat_id))[:MAX_PINGS]
    if not pings:
        return [msg]
    shown = {uid: await svc.store.user_name(chat.platform, uid) or uid for uid in pings}
    return [msg.notify(*pings).named(*(shown[u] for u in pings))]
