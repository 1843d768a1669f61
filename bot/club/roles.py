"""The roles an actor holds in a club, read where each is kept: chat admin from the platform (`Actor.is_admin`),
scorer from the club's own table (appointed by a chat admin), treasurer from the cash box's settings; and the
one check every club decision asks (`require`). Trust comes from a role only, never from games played."""

from __future__ import annotations

from bot.club import storage
from bot.club.cash import storage as cash_storage  # the treasurer is the cash box's
from bot.games.plugin import Services
from core.club.roles import Act, Role, may
from core.errors import GameError
from core.messages import Actor, Chat

# the refusal of each act: who may do it, named
REFUSALS: dict[Act, str] = {
    Act.PLAN: "error.club.may_plan", Act.SEASON: "error.club.may_season", Act.MERGE: "error.club.may_merge",
    Act.APPOINT: "error.club.may_appoint", Act.ROSTER: "error.club.may_roster", Act.SCORE: "error.club.may_score",
    Act.SCREEN: "error.tv.new_not_allowed",
}


async def treasurer(svc: Services, chat: Chat) -> tuple[str, str]:
    """The treasurer's user id and name ("" when nobody is), as the cash box keeps them."""
    s = await cash_storage.settings(svc.store, chat.platform, chat.chat_id)
    return s.treasurer_id, s.treasurer_name


async def roles(svc: Services, actor: Actor, chat: Chat) -> frozenset[Role]:
    """Every role `actor` holds in the club of `chat` (a private chat is no club: admin there means nothing)."""
    if chat.private:
        return frozenset()
    held: set[Role] = {Role.ADMIN} if actor.is_admin else set()
    if Role.SCORER.value in await storage.roles_of(svc.store, chat.platform, chat.chat_id, actor.user_id):
        held.add(Role.SCORER)
    if actor.user_id and (await treasurer(svc, chat))[0] == actor.user_id:
        held.add(Role.TREASURER)
    return frozenset(held)


async def allowed(svc: Services, actor: Actor, chat: Chat, act: Act) -> bool:
    return may(act, await roles(svc, actor, chat))


async def require(svc: Services, actor: Actor, chat: Chat, act: Act) -> None:
    """Refuses (a GameError naming the club's scorers and treasurer) unless `actor` holds a role for `act`."""
    if await allowed(svc, actor, chat, act):
        return
    scorers = ", ".join(h.name for h in await storage.holders(svc.store, chat.platform, chat.chat_id,
                                                              Role.SCORER.value)) or "–"
    held_by = (await treasurer(svc, chat))[1] or "–"
    raise GameError(REFUSALS[act].removeprefix("error."), scorers=scorers, treasurer=held_by)
