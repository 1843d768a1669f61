"""A player's attempt at a chat's daily puzzle (bot side): started, resumed, guessed on, refused once played.

The chat's code of the day is drawn with the App's random source when the day's puzzle is first
asked for, and stored (never derived from the date or the chat). Each player's attempt is stored
with its game in one transaction under a unique key (chat, day, puzzle, player): a restart, a second
device or a second private chat finds that attempt and never starts another. "Play today's daily of
this chat" is a chat action, `daily:<chat id>:<puzzle>` (a button in the group; on Telegram a signed
deep link), taken from that chat or privately (bot/app/routing.py `check_origin`)."""

from __future__ import annotations

from datetime import date

from bot.app.runner import loaded
from bot.app.turn import Turn
from bot.games.daily import storage
from bot.games.daily.day import check_open, closes, ends, today
from bot.games.daily.storage import DailyTaken
from bot.games.plugin import Services
from bot.texts.option_words import colour_letters
from core.buttons import ChatButton
from core.errors import GameError
from core.games.base import Player
from core.games.daily import GAME, presenter, rules
from core.lexicon import ALPHABETS
from core.messages import Button, Chat, Message, Text

OUTCOME_KEYS = {"playing": "daily.outcome.playing", "solved": "daily.outcome.solved", "failed": "daily.outcome.failed",
                "gave_up": "daily.outcome.gave_up", "abandoned": "daily.outcome.abandoned"}


def result_text(outcome: str, attempts: int, puzzle: str) -> Text:
    """What became of an attempt (`daily_plays.outcome`: running, or how it ended) in words."""
    return Text(OUTCOME_KEYS[outcome], {"n": attempts, "max": rules.MAX_ATTEMPTS[puzzle]})


def play_button(chat: Chat, puzzle: str) -> Button:
    """"Play today's daily of this chat": a chat action (a deep link on Telegram)."""
    return Button(Text("daily.button_play"), str(ChatButton(GAME.kind, chat.chat_id, puzzle)),
                  prompt=Text("daily.button_prompt"))


async def play(svc: Services, turn: Turn, group: Chat, puzzle: str, guess: str | None = None) -> None:
    """Start the actor's attempt at the chat's puzzle of the day, or resume it; one per day. `guess`
    (typed into the play button's private prompt, e.g. a Discord modal): played on that attempt at
    once, the first guess of a new one or the next of a running one."""
    ib = turn.inbound
    me = Player(ib.actor.user_id, ib.actor.name)
    day = await today(svc, group)
    found = await storage.daily_play(svc.store, group.platform, group.chat_id, day, puzzle, me.user_id)
    if found is None:
        tz = await svc.store.chat_tz(group.platform, group.chat_id)
        await check_open(svc, group, day, puzzle, tz)
        lang = await svc.localiser.group_lang(group)  # the group's, not the first asker's
        lang = lang if lang in ALPHABETS else "en"
        ctx = svc.ctx()
        secret, lang = await storage.daily_puzzle(svc.store, group.platform, group.chat_id, day, puzzle,
                                                  lambda: (rules.draw(puzzle, lang, ctx), lang), ctx.now,
                                                    ends(day, tz))
        state, events = rules.new(puzzle, day, me, secret, ctx, lang, colour_letters(svc.catalogs), closes(day, tz))
        job = storage.daily_start_job(group.platform, group.chat_id, day, puzzle, me.user_id, me.name, ctx.now)
        try:
            await svc.runner.create(turn, GAME.kind, state, events, [me.user_id], group, extra=job, bounded=False,
                             seat_key=seat_key(group, day, puzzle))
        except (DailyTaken, GameError) as err:  # started at the same moment elsewhere (a second device)
            if isinstance(err, GameError) and err.code != "already_in_game":
                raise
            found = await storage.daily_play(svc.store, group.platform, group.chat_id, day, puzzle, me.user_id)
        else:
            if not ib.chat.private:
                turn.messages.append(Message(group, Text("daily.playing", {
                    "name": me.name, "game": Text(presenter.GAME_KEYS[puzzle])}), ((play_button(group, puzzle),),)))
            if guess is not None:
                made = await storage.daily_play(svc.store, group.platform, group.chat_id, day, puzzle, me.user_id)
                if made is not None:
                    await guess_on(svc, turn, made.game_id, made.outcome, made.attempts, puzzle, guess)
            return
    if found is None:
        raise GameError("busy")
    if guess is not None:
        await guess_on(svc, turn, found.game_id, found.outcome, found.attempts, puzzle, guess)
        return
    await resume(svc, turn, found.game_id, found.outcome, found.attempts, puzzle)


def seat_key(group: Chat, day: str, puzzle: str) -> str:
    """The key an attempt's seat is taken under: its own, not the group's, so that a player's daily
    (played privately, maybe for hours) keeps them from none of the group's games, nor those from
    it. The daily_plays key (chat, day, puzzle, player) is the rule "one attempt per day"."""
    return f"{group.chat_id}#daily:{day}:{puzzle}"


def played_already(outcome: str, attempts: int, puzzle: str, chat: str | None = None,
                   day: str | None = None) -> GameError:
    """What became of the actor's finished attempt: today's (played, or timed out), or of an earlier
    `day` (an old attempt's button); `chat`: the group's title, where the actor may be told it."""
    game = Text(presenter.GAME_KEYS[puzzle])
    result = result_text(outcome, attempts, puzzle)
    if day is not None:
        return GameError("daily.over_day", game=game, day=date.fromisoformat(day), result=result)
    if outcome == "abandoned":
        return GameError("daily.timed_out_in", game=game, chat=chat, result=result) if chat else GameError(
            "daily.timed_out", game=game, result=result)
    return GameError("daily.played_in", game=game, chat=chat, result=result) if chat else GameError(
        "daily.played", game=game, result=result)


async def refused_again(svc: Services, turn: Turn, group: Chat, outcome: str, attempts: int,
                        puzzle: str) -> GameError:
    """`played_already` for today's attempt at `group`'s puzzle, naming the group (when answered
    privately, to a player who may be told its title)."""
    ib = turn.inbound  # in the group itself its title would say nothing new
    title = await svc.title_for(group.platform, group.chat_id, not ib.chat.private, ib.actor.user_id)
    return played_already(outcome, attempts, puzzle, title)


async def guess_on(svc: Services, turn: Turn, game_id: int, outcome: str, attempts: int, puzzle: str,
                   guess: str) -> None:
    """The actor's guess on their own running attempt (a finished one is not played again)."""
    row = await svc.store.get_game(game_id)
    if outcome != "playing" or row is None or row.over:
        raise await refused_again(svc, turn, svc.chat_of(row) if row else turn.inbound.chat, outcome, attempts,
                                  puzzle)
    kind, _state = loaded(row)
    await svc.runner.play(turn, row, kind.secret_action(guess.strip()))


async def resume(svc: Services, turn: Turn, game_id: int, outcome: str, attempts: int, puzzle: str) -> None:
    """The actor's attempt exists: a running one is shown again privately; a finished one is not
    played again."""
    game = Text(presenter.GAME_KEYS[puzzle])
    row = await svc.store.get_game(game_id)
    if outcome != "playing" or row is None or row.over:
        raise await refused_again(svc, turn, svc.chat_of(row) if row else turn.inbound.chat, outcome, attempts,
                                  puzzle)
    kind, state = loaded(row)
    turn.outcome = f"resumed:{row.id}"
    svc.inputs.note_prompts(kind, row.id, row.platform, None, state, turn.inbound.actor.user_id)
    turn.messages.extend(await svc.titled(row.kind, svc.chat_of(row), [kind.board(row.id, state, svc.chat_of(row))]))
    if not turn.inbound.chat.private:
        turn.messages.append(Message(turn.inbound.chat, Text("daily.resumed", {"name": turn.inbound.actor.name,
                                                                               "game": game}),
                                     only_for_actor=True))
