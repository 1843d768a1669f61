"""Routing an inbound to its game: plain text (a guess, a secret, a word), buttons, and the
challenge and rematch flow that /accept, /decline, /rematch and the 🔁 button share. Game-neutral:
every game is reached through its `core.games.base.Game` interface (a challenge's answer and rematch
link through `core.games.challenge.ChallengeGame`'s); what a message means before any game is asked
(a random secret, which verbs a private chat may press) is decided here, once per message."""

from __future__ import annotations

from typing import Any

from bot.app.runner import loaded
from bot.app.turn import Turn
from bot.games.plugin import GAMES, Services
from bot.storage.base import Conflict, GameRow
from bot.yourdata.forget import confirmed
from core import buttons, serial
from core.buttons import ChatButton, ForgetButton, GameButton, LangButton
from core.codes import looks_like_code
from core.errors import GameError
from core.games.base import Game, Verb
from core.games.challenge import Answer, Challenge, ChallengeGame
from core.messages import Actor, Button, Chat, Inbound, Message, Text

# typed where a secret is due: a random one, please (every catalog language's word)
RANDOM_WORDS = frozenset({"random", "zufall", "zufallscode", "случайно", "случаен", "slump"})
QUIT_VERBS = frozenset({Verb.GIVEUP, Verb.RESIGN})
# what a player may do privately in a group's game that waits for their private input: their own
# secret, or ending their own part in it
PRIVATE_VERBS = frozenset({Verb.SECRET, Verb.RANDOM, *QUIT_VERBS})
FOLLOW_UP_VERBS = frozenset({Verb.AGAIN, Verb.REMATCH})  # a new game from a finished one


def asks_random(text: str) -> bool:
    """A plain message that asks for a random secret where one is due ("random", "zufall" …). The same for
    every game (as a typed code is `core.codes.looks_like_code`), so asked once per message, not per game."""
    return text.lower() in RANDOM_WORDS


def challenge_of(game: Game[Any], state: Any) -> Challenge | None:
    """The challenge waiting for an answer in a game (only a `ChallengeGame` has one)."""
    return game.challenge(state) if isinstance(game, ChallengeGame) else None


def follows_up(game: Game[Any]) -> bool:
    """The game makes a new game from a finished one (🔁/▶ buttons, /rematch): it has a `follow_up`."""
    return type(game).follow_up is not Game.follow_up


async def on_text(svc: Services, turn: Turn, raw: str) -> None:
    """A plain message: a secret or guess for the actor's game, or a word a game takes as a move."""
    ib = turn.inbound
    text = raw.strip()
    is_random = asks_random(text)  # the same words and codes for every game: asked once
    if not (is_random or looks_like_code(text)):
        if await offer_text(svc, turn, text):
            return
        if ib.chat.private:
            waiting = await awaiting_secret(svc, ib.actor)
            if waiting:  # typed here while a secret is due, it is meant as one: the game says what is wrong
                await secret_input(svc, turn, waiting, text)
                return
            turn.messages.append(Message(ib.chat, Text("private.hint")))
        else:
            turn.outcome = "ignored"
        return
    if ib.chat.private:
        waiting = await awaiting_secret(svc, ib.actor)
        if waiting:
            await secret_input(svc, turn, waiting, None if is_random else text)
            return
    row = await game_here(svc, ib.actor, ib.chat)
    if row is None:
        if ib.chat.private:
            await no_game_waits(svc, turn)
        else:
            turn.outcome = "ignored"
        return
    await guess_or_secret(svc, turn, row, text, is_random)


async def offer_text(svc: Services, turn: Turn, text: str) -> bool:
    """Plain text that is no digit code goes to a game whose `accepts_text(state, text)` says yes:
    privately as the secret it waits for, else as the seated player's move in this chat."""
    ib = turn.inbound

    def accepts(row: GameRow) -> bool:
        game, state = loaded(row)
        return game.accepts_text(state, text)

    if ib.chat.private:
        waiting = [r for r in await awaiting_secret(svc, ib.actor) if accepts(r)]
        if waiting:
            await secret_input(svc, turn, waiting, text)
            return True
    mine = await svc.players.seated_game(ib.actor, ib.chat)
    here = [] if ib.chat.private else await private_plays(svc, ib.actor, ib.chat)
    row = next((r for r in [*([mine] if mine else []), *here] if accepts(r)), None)
    if row is None:
        return False
    await guess_or_secret(svc, turn, row, text, False)
    return True


async def game_here(svc: Services, actor: Actor, chat: Chat) -> GameRow | None:
    """The actor's game in this chat: the one they sit in, else (in a group) the one of this group
    they play privately (a daily attempt), so that a guess for it typed here is caught unseen."""
    row = await svc.players.seated_game(actor, chat)
    if row is None and not chat.private:
        plays = await private_plays(svc, actor, chat)
        row = plays[0] if plays else None
    return row


async def guess_or_secret(svc: Services, turn: Turn, row: GameRow, text: str, is_random: bool) -> None:
    ib = turn.inbound
    game, state = loaded(row)
    if game.secret_prompt(row.id, state, ib.actor.user_id) is not None:
        if is_random:  # revealing nothing, so it is taken even in the open
            await svc.runner.play(turn, row, game.secret_action(None))
            return
        # typed in the open where a secret (or a privately played game's move) was expected: never echo it
        turn.delete_inbound = True
        turn.messages.append(Message(ib.chat, Text(game.secret_in_group, {"name": ib.actor.name})))
        return
    action = None if is_random else game.text_action(state, ib.actor.user_id, text)
    if action is None:
        turn.outcome = "ignored"
        return
    await svc.runner.play(turn, row, action)


async def no_game_waits(svc: Services, turn: Turn) -> None:
    """A code typed privately that no game waits for: if the game the actor's last private input went
    to (or else the game that asked them last) is one of theirs that says what became of it (a
    finished daily attempt), that; else the generic hint."""
    key = (turn.inbound.actor.platform, turn.inbound.actor.user_id)
    last = svc.inputs.last(key)
    row = await svc.store.get_game(last) if last is not None else None
    said = await svc.plugins[row.kind].not_waiting(svc, row, turn.inbound) if row is not None else None
    if said is not None:
        raise said
    turn.messages.append(Message(turn.inbound.chat, Text("private.no_game")))


async def awaiting_secret(svc: Services, actor: Actor) -> list[GameRow]:
    """The user's games (in any chat) that wait for their private input."""
    waiting = []
    for row in await svc.store.seated_games(actor.platform, actor.user_id):
        game, state = loaded(row)
        if game.secret_prompt(row.id, state, actor.user_id) is not None:
            waiting.append(row)
    return waiting


async def private_plays(svc: Services, actor: Actor, chat: Chat) -> list[GameRow]:
    """The actor's running games of a group that they play privately (`Game.private_play`: a daily
    attempt). They take no seat in the group (bot/games/daily/attempt.py), so `Players.seated_game` does not
    find them."""
    return [r for r in await awaiting_secret(svc, actor)
            if GAMES[r.kind].private_play and r.platform == chat.platform and r.chat_id == chat.chat_id]


async def secret_input(svc: Services, turn: Turn, waiting: list[GameRow], code: str | None) -> None:
    actor = turn.inbound.actor
    chosen = input_target(svc, actor, waiting, code)
    if chosen is None:
        choices = []
        for r in waiting:  # each names the group it runs in, to a player who has acted there
            title = await svc.title_for(r.platform, r.chat_id, r.private, actor.user_id)
            choices.append((Button(svc.plugins[r.kind].label(r, title), str(GameButton(r.id, Verb.SECRET))),))
        turn.messages.append(Message(turn.inbound.chat, Text("private.which_game"), tuple(choices)))
        return
    svc.inputs.answered((actor.platform, actor.user_id), chosen.id)
    await svc.runner.play(turn, chosen, GAMES[chosen.kind].secret_action(code))


def input_target(svc: Services, actor: Actor, waiting: list[GameRow], code: str | None) -> GameRow | None:
    """Which of the games waiting for the actor's private input this input is for: the one chosen by
    its button (`_focus`); the only one waiting; else of those it fits (a code of another length or a
    row of other pegs fits one of them only) the only one, or the game that asked last
    (`PrivateInputs.note_prompts`) unless another of its kind waits too. None: truly ambiguous (asked
    back, naming the games)."""
    key = (actor.platform, actor.user_id)
    focus = svc.inputs.focused(key)
    for row in waiting:
        if row.id == focus:
            return row
    if len(waiting) == 1:
        return waiting[0]
    pool = [r for r in waiting if fits(svc, r, actor.user_id, code)] or waiting
    if len(pool) == 1:
        return pool[0]
    asked = next((r for r in pool if r.id == svc.inputs.asked_last(key)), None)
    if asked is None or any(r.kind == asked.kind for r in pool if r is not asked):
        return None  # two games of one kind (two dailies, two duels): the input cannot tell them apart
    return asked


def fits(svc: Services, row: GameRow, user_id: str, code: str | None) -> bool:
    """Whether the game would take this input (a dry run of the pure rules, nothing stored); a code
    guessed before fits (it is meant for that game, which says so)."""
    game, state = loaded(row)
    try:
        game.apply(state, game.secret_action(code), user_id, svc.ctx())
    except GameError as err:
        return err.code == "already_guessed"
    return True


async def on_action(svc: Services, turn: Turn, action: str) -> None:
    """A pressed button (core/buttons.py: a game's, a chat's, the language menu's), re-validated: who,
    from where, in which phase."""
    ib = turn.inbound
    pressed = buttons.parse(action)
    if isinstance(pressed, LangButton):
        await set_lang(svc, turn, pressed.code)
        return
    if isinstance(pressed, ForgetButton):  # /forgetme's confirmation: its own checks (bot/yourdata/forget.py)
        await confirmed(svc, turn, pressed)
        return
    if isinstance(pressed, ChatButton) and pressed.kind in svc.plugins:  # names a chat, not a game
        target = Chat(ib.chat.platform, pressed.chat, private=False)
        check_origin(ib, None, None, None, pressed.kind, target)
        if ib.chat.private and ib.member:  # the platform says the actor is in that chat: they may see its title
            await svc.store.note_chat(target.platform, target.chat_id, None, ib.actor.user_id)
        await svc.plugins[pressed.kind].chat_action(svc, turn, target, pressed.arg)
        return
    if not isinstance(pressed, GameButton):
        raise GameError("stale_button")
    row = await svc.store.get_game(pressed.game)
    if row is None:
        raise GameError("stale_button")
    verb, app = pressed.spoken, pressed.app_verb
    game, state = loaded(row)
    if app is Verb.SECRET and game.secret_prompt(row.id, state, ib.actor.user_id) is None:
        # an old guess button of the actor's own game (pressed privately or in its chat): say what became of it
        mine = any(p.user_id == ib.actor.user_id for p in game.players(state))
        said = await svc.plugins[row.kind].not_waiting(svc, row, ib) if mine else None
        if said is not None:
            raise said
    check_origin(ib, row, game, state, verb)
    if app in FOLLOW_UP_VERBS and follows_up(game):
        await follow_up(svc, turn, row, verb)
    elif app is Verb.SECRET:
        text = game.secret_prompt(row.id, state, ib.actor.user_id)
        if text is None:
            raise GameError("no_secret_expected")
        if ib.text is not None:  # a modal's answer: the secret itself, typed privately
            await svc.runner.play(turn, row, game.secret_action(ib.text.strip()))
            return
        svc.inputs.focus((ib.actor.platform, ib.actor.user_id), row.id)
        turn.messages.append(Message(ib.actor, text))
    elif app in QUIT_VERBS:  # the answer to "which one do you want to end?" (bot/games/shared.py)
        quit_ = game.quit_action(state, ib.actor.user_id, verb)
        if quit_ is None:
            raise GameError("wrong_quit", command=verb)
        await svc.runner.play(turn, row, quit_)
    else:
        chosen = game.button_action(state, verb, ib.actor.user_id, ib.actor.name, ib.text)
        if chosen is None:
            raise GameError("stale_button")
        await svc.runner.play(turn, row, chosen)


async def set_lang(svc: Services, turn: Turn, code: str) -> None:
    lang = svc.catalogs.supported(code)
    if lang is None:
        raise GameError("unknown_lang", code=code[:10], languages=", ".join(svc.catalogs.languages))
    ib = turn.inbound
    await svc.localiser.set_lang(ib, lang)
    turn.messages.append(Message(ib.chat, Text("lang.set", {"lang": Text(f"lang.name.{lang}")})))


async def answer(svc: Services, turn: Turn, verb: str) -> None:
    """/accept or /decline: the newest challenge here aimed at the actor, else the newest open one."""
    ib = turn.inbound
    targeted, open_ = [], []
    for row in await svc.store.chat_games(ib.chat.platform, ib.chat.chat_id):
        game, state = loaded(row)
        answer = game.can_answer(state, ib.actor.user_id) if isinstance(game, ChallengeGame) else None
        if answer is Answer.TARGETED:
            targeted.append((row, game, state))
        elif answer is Answer.OPEN:
            open_.append((row, game, state))
    found = targeted or open_
    if not found:
        await answer_own(svc, turn, verb)
        return
    row, game, state = found[-1]
    assert isinstance(game, ChallengeGame)  # only a challenge game answers `can_answer`
    if verb == Verb.ACCEPT and targeted:
        await withdraw_twins(svc, turn, game.pair(state))
    await svc.runner.play(turn, row, game.button_action(state, verb, ib.actor.user_id, ib.actor.name, None))


async def answer_own(svc: Services, turn: Turn, verb: str) -> None:
    """/accept or /decline with nothing aimed at the actor, who waits for an answer to their own
    challenge: /decline withdraws it; /accept of one's own rematch offer says that it stands."""
    ib = turn.inbound
    row = await svc.players.seated_game(ib.actor, ib.chat)
    game, state = loaded(row) if row else (None, None)
    waiting = challenge_of(game, state) if game else None
    if row is None or game is None or waiting is None or waiting.offerer != ib.actor.user_id:
        raise GameError("no_challenge")
    if verb == Verb.DECLINE:
        await svc.runner.play(turn, row, game.cancel_action(state, ib.actor.user_id))
    elif waiting.offer and len(waiting.pair) == 2:
        raise GameError("rematch_offered", game=row.id, other=waiting.other_name(ib.actor.user_id))
    else:
        raise GameError("no_challenge")


async def follow_up(svc: Services, turn: Turn, row: GameRow, verb: str) -> None:
    """A new game from a finished one: rematch (other starter, score kept) or play again. A match
    goes on from its newest game: an old game's 🔁 follows `next_game` to the last played one. A
    rematch the other player has offered already is accepted instead (never two offers for one
    pair); the offerer asking again is told that the offer stands."""
    for _ in range(5):
        try:
            await follow_up_once(svc, turn, row, verb)
            return
        except Conflict:  # another process made the follow-up in the same instant: read again, join it
            row = await svc.store.get_game(row.id) or row
    raise GameError("busy")


async def follow_up_once(svc: Services, turn: Turn, row: GameRow, verb: str) -> None:
    game, old = loaded(row)
    moved_on: GameRow | None = None
    for _ in range(1000):
        next_id = game.next_game(old) if isinstance(game, ChallengeGame) else None
        newer = await svc.store.get_game(next_id) if next_id else None
        if newer is None or newer.kind != row.kind:
            break
        if not newer.over:
            moved_on = newer
            break
        newer_state = serial.load(game.state_type, newer.state)
        if not game.results(newer_state):  # that offer was declined/withdrawn/expired: not played
            break
        row, old = newer, newer_state
    lock = svc.runner.lock(row.id)  # both players' requests from one finished game wait for each other
    try:
        async with lock:
            if (verb == Verb.REMATCH and isinstance(game, ChallengeGame)
                    and await join_offer(svc, turn, row.kind, game.pair(old))):
                return
            if moved_on is not None:
                raise GameError("rematch_moved_on", game=moved_on.id)
            await offer_follow_up(svc, turn, row, game, old, verb)
    finally:
        if not lock.locked():
            svc.runner.release(row.id)


async def offer_follow_up(svc: Services, turn: Turn, row: GameRow, game: Game[Any], old: Any, verb: str) -> None:
    made = game.follow_up(old, verb, turn.inbound.actor.user_id, svc.ctx())
    if made is None:
        raise GameError("no_rematch")
    state, events = made

    def linked(game_id: int) -> dict[str, Any] | None:
        """The finished game's state linked to its rematch (no result, no event): a challenge game's match
        goes on in it (`ChallengeGame.next_game`); other games keep no link."""
        if not isinstance(game, ChallengeGame):
            return None
        source = serial.load(game.state_type, row.state)
        game.link_next(source, game_id)
        stored: dict[str, Any] = serial.dump(source)
        return stored

    chat = svc.chat_of(row)
    # created and linked in one transaction, compare-and-set on the finished game's row: two requests
    # at once (two processes) never make two follow-ups of one game; the second gets Conflict
    await svc.runner.create(turn, row.kind, state, events, [p.user_id for p in game.seated(state)], chat,
                     extra=svc.store.link_job(row, linked, svc.clock()))


async def pending_offers(svc: Services, chat: Chat, kind: str, pair: frozenset[str]
                          ) -> list[tuple[GameRow, Game[Any], Any, Challenge]]:
    """The rematch offers of this pair waiting for an answer in the chat, oldest first."""
    found = []
    for r in await svc.store.chat_games(chat.platform, chat.chat_id):
        if r.kind == kind:
            game, state = loaded(r)
            waiting = challenge_of(game, state)
            if waiting is not None and waiting.offer and waiting.pair == pair:
                found.append((r, game, state, waiting))
    return found


async def join_offer(svc: Services, turn: Turn, kind: str, pair: frozenset[str]) -> bool:
    """A rematch asked for while one of the pair waits: the other player's offer is accepted
    (the actor's own offers are withdrawn first, left by two requests at once); the actor's own
    offer stands (said as a refusal). False when none waits."""
    ib = turn.inbound
    me = ib.actor.user_id
    if me not in pair:
        return False
    offers = await pending_offers(svc, ib.chat, kind, pair)
    theirs = [o for o in offers if o[3].offerer != me]
    if theirs:
        row, game, state, waiting = theirs[-1]
        await withdraw_twins(svc, turn, waiting.pair)
        await svc.runner.play(turn, row, game.button_action(state, Verb.ACCEPT, me, ib.actor.name, None))
        return True
    if offers:
        row, _game, _state, waiting = offers[-1]
        raise GameError("rematch_offered", game=row.id, other=waiting.other_name(me))
    return False


async def withdraw_twins(svc: Services, turn: Turn, pair: frozenset[str]) -> None:
    """Before the actor accepts a challenge: their own waiting challenge of the same pair (two
    offers made at once) is withdrawn, so accepting never meets "already in a game"."""
    ib = turn.inbound
    row = await svc.players.seated_game(ib.actor, ib.chat)
    if row is None:
        return
    game, state = loaded(row)
    waiting = challenge_of(game, state)
    if waiting is not None and waiting.offerer == ib.actor.user_id and waiting.pair == pair:
        await svc.runner.play(turn, row, game.cancel_action(state, ib.actor.user_id))


def check_origin(ib: Inbound, row: GameRow | None, game: Game[Any] | None, state: Any, verb: str,
                 chat: Chat | None = None) -> None:
    """The one rule for every button, deep link and modal that names a game or a chat: it acts from
    the game's own chat; from a private chat only to answer what that player is asked privately (their
    own secret, while they are seated and the game waits for it). A chat action (`row` None, `chat` the
    chat it names: "play today's daily puzzle of this chat") acts from that chat, or from the actor's
    private chat, where it concerns the actor alone (their own attempt, made or resumed) — there only
    when the platform vouches that the bot issued it for a private chat (`Inbound.signed`: a signed
    Telegram deep link; a button id, which a modified client can forge, never is), and not when the
    platform says the actor is not in that chat (`Inbound.member`). Anything else names a game or
    chat elsewhere."""
    target = chat if row is None else Chat(row.platform, row.chat_id, row.private)
    if target is None or target.platform != ib.chat.platform or target.platform != ib.actor.platform:
        raise GameError("wrong_chat")
    if target.chat_id == ib.chat.chat_id:
        return
    if ib.chat.private and row is None and ib.signed:
        if ib.member is False:  # a chat's link forwarded to someone outside it: their chat, not yours
            raise GameError("not_member")
        return
    if (ib.chat.private and row is not None and game is not None and verb in PRIVATE_VERBS
            and game.secret_prompt(row.id, state, ib.actor.user_id) is not None):
        return
    raise GameError("wrong_chat")
