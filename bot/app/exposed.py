"""A secret typed in the open that the platform would not let the bot delete (`Inbound.undeleted`): the
group has seen it, so the game rules that code out as its typist's secret, and the group is told so
plainly (never the code), with what the bot would need to delete such messages itself."""

from __future__ import annotations

from bot.app.routing import awaiting_secret
from bot.app.turn import Turn
from bot.games.plugin import GAMES, Services
from core.errors import GameError
from core.messages import Message, Text

# what the bot needs on each platform to delete a member's message (docs/telegram.md, docs/discord.md)
RIGHTS = {"telegram": "exposed.rights_telegram", "discord": "exposed.rights_discord"}


async def on_undeleted(svc: Services, turn: Turn) -> None:
    """The message stays: the actor's game of this chat that waits for their secret takes the code as
    seen (`Game.exposed_action`); a privately played game's move (a daily guess), or a game that no
    longer waits, only gets the plain word that the group has seen it."""
    ib = turn.inbound
    text = (ib.text or "").strip()
    here = [r for r in await awaiting_secret(svc, ib.actor)
            if r.platform == ib.chat.platform and r.chat_id == ib.chat.chat_id]
    here.sort(key=lambda r: GAMES[r.kind].private_play)  # the seat's game first (bot/app/routing.py `game_here`)
    game = GAMES[here[0].kind] if here else None
    action = game.exposed_action(text) if game is not None and not game.private_play and text else None
    played = False
    if action is not None:
        try:
            await svc.runner.play(turn, here[0], action)
            played = True
        except GameError:  # set meanwhile (a race with a private message): nothing left to rule out
            pass
    if not played:
        turn.outcome = "undeleted"
        turn.messages.append(Message(ib.chat, Text("exposed.seen", {"name": ib.actor.name})))
    if ib.undeleted == "rights" and ib.chat.platform in RIGHTS:
        turn.messages.append(Message(ib.chat, Text(RIGHTS[ib.chat.platform])))
