"""/forgetme: erase a player after a confirmation button that only they can press, only where they
asked, and only for `CONFIRM_SECONDS`; their running games end first (resigned, or cancelled), then
one transaction deletes or anonymises every row declared as theirs (bot/yourdata/erase.py)."""

from __future__ import annotations

import logging
from typing import TYPE_CHECKING, Any

from bot.app.runner import acting, loaded
from bot.app.turn import Turn
from bot.games.plugin import personal
from bot.storage.base import Conflict
from bot.storage.sql import Query, Tx
from bot.yourdata.declare import TOKEN_PREFIX, entries
from bot.yourdata.erase import forget_job, leave_nothing, like
from core.buttons import ForgetButton
from core.errors import GameError
from core.games.actions import Timeout
from core.games.base import Game
from core.messages import Button, Message, Text

if TYPE_CHECKING:  # a type-only edge: the handlers get the services
    from bot.app.services import Services

log = logging.getLogger("bot.yourdata")

CONFIRM_SECONDS = 600.0  # the confirmation button works this long after /forgetme
ASK = Query("INSERT INTO forget_requests (platform, nonce, user_id, chat_id, until)"
            " VALUES (:platform, :nonce, :user_id, :chat_id, :until)")
DROP_OLD = Query("DELETE FROM forget_requests WHERE (platform = :platform AND user_id = :user_id) OR until < :now")
REQUEST = Query("SELECT user_id, chat_id, until FROM forget_requests WHERE platform = :platform AND nonce = :nonce")
RUNNING = Query("SELECT id FROM games WHERE platform = :platform AND over = 0 AND state LIKE :pattern ESCAPE '\\'")


async def cmd_forgetme(svc: Services, turn: Turn, args: tuple[str, ...]) -> None:
    """What will be erased and what kept, and the button that does it (for this user, here, for a while)."""
    ib = turn.inbound
    nonce = f"{svc.rng.getrandbits(64):016x}"

    async def job(tx: Tx) -> None:  # one pending confirmation per user (the newest button), none kept expired
        now = svc.clock()
        await tx.execute(DROP_OLD, platform=ib.actor.platform, user_id=ib.actor.user_id, now=now)
        await tx.execute(ASK, platform=ib.actor.platform, nonce=nonce, user_id=ib.actor.user_id,
                         chat_id=ib.chat.chat_id, until=now + CONFIRM_SECONDS)

    await svc.store.run(job)
    button = Button(Text("forget.button"), str(ForgetButton(nonce)), settles=True)
    turn.messages.append(Message(ib.chat, Text("forget.ask", {"name": ib.actor.name,
                                                              "minutes": int(CONFIRM_SECONDS // 60)}),
                                 ((button,),), only_for_actor=True))


async def confirmed(svc: Services, turn: Turn, pressed: ForgetButton) -> None:
    """The confirmation pressed: by the user who asked, in the chat they asked in, in time — else refused
    and nothing changes."""
    ib = turn.inbound
    found = await svc.store.fetch(REQUEST, platform=ib.actor.platform, nonce=pressed.nonce)
    if not found:
        raise GameError("forget.stale")
    user_id, chat_id, until = found[0]
    if user_id != ib.actor.user_id or chat_id != ib.chat.chat_id:
        raise GameError("forget.not_yours")
    if until < svc.clock():
        raise GameError("forget.expired")
    await end_games(svc, turn)
    token = f"{TOKEN_PREFIX}{svc.rng.getrandbits(64):016x}"  # random: nothing links it to the old id
    await svc.store.run(forget_job(ib.actor.platform, ib.actor.user_id, token, entries(personal()), svc.clock()))
    await leave_nothing(svc.store, entries(personal()))
    forget_caches(svc, ib.actor.platform, ib.actor.user_id)
    log.info("%s: a user was forgotten", ib.actor.platform)  # never which one
    turn.messages.append(Message(ib.chat, Text("forget.done")))


async def end_games(svc: Services, turn: Turn) -> None:
    """The running games the user plays in end first: resigned (or given up, cancelled, else ended as by
    the timeout), told where they run. A game they only score (a Kegel evening) goes on without them."""
    ib = turn.inbound
    uid = ib.actor.user_id
    for (game_id,) in await svc.store.fetch(RUNNING, platform=ib.actor.platform, pattern=like(uid)):
        async with svc.lock(game_id):
            row = await svc.store.get_game(game_id)
            if row is None or row.over:
                continue
            game, state = loaded(row)
            if not svc.plugins[row.kind].forgotten_player_ends or uid not in {p.user_id for p in game.players(state)}:
                continue
            for step in range(len(ENDINGS) + 1):  # the first the game allows; at last, as by the timeout
                try:
                    action, by = _ending(game, state, uid, step)
                    if action is None:
                        continue
                    await svc.apply(turn, row, acting(action, by), state)
                    break
                except GameError:
                    continue
                except Conflict:
                    log.warning("could not end game %d before a /forgetme", game_id)
                    break
        svc.release(game_id)


ENDINGS = ("resign", "giveup", "cancel")


def _ending(game: Game[Any], state: Any, uid: str, step: int) -> tuple[object | None, str | None]:
    """The leaving player's `step`-th way to end a game, and who makes it: resign, give up, cancel (a
    game may refuse one with a GameError), else the game's timeout, made by nobody."""
    if step < len(ENDINGS) - 1:
        return game.quit_action(state, uid, ENDINGS[step]), uid
    if step == len(ENDINGS) - 1:
        return game.cancel_action(state, uid), uid
    return Timeout(), None


def forget_caches(svc: Services, platform: str, uid: str) -> None:
    """The App's memory of the user (their stored name, where they acted, their focus) goes too."""
    for cache in (svc._users, svc._focus, svc._prompted, svc._answered):
        cache.pop((platform, uid), None)
    for key in [k for k in svc._members if k[0] == platform and k[2] == uid]:
        svc._members.pop(key, None)
    for chat in (uid, f"u:{uid}"):  # their private chat's language and their own /lang choice
        svc.localiser.forget_chat(platform, chat)
