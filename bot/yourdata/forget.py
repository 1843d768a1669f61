"""/forgetme: erase a player after a confirmation button that only they can press, only where they
asked, and only for `CONFIRM_SECONDS`; their running games end first (resigned, or cancelled), then
one transaction deletes or anonymises every row declared as theirs (bot/yourdata/erase.py)."""

from __future__ import annotations

import logging
from typing import Any

from bot.app.move_types import Move, Moved, Step
from bot.app.runner import loaded
from bot.app.turn import Turn
from bot.games.plugin import Services, personal
from bot.storage.sql import Query, Tx
from bot.yourdata.declare import TOKEN_PREFIX, entries
from bot.yourdata.erase import forget_job, leave_nothing, like
from core.buttons import ForgetButton
from core.errors import GameError
from core.games.actions import Timeout
from core.games.base import Ctx, Event, Game
from core.messages import Button, Message, Text

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
    svc.forget_user(ib.actor.platform, ib.actor.user_id)  # what the App remembers of them
    log.info("%s: a user was forgotten", ib.actor.platform)  # never which one
    turn.messages.append(Message(ib.chat, Text("forget.done")))


async def end_games(svc: Services, turn: Turn) -> None:
    """The running games the user plays in end first: resigned (or given up, cancelled, else ended as by
    the timeout), told where they run — each a "forgotten" move through the move runner's one entry. A game
    they only score (a Kegel evening) goes on without them."""
    ib = turn.inbound
    uid = ib.actor.user_id
    for (game_id,) in await svc.store.fetch(RUNNING, platform=ib.actor.platform, pattern=like(uid)):
        row = await svc.store.get_game(game_id)
        if row is None or row.over or not svc.plugins[row.kind].forgotten_player_ends:
            continue
        game, state = loaded(row)
        if uid not in {p.user_id for p in game.players(state)}:
            continue
        try:
            await svc.runner.run(turn, row, Move(leaving(uid), "forgotten", "forgotten"))
        except Moved:  # ended, or left by them, meanwhile
            continue
        except GameError:
            log.warning("could not end game %d before a /forgetme", game_id)


def leaving(uid: str) -> Step:
    """The step of a leaving player's move: the first ending the game allows (`_ending`), on the state
    read under the game's lock (`Moved` where they have left it meanwhile)."""
    def step(game: Game[Any], state: Any, ctx: Ctx) -> tuple[Any, list[Event]]:
        if uid not in {p.user_id for p in game.players(state)}:
            raise Moved()
        for n in range(len(ENDINGS) + 1):
            try:  # a game may refuse an ending (a GameError), or have none (None)
                action, by = _ending(game, state, uid, n)
                if action is not None:
                    return game.apply(state, action, by, ctx)
            except GameError:
                if n == len(ENDINGS):
                    raise
        raise GameError("game_over")  # not reached: the timeout always ends a running game
    return step


ENDINGS = ("resign", "giveup", "cancel")


def _ending(game: Game[Any], state: Any, uid: str, step: int) -> tuple[object | None, str | None]:
    """The leaving player's `step`-th way to end a game, and who makes it: resign, give up, cancel (a
    game may refuse one with a GameError), else the game's timeout, made by nobody."""
    if step < len(ENDINGS) - 1:
        return game.quit_action(state, uid, ENDINGS[step]), uid
    if step == len(ENDINGS) - 1:
        return game.cancel_action(state, uid), uid
    return Timeout(), None
