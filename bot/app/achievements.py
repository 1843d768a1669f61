"""Achievements, bot side: awarded in the transaction of the move that ends a game, announced once in its
chat, listed in /stats, and replayed from the stored games like the ratings.

A plugin names its catalog (`GamePlugin.achievements`) and what a finished game showed (`GamePlugin.feats`);
core/achievements.py decides what is earned. The table `achievements` (shared migration 14) keeps each one
once per player, game kind and chat, with the game that earned it first: the insert that finds it there
already is no news, so a redelivered or retried move never announces twice. Per chat, as the ratings here:
what a group sees never tells that someone played elsewhere. A Kegel club's are its members' (by name, the
club's records), like its ratings."""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any, NamedTuple

from bot.app.move_types import results
from bot.storage.base import GameRow, Store
from bot.storage.queries import FINISHED_STAMP
from bot.storage.sql import Query, Tx, TxJob
from bot.storage.store import RatingsMoved
from core import serial
from core.achievements import BY_CODE, Achievement, Feat, earned
from core.messages import Chat, Message, Text
from core.solver.games import BOT

if TYPE_CHECKING:  # a type-only edge: the hooks get the services
    from bot.games.plugin import GamePlugin, Services

AWARD = Query("INSERT INTO achievements (platform, chat_id, kind, user_id, name, code, game_id, at)"
              " VALUES (:platform, :chat_id, :kind, :user_id, :name, :code, :game_id, :at)")
OF_PLAYER = Query("SELECT kind, code FROM achievements WHERE platform = :platform AND chat_id = :chat_id"
                  " AND user_id = :user_id ORDER BY at, kind, code")
ALL = Query("SELECT platform, chat_id, kind, user_id, name, code, game_id, at FROM achievements"
            " ORDER BY platform, chat_id, kind, user_id, code")
WIPE = Query("DELETE FROM achievements")
ATTEMPTS = 5

Earned = list[tuple[Feat, Achievement]]


class Award(NamedTuple):
    """One stored achievement."""

    platform: str
    chat_id: str
    kind: str
    user_id: str
    name: str
    code: str
    game_id: int
    at: float


async def finished(svc: Services, plugin: GamePlugin[Any], row: GameRow, state: Any, results: Any,
                   at: float) -> Earned:
    """What a game that ended earns its players (the computer opponent earns nothing)."""
    if not plugin.achievements:
        return []
    feats = [f for f in await plugin.feats(svc, row, state, results, at) if f.user_id != BOT]
    return earned(plugin.achievements, feats)


def award_job(row: GameRow, pairs: Earned, now: float, told: Earned) -> TxJob:
    """Store each achievement not held yet, in the move's transaction; `told` gets the new ones (refilled
    when the transaction is run again)."""

    async def job(tx: Tx) -> None:
        told.clear()
        for feat, a in pairs:
            if await tx.insert_unique(AWARD, platform=row.platform, chat_id=row.chat_id, kind=row.kind,
                                      user_id=feat.user_id, name=feat.name, code=a.code, game_id=row.id, at=now):
                told.append((feat, a))

    return job


def announced(chat: Chat, told: Earned) -> list[Message]:
    return [Message(chat, Text("achievement.earned", {"name": f.name, "title": Text(a.title)})) for f, a in told]


async def of_player(store: Store, platform: str, chat_id: str, user_id: str) -> list[Text]:
    """/stats: the player's achievements in this chat, oldest first, each with its game."""
    rows = await store.fetch(OF_PLAYER, platform=platform, chat_id=chat_id, user_id=user_id)
    return [Text("achievement.line", {"title": Text(BY_CODE[code].title), "game": Text(f"game.{kind}")})
            for kind, code in rows if code in BY_CODE]


async def replay(svc: Services) -> list[Award]:
    """Every award again from the stored finished games, in the order they ended: the first game that
    earned an achievement keeps it."""
    held: dict[tuple[str, str, str, str, str], Award] = {}
    for row, at in await svc.store.finished_games():
        plugin = svc.plugins.get(row.kind)
        if plugin is None:
            continue
        game = plugin.game
        state = serial.load(game.state_type, row.state)
        for feat, a in await finished(svc, plugin, row, state, results(game, state), at):
            key = (row.platform, row.chat_id, row.kind, feat.user_id, a.code)
            held.setdefault(key, Award(*key[:4], feat.name, a.code, row.id, at))
    return sorted(held.values(), key=lambda w: (w.platform, w.chat_id, w.kind, w.user_id, w.code))


async def stored(store: Store) -> list[Award]:
    return [Award(*r) for r in await store.fetch(ALL)]


async def rebuild(svc: Services) -> int:
    """Replace the table with the replay (`python -m bot ratings rebuild`, after the ratings); returns how
    many there are. A game that ended (or a stored state rewritten) meanwhile makes it replay again."""
    for _ in range(ATTEMPTS):
        stamp = svc.store.finished_stamp(await svc.store.finished_games())
        awards = await replay(svc)

        async def job(tx: Tx, stamp: Any = stamp, awards: list[Award] = awards) -> bool:
            await tx.lock_table("achievements")  # a game that ends now awards on top, after this
            now = await tx.fetchrow(FINISHED_STAMP)
            if now is None or (int(now[0]), int(now[1])) != stamp:
                return False
            await tx.execute(WIPE)
            await tx.executemany(AWARD, [w._asdict() for w in awards])
            return True

        if await svc.store.run(job):
            return len(awards)
    raise RatingsMoved(f"games kept ending during {ATTEMPTS} replays; run the rebuild again")


__all__: Sequence[str] = ("Award", "announced", "award_job", "finished", "of_player", "rebuild", "replay")
