"""The chat's tables by period as messages: `/top [GAME] week|month|season` and the weekly table post
(`/posts weekly 18:00`: on the week's first day, the week that has just ended)."""

from __future__ import annotations

from bot.app.turn import Turn
from bot.games.plugin import Services, rated_kinds, wins_game
from bot.retention import periods, schedule
from bot.retention.periods import Window
from bot.retention.settings import post_settings
from bot.schedule.own_posts import register_post
from bot.schedule.scheduler import Job
from core.messages import Chat, Message, Text
from core.solver.games import BOT


async def wins_text(svc: Services, chat: Chat, span: Window, period: Text) -> Text | None:
    """The period's wins in the game that lists them (`GamePlugin.wins_table`: the duel's; the computer opponent
    is no player in it), or None without a game of it."""
    kind = wins_game(svc.plugins)
    rows = await periods.wins(svc, chat, kind, span, BOT, svc.list_lines) if kind else []
    if not rows:
        return None
    lines = [Text("top.period_wins_line", {"i": i, "name": name, "wins": won, "n": games})
             for i, (name, won, games) in enumerate(rows, 1)]
    return Text("top.period_wins", {"period": period, "table": lines})


async def rated_text(svc: Services, chat: Chat, kind: str, span: Window, period: Text) -> Text | None:
    """The period's rating changes in one game, the biggest rise first, or None without a rated game."""
    rows = (await periods.changes(svc, chat, kind, span))[:svc.list_lines]
    if not rows:
        return None
    lines = [Text("top.period_rated_line", {"i": i, "name": c.name, "sign": "+" if c.change >= 0 else "−",
                                            "change": abs(c.change), "n": c.games}) for i, c in enumerate(rows, 1)]
    return Text("top.period_rated", {"game": Text(svc.plugins[kind].title or kind), "period": period,
                                     "table": lines})


async def show_period(svc: Services, turn: Turn, kind: str | None, period: str) -> None:
    """/top week (the wins of this week in the game that lists them, the duel's) or /top GAME week (that game's
    rating changes of this week)."""
    chat = turn.inbound.chat
    span = await periods.window(svc, chat, period)
    named = periods.title(period, span)
    shown = await (wins_text(svc, chat, span, named) if kind is None else rated_text(svc, chat, kind, span, named))
    if shown is None:
        named_game = kind or wins_game(svc.plugins) or ""
        plugin = svc.plugins.get(named_game)
        game = Text(plugin.title) if plugin and plugin.title else named_game
        shown = Text("top.period_empty", {"period": named, "game": game})
    turn.messages.append(Message(chat, shown))


async def weekly_post(svc: Services, job: Job) -> list[Message]:
    """A weekly run: arm next week's (by its key), then post the week that has just ended — its duel
    wins and each rated game's changes — unless the chat turned it off, the run is a day late, or the
    week saw no game here (no post then: nothing to tell)."""
    chat = Chat(job.platform, job.chat_id, False)
    settings = await post_settings(svc.store, chat.platform, chat.chat_id)
    if settings.weekly is None or not job.key.startswith(schedule.WEEKLY + ":"):
        return []
    day = str(job.payload.get("day") or job.key.split(":", 1)[1])
    await svc.store.run(await schedule.next_after(svc, chat, schedule.WEEKLY_OWNER, schedule.WEEKLY,
                                                  settings.weekly, day, settings.week_start))
    if job.late > 24 * 3600:
        return []
    span = await periods.window(svc, chat, "week", last=True)
    named = periods.title("week", span, last=True)
    parts = [t for t in [await wins_text(svc, chat, span, named),
                         *[await rated_text(svc, chat, kind, span, named) for kind in rated_kinds(svc.plugins)]]
             if t is not None]
    if not parts:
        return []
    return [Message(chat, Text("posts.weekly", {"tables": parts}))]


register_post(schedule.WEEKLY_OWNER, weekly_post)
