"""/tv (/табло …): the link to the chat's TV page, told privately to who may have it; /tv new replaces it.

Who may: the chat's admins and the scorer of a running game here (of the game the page shows) — who run the
evening; a new link (`/tv new`, which stops the TV's old one) only the chat's admins. Everyone else is
refused with the reason. The link goes to the asker privately (never into the group: whoever has it sees
the page); where the platform cannot reach them, the group is told only that."""

from __future__ import annotations

from bot.app.turn import Command, Turn
from bot.club import roles
from bot.games.plugin import Services
from bot.web import feed, links, pgnotify
from bot.web.screen import screen_of
from core.club.roles import Act
from core.errors import GameError
from core.messages import Message, Text

NEW = ("new", "neu", "ny", "новая", "новый", "нова", "нов")  # /tv new in the chat's words too


async def cmd_tv(svc: Services, turn: Turn, args: tuple[str, ...]) -> None:
    ib = turn.inbound
    served = feed.served(svc)
    if served is None:
        raise GameError("tv.off")
    words = " ".join(args).strip().casefold()
    if words and words not in NEW:
        raise GameError("tv.usage")
    if not await may_have_link(svc, turn):
        raise GameError("tv.not_allowed")
    rotate = bool(words)
    if rotate and not await may_make_new_link(svc, turn):
        raise GameError("tv.new_not_allowed")
    token = await links.token_for(svc.store, ib.chat.platform, ib.chat.chat_id, svc.clock(), rotate=rotate)
    if rotate:  # the pages open on the old link stop now (on PostgreSQL the other processes read the token anew)
        feed.changed(svc, ib.chat.platform, ib.chat.chat_id)
        await notify_everywhere(svc, ib.chat.platform, ib.chat.chat_id)
    title = await svc.store.chat_title(ib.chat.platform, ib.chat.chat_id, ib.actor.user_id) or ib.chat.title or ""
    key = "tv.rotated" if rotate else "tv.link"
    text = Text(key, {"url": links.Link(served.link(token)), "chat": title})  # the address as it is (links.Link)
    turn.messages.append(Message(ib.actor, text, about=ib.chat,
                                 fallback=Message(ib.chat, Text("tv.unreachable", {"name": ib.actor.name}))))
    turn.outcome = "tv:rotated" if rotate else "tv:link"


async def may_have_link(svc: Services, turn: Turn) -> bool:
    """A chat admin, or the scorer of a running game here of the game the page shows (bot/web/screen.py)."""
    ib = turn.inbound
    if ib.actor.is_admin and not ib.actor.as_chat:
        return True
    screen = screen_of(svc)
    if screen is None:
        return False
    return any(screen.scorer(row) == ib.actor.user_id
               for row in await svc.store.chat_games(ib.chat.platform, ib.chat.chat_id))


async def may_make_new_link(svc: Services, turn: Turn) -> bool:
    """A new link stops the club's TV at once: only the club's roles may (a chat admin or an appointed
    scorer: core/club/roles.py `Act.SCREEN`) — not the scorer of any game, who would otherwise take the
    club's screen with a casual game."""
    ib = turn.inbound
    return not ib.actor.as_chat and await roles.allowed(svc, ib.actor, ib.chat, Act.SCREEN)


async def notify_everywhere(svc: Services, platform: str, chat_id: str) -> None:
    job = pgnotify.notify_job(svc.store, platform, chat_id)
    if job is not None:
        await svc.store.run(job)


COMMAND = Command("tv", ("link",), cmd_tv, group_only=True, choices=(("link", ("new",)),),
                  aliases=(("de", "anzeigetafel"), ("sv", "resultattavla"), ("ru", "табло"), ("ru", "tablo"),
                           ("bg", "табло"), ("bg", "tablo")))
