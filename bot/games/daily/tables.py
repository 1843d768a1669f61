"""The daily puzzle's tables (bot side): today's board of a chat's puzzle and its all-time table, with streaks."""

from __future__ import annotations

from datetime import date

from bot.app.turn import Turn
from bot.games.daily import storage
from bot.games.daily.attempt import result_text
from bot.games.daily.day import today
from bot.games.daily.storage import DailyLine
from bot.games.plugin import Services
from core.games.daily import presenter
from core.games.daily.streaks import Streak, streak
from core.messages import Chat, Message, Text


def _extras(found: Streak) -> dict[str, Text | str]:
    """The freezes held (" 🧊1") and the frozen days of the running streak (" ❄️1"), "" where none."""
    return {"held": Text("streak.held", {"n": found.held}) if found.held else "",
            "frozen": Text("streak.frozen", {"n": len(found.frozen_now)}) if found.frozen_now else ""}


def badge(found: Streak) -> Text | str:
    """A running streak on the day's board: "🔥5", with the freezes held ("🔥9 🧊1") and, when a freeze
    covered a day of it, the frozen days ("🔥9 🧊1 ❄️1": never added to the count)."""
    if found.current <= 1 and not found.frozen_now:
        return ""
    if not found.held and not found.frozen_now:
        return Text("daily.streak", {"n": found.current})
    return Text("streak.badge", {"n": found.current, **_extras(found)})


def now_badge(found: Streak) -> Text | str:
    """The running streak and the freezes held, in the all-time table ("" without a freeze held and a
    streak of more than one day)."""
    if found.current <= 1 and found.held == 0:
        return ""
    return Text("streak.now", {"n": found.current, **_extras(found)})


async def show_day(svc: Services, turn: Turn, chat: Chat, puzzle: str) -> None:
    """Who has played today's puzzle here: the solvers by attempts, then the others; a running
    attempt shows no more than that it runs."""
    ib = turn.inbound
    day = await today(svc, chat)
    lines = await storage.daily_day(svc.store, chat.platform, chat.chat_id, day, puzzle)
    game = Text(presenter.GAME_KEYS[puzzle])
    if not lines:
        turn.messages.append(Message(chat, Text("daily.board_empty", {"game": game, "day": date.fromisoformat(day)})))
        return
    lang = await svc.lang(ib)
    solved: dict[str, list[str]] = {}  # every player's solved days, from one read (not one per player)
    for past in await storage.daily_history(svc.store, chat.platform, chat.chat_id, puzzle):
        if past.outcome == "solved":
            solved.setdefault(past.user_id, []).append(past.day)
    shown = []
    for i, line in enumerate(lines, 1):  # the solvers come first: only they are ranked
        found = streak(solved.get(line.user_id, []), day)
        key = "daily.board_line" if line.outcome == "solved" else "daily.board_line_unranked"
        shown.append(svc.catalogs.render(Text(key, {
            "i": i, "name": line.name, "result": result_text(line.outcome, line.attempts, puzzle),
            "streak": badge(found)}), lang).rstrip())
    turn.messages.append(Message(chat, Text("daily.board_day", {
        "game": game, "day": date.fromisoformat(day), "lines": await svc.capped(ib, shown, svc.list_lines)})))


async def show_table(svc: Services, turn: Turn, chat: Chat, puzzle: str) -> None:
    """The chat's all-time table of a puzzle: days solved, average attempts of the solved ones,
    best streak; most solved first."""
    ib = turn.inbound
    game = Text(presenter.GAME_KEYS[puzzle])
    history = await storage.daily_history(svc.store, chat.platform, chat.chat_id, puzzle)
    if not history:
        turn.messages.append(Message(chat, Text("daily.table_empty", {"game": game})))
        return
    players: dict[str, list[DailyLine]] = {}
    for line in history:
        players.setdefault(line.user_id, []).append(line)
    day = await today(svc, chat)
    rows = []
    for lines in players.values():
        solved = [x for x in lines if x.outcome == "solved"]
        found = streak([x.day for x in solved], day)
        average = sum(x.attempts for x in solved) / len(solved) if solved else 0.0
        rows.append((len(solved), -average if solved else -99.0, lines[-1].name, len(lines), average, found))
    rows.sort(key=lambda r: (-r[0], -r[1], r[2]))
    lang = await svc.lang(ib)
    shown = [svc.catalogs.render(Text("daily.table_line", {  # only who has solved one is ranked, with an average
        "i": i, "name": name, "solved": solved, "played": played, "average": average, "best": found.best,
        "now": now_badge(found)}) if solved else
        Text("daily.table_line_unsolved", {"name": name, "played": played}), lang)
        for i, (solved, _key, name, played, average, found) in enumerate(rows, 1)]
    turn.messages.append(Message(chat, Text("daily.table", {
        "game": game, "lines": await svc.capped(ib, shown, svc.list_lines)})))
