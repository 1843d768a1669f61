"""Players by name for the command handlers (`App.players`): the actor's seated game, an opponent as written, and
any player found by mention or name — as this chat knows them, never a name stored from another chat."""

from __future__ import annotations

from bot.storage.base import GameRow, Store
from bot.texts.option_words import mention_id
from core import names
from core.errors import GameError
from core.games.base import Player
from core.messages import Actor, Chat, Inbound


class Players:
    """The store's people as the handlers ask for them; it keeps no cache of its own (the App's `Known` does)."""

    def __init__(self, store: Store) -> None:
        self.store = store

    async def seated_game(self, actor: Actor, chat: Chat) -> GameRow | None:
        """The game the actor has a seat in here (the newest), if any."""
        rows = await self.store.seated_games(actor.platform, actor.user_id, chat.chat_id)
        return rows[0] if rows else None

    async def opponent(self, ib: Inbound, written: str) -> Player:
        """An opponent as written (see `find`); never the actor."""
        found = await self.find(ib, written)
        if found.user_id == ib.actor.user_id:
            raise GameError("self_challenge")
        if found.user_id in ib.bots:  # another bot account: it cannot play (the computer is the `bot` option)
            raise GameError("bot_opponent")
        return found

    async def find(self, ib: Inbound, written: str, for_scorer: bool = False, known_only: bool = False) -> Player:
        """A mention, @name or name → one player of this platform: by name the users seen in this
        chat first, then anyone else of that name if there is only one; several are asked back
        (those of this chat listed by mention). Someone this chat has never seen is unknown for
        statistics (`known_only`: by mention or by name) and, mentioned as an opponent, is named by
        their id alone. Names compare as core.names.key. On the console a name is the player (unless
        `known_only`: statistics are only for users the store knows; or
        `for_scorer`: the scorer role goes only to a console player who has written, who can act)."""
        console = ib.chat.platform == "console"
        uid = mention_id(written)
        if uid is not None:
            # a mention (typed ids included) names only someone this chat has seen: another chat's
            # player is unknown here — no name, record or rating of theirs from elsewhere
            seen = uid == ib.actor.user_id or await self.store.seen_in_chat(ib.chat.platform, ib.chat.chat_id, uid)
            if not seen and known_only:
                raise GameError("unknown_player", name=written.strip()[:40])
            # named as the platform names them in this message (issue 35), else as this chat knows them
            shown = names.clean(dict(ib.named).get(uid, ""))
            known = shown or (await self.store.user_name(ib.chat.platform, uid) if seen else None)
            if known is None and for_scorer and console:  # a console "mention" is only typed text
                raise GameError("kegeln.unknown_user", name=uid[:40])
            return Player(uid, known or uid)
        name = names.clean(names.clean(written).lstrip("@"))
        if not name:
            raise GameError("empty_name")
        if console and not (known_only or for_scorer):
            return Player(name, name)
        here = await self.store.find_users(ib.chat.platform, ib.chat.chat_id, name)
        found = here or ([] if known_only else await self.store.find_users(ib.chat.platform, None, name, limit=2))
        if not found and for_scorer:
            raise GameError("kegeln.unknown_user", name=name[:40])
        if not found:
            raise GameError("unknown_player", name=name[:40])
        if len(found) > 1 and here:
            raise GameError("ambiguous_player", name=name[:40],
                            candidates=", ".join(f"{n[:40]} (<@{u}>)" for u, n in found))
        if len(found) > 1:  # people of other chats are not listed here
            raise GameError("ambiguous_player_elsewhere", name=name[:40])
        return Player(*found[0])
