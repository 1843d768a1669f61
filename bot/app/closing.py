"""A chat nobody can play in any more (a Telegram forum topic closed or deleted; the bot removed from a
group or muted there; a Discord thread deleted): its games end, told.

The platform says so (`Inbound.closed`: "closed", "deleted", "removed" or "muted"). A game there could not
go on — only the group's admins may still write in a closed topic, and the bot's own messages there are refused — and
would only time out later, its notice refused too. So each running game of that chat ends at once as an
abandoned one (its own timeout move, a "closed" move through the move runner: not rated), and each of its
players is told privately — or, who cannot be reached privately, in the group's main chat (General) — which
game ended and why. A game played privately (the daily puzzle) is left alone: its player goes on where it is
played.

Removed or muted (issue 35), the bot cannot write anywhere in the group: the games of the group and of
all its forum topics end alike (not paused: nobody could be told when they go on, and a game that
waited would only time out later), each player is told privately only, and the adapter sends nothing
more there until the bot is back.
"""

from __future__ import annotations

from bot.app.move_types import Moved
from bot.app.runner import acting
from bot.app.turn import Turn
from bot.games.plugin import GAMES, Services
from bot.storage.sql import Query
from core.errors import GameError
from core.games.actions import Timeout
from core.messages import TABLE_SEP, Actor, Chat, Message, Text
from core.solver.games import BOT

# why -> (the player's private text, the group's text for a player out of private reach, or None: the
# group cannot be written to at all)
TEXTS: dict[str, tuple[str, str | None]] = {
    "closed": ("topic.closed_game", "topic.closed_game_group"),
    "deleted": ("topic.deleted_game", "topic.deleted_game_group"),
    "removed": ("topic.removed_game", None),
    "muted": ("topic.muted_game", None),
    "unreachable": ("topic.unreachable_game", None),  # a Discord private thread the bot was removed from
}
WHOLE_GROUP = ("removed", "muted")  # the group's games and all its topics'
# the running games of a group and of its forum topics ("<group>/<topic>", core.messages.TABLE_SEP)
GROUP_GAMES = Query("SELECT id FROM games WHERE over = 0 AND platform = :platform"
                    " AND (chat_id = :chat_id OR chat_id LIKE :topics) ORDER BY id")


async def on_closed(svc: Services, turn: Turn, reason: str) -> None:
    """End the running games of the inbound's chat and tell their players (module docstring)."""
    ib = turn.inbound
    chat = ib.chat
    if chat.private or reason not in TEXTS:
        return
    general = Chat(chat.platform, chat.group, False)
    alone, in_group = TEXTS[reason]
    ended = Turn(ib)  # one for every game: the platform's update id is stored once, with the first end
    if reason in WHOLE_GROUP:
        found = await svc.store.fetch(GROUP_GAMES, platform=chat.platform, chat_id=chat.group,
                                      topics=f"{chat.group}{TABLE_SEP}%")
        rows = [row for (game_id,) in found if (row := await svc.store.get_game(int(game_id))) is not None]
    else:
        rows = await svc.store.chat_games(chat.platform, chat.chat_id)
    for row in rows:
        game = GAMES[row.kind]
        if row.over or game.private_play:
            continue
        ended.messages = []
        try:  # a "closed" end through the move runner's one entry (bot/app/runner.py)
            played = await svc.runner.run(ended, row, acting(Timeout(), None, "closed"))
        except (GameError, Moved):
            continue
        players = [p for p in game.players(played.before) if p.user_id != BOT]
        name = Text(f"game.{row.kind}")
        told = [Message(Actor(chat.platform, p.user_id, p.name), Text(alone, {"game": name}),
                        fallback=Message(general, Text(in_group, {"game": name, "name": p.name}))
                        if in_group is not None else None)
                for p in players]
        # what the game said about its end went to the chat nobody reads any more; only its private words stay
        kept = [m for m in ended.messages if isinstance(m.to, Actor)]
        turn.messages.extend(await svc.titled(row.kind, svc.chat_of(row), [*told, *kept]))
