"""The daily puzzle, bot side (docs/daily.md): `PLUGIN`, its hooks; commands, attempts, day, tables, storage.

Its commands are /daily (its board and all-time table, streaks) and /timezone (the chat's day changes
at that zone's midnight).

A player plays privately: the attempt is a game in the group that waits for its player's private
input (`secret_prompt`), so a guess sent privately goes to it (bot/app/routing.py), a guess typed in the
group is deleted unseen, and the group sees only the spoiler-free result. Modules: `commands` (/daily,
/timezone), `attempt` (a player's attempt: started, resumed, refused), `day` (the chat's day, streaks),
`tables` (the day's board, the all-time table), `streak_stats` (/stats daily), `morning` (the morning
post), `storage` (its tables' queries and write jobs)."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from bot.app.runner import loaded
from bot.app.turn import Command, Turn
from bot.games.daily import morning, storage
from bot.games.daily.attempt import play, played_already
from bot.games.daily.commands import SUBCOMMANDS, cmd_daily, cmd_timezone
from bot.games.daily.day import streaks, today
from bot.games.daily.feats import daily_feats
from bot.games.daily.streak_stats import streak_stats
from bot.games.plugin import GamePlugin, Services
from bot.schedule.scheduler import Job
from bot.storage.base import GameRow, NewResult
from bot.storage.schemas import Schema
from bot.storage.sql import TxJob
from bot.yourdata.declare import Personal
from core.achievements import WEEK_OF_DAILIES, Feat
from core.errors import GameError
from core.games.daily import GAME, presenter, rules
from core.games.daily.rules import DailyOutcome, State
from core.messages import Chat, Inbound, Message, Text

# private messages that name the group (`DailyPlugin.titled`): their key → the key of the text with the title
TITLED = {"daily.started": "daily.started_in", "daily.board": "daily.board_in"}


class DailyPlugin(GamePlugin[State]):
    game = GAME
    schema = Schema(GAME.kind, (), chat_moves=storage.CHAT_MOVES)  # its tables are in the shared list (shipped)
    title = "game.daily"
    # each player's attempts (migration 8): kept for the chat's tables under the forgotten player's token
    personal = (Personal("daily_plays", user="user_id", name="name", chat=("chat_id",)),)
    achievements = (WEEK_OF_DAILIES,)
    posts_morning = True  # the chats' morning post is its (`scheduled`: bot/games/daily/morning.py)
    link_prefix = "d"  # its "play today's puzzle" links, `d_<chat>_<puzzle>_<mac>`: the form posted since the start
    commands = (
        # two options, each with its fixed values (a slash command offers them as choices); typed, the
        # words may come in any order
        Command("daily", ("puzzle", "show"), cmd_daily,
                choices=(("puzzle", rules.PUZZLES), ("show", SUBCOMMANDS))),
        Command("timezone", ("zone",), cmd_timezone, personal=False),
    )

    async def feats(self, svc: Services, row: GameRow, state: State, results: list[NewResult],
                    at: float) -> list[Feat]:
        return await daily_feats(svc, row.platform, row.chat_id, state, at)

    def writes(self, svc: Services, row: GameRow, old: State, new: State, over: bool) -> TxJob | None:
        """An attempt's end goes into the daily table in the transaction of its last move."""
        if not over or new.outcome is None:
            return None
        return storage.daily_finish_job(row.id, new.outcome, len(new.rows), svc.clock())

    async def chat_action(self, svc: Services, turn: Turn, chat: Chat, arg: str) -> None:
        """`daily:<chat>:<puzzle>`: play today's daily of that chat (from the chat or privately); with
        a text (the play button's prompt answered, e.g. a Discord modal) that text is the guess."""
        if arg not in rules.PUZZLES:
            raise GameError("stale_button")
        await play(svc, turn, chat, arg, turn.inbound.text or None)

    async def after_save(self, svc: Services, turn: Turn, chat: Chat, state: State, over: bool,
                         saved: tuple[int, int, dict[str, Any]]) -> None:
        """A solved attempt: the streak it makes, told in the group with the result."""
        if not over or state.outcome is not DailyOutcome.SOLVED:
            return
        days = await storage.daily_solved_days(svc.store, chat.platform, chat.chat_id, state.puzzle,
                                               state.player.user_id)
        current, best = streaks([*days, state.day], state.day)
        if current > 1:
            turn.messages.append(Message(chat, Text("daily.streak_told", {"name": state.player.name, "n": current,
                                                                          "best": best})))

    async def hint(self, svc: Services, turn: Turn, row: GameRow) -> bool:
        raise GameError("daily.no_hints")

    async def scheduled(self, svc: Services, job: Job) -> list[Message]:
        """The morning post (`/posts morning 08:00`): yesterday's dailies, spoiler-free, and a nudge."""
        return await morning.scheduled(svc, job)

    async def stats(self, svc: Services, turn: Turn, args: tuple[str, ...]) -> bool:
        """`/stats daily [NAME]`: the streaks per puzzle, with the freezes held and used."""
        await streak_stats(svc, turn, args)
        return True

    def titled(self, msg: Message, chat: str) -> Message:
        """"Today's 1A2B daily of Kegelclub Elbe": the attempt's start and its board name the group."""
        if msg.text.key in TITLED:
            return replace(msg, text=Text(TITLED[msg.text.key], {**msg.text.params, "chat": chat}, msg.text.lang))
        return msg

    async def not_waiting(self, svc: Services, row: GameRow, ib: Inbound) -> GameError | None:
        """An old guess button or a code for the actor's finished attempt: what became of it (today's,
        or that it was an earlier day's)."""
        state: State = loaded(row)[1]
        if not row.over or state.outcome is None or state.player.user_id != ib.actor.user_id:
            return None
        group = svc.chat_of(row)
        day = await today(svc, group)
        title = await svc.title_for(group.platform, group.chat_id, not ib.chat.private, ib.actor.user_id)
        return played_already(state.outcome, len(state.rows), state.puzzle, title,
                              state.day if state.day != day else None)

    def label(self, row: GameRow, chat: str | None = None) -> Text:
        """"1A2B daily of Kegelclub Elbe, 2026-11-30 (#3)" (without a title known: "1A2B daily of
        2026-11-30 (#3)"): which of a player's games a private guess is for."""
        state: State = loaded(row)[1]
        params = {"game": Text(presenter.GAME_KEYS[state.puzzle]), "day": rules.day_of(state), "id": row.id}
        if chat:
            return Text("daily.button_game_in", {**params, "chat": chat})
        return Text("daily.button_game", params)


PLUGIN = DailyPlugin()
