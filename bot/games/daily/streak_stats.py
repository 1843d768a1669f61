"""`/stats daily [NAME]`: a player's daily streaks in this chat, per puzzle, with the freezes held and used."""

from __future__ import annotations

from bot.app.turn import Turn
from bot.games.daily import storage
from bot.games.daily.day import today
from bot.games.plugin import Services
from core.errors import GameError
from core.games.daily import presenter, rules
from core.games.daily.streaks import MAX_HELD, streak
from core.messages import Message, Text


async def streak_stats(svc: Services, turn: Turn, args: tuple[str, ...]) -> None:
    """The actor's (or the named player's, someone this chat has seen) streak per puzzle played here:
    the running count, the best, the freezes held of the most, and the frozen days of the running one."""
    ib = turn.inbound
    if ib.chat.private:
        raise GameError("group_only", command="stats daily")
    uid, name = ib.actor.user_id, ib.actor.name
    if args:
        found = await svc.players.find(ib, " ".join(args), known_only=True)
        uid, name = found.user_id, found.name
    day = await today(svc, ib.chat)
    lines: list[Text] = []
    for puzzle in rules.PUZZLES:
        history = await storage.daily_history(svc.store, ib.chat.platform, ib.chat.chat_id, puzzle)
        mine = [x for x in history if x.user_id == uid]
        if not mine:
            continue
        found_streak = streak([x.day for x in mine if x.outcome == "solved"], day)
        frozen = Text("streak.frozen_stat", {"n": len(found_streak.frozen_now)}) if found_streak.frozen_now else ""
        lines.append(Text("streak.stats_line", {
            "game": Text(presenter.GAME_KEYS[puzzle]), "n": found_streak.current, "best": found_streak.best,
            "held": found_streak.held, "max": MAX_HELD, "frozen": frozen}))
    if not lines:
        turn.messages.append(Message(ib.chat, Text("streak.stats_none", {"name": name})))
        return
    turn.messages.append(Message(ib.chat, Text("streak.stats", {"name": name, "lines": lines})))
