"""The daily puzzle, bot-side (docs/daily.md): /daily, its board and all-time table, streaks, and
/timezone (the chat's day changes at that zone's midnight).

The day is computed here, from the injected clock and the chat's time zone, and passed into core as a
label. The chat's code of the day is drawn with the App's random source when the day's puzzle is
first asked for, and stored (never derived from the date or the chat). Each player's attempt is
stored with its game in one transaction under a unique key (chat, day, puzzle, player): a restart, a
second device or a second private chat finds that attempt and never starts another.

A player plays privately: the attempt is a game in the group that waits for its player's private
input (`secret_prompt`), so a guess sent privately goes to it (bot/routing.py), a guess typed in the
group is deleted unseen, and the group sees only the spoiler-free result. "Play today's daily of this
chat" is a chat action, `daily:<chat id>:<puzzle>` (a button in the group; on Telegram a signed deep
link), taken from that chat or privately (bot/routing.py `check_origin`)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace
from datetime import date, datetime, time, timedelta
from typing import Any
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

from bot.options import colour_letters
from bot.routing import awaiting_secret
from bot.services import Command, GamePlugin, Services, Turn, loaded
from bot.storage.base import DailyLine, DailyTaken, GameRow
from bot.zones import DEFAULT_TZ, zone
from core.errors import GameError
from core.games import daily
from core.games.base import Player
from core.lexicon import ALPHABETS
from core.messages import Button, Chat, Inbound, Message, Text
from core.options import meaning

CLOSE_AFTER = 3 * 3600.0  # an attempt may be finished this long after its day ended (begun just before midnight)
SUBCOMMANDS = ("board", "table")
OUTCOME_KEYS = {"playing": "daily.outcome.playing", "solved": "daily.outcome.solved", "failed": "daily.outcome.failed",
                "gave_up": "daily.outcome.gave_up", "abandoned": "daily.outcome.abandoned"}
ALLTIME_LINES = 10
# private messages that name the group (`Daily.titled`): their key → the key of the text with the title
TITLED = {"daily.started": "daily.started_in", "daily.board": "daily.board_in"}


# ---------------------------------------------------------------- the day

def starts(day: str, tz: str | None) -> float:
    """When `day` begins in the zone."""
    return datetime.combine(date.fromisoformat(day), time(), zone(tz)).timestamp()


def ends(day: str, tz: str | None) -> float:
    """When `day` ends in the zone (the next day's midnight)."""
    return starts((date.fromisoformat(day) + timedelta(days=1)).isoformat(), tz)


def closes(day: str, tz: str | None) -> float:
    """When an attempt at `day`'s puzzle times out: `CLOSE_AFTER` after the day ends in the chat's zone."""
    return ends(day, tz) + CLOSE_AFTER


async def check_open(svc: Services, group: Chat, day: str, puzzle: str, tz: str | None) -> None:
    """A day's puzzle is played only on its own day, in the zone it was drawn for: moving /timezone
    back and forth opens no day a second time once it ended, and no day before the chat's last one ended
    (three days' dailies in one real day, tomorrow's code a day early)."""
    this_end, last_end = await svc.store.daily_window(group.platform, group.chat_id, day, puzzle)
    if this_end is not None and svc.clock() >= this_end:
        raise GameError("daily.day_over", game=Text(daily.GAME_KEYS[puzzle]), day=date.fromisoformat(day))
    if this_end is None and last_end is not None and starts(day, tz) < last_end:
        raise GameError("daily.not_yet", game=Text(daily.GAME_KEYS[puzzle]), day=date.fromisoformat(day))


async def today(svc: Services, chat: Chat) -> str:
    """The chat's day now (ISO date), at its time zone (/timezone; UTC by default)."""
    tz = await svc.store.chat_tz(chat.platform, chat.group)  # a forum topic keeps its group's zone
    return datetime.fromtimestamp(svc.clock(), zone(tz)).date().isoformat()


def streaks(days: Sequence[str], today_: str) -> tuple[int, int]:
    """(current, best) runs of consecutive days in `days` (ISO dates, solved ones). The current run
    ends today, or yesterday while today's puzzle is still to be solved."""
    ordinals = sorted({date.fromisoformat(d).toordinal() for d in days})
    best = run = 0
    last = None
    for o in ordinals:
        run = run + 1 if last is not None and o == last + 1 else 1
        best = max(best, run)
        last = o
    now = date.fromisoformat(today_).toordinal()
    current = run if last is not None and last >= now - 1 else 0
    return current, best


# ---------------------------------------------------------------- /daily

def parse(args: tuple[str, ...], vocab: Any) -> tuple[str, str | None]:
    """`[1a2b|logik|words] [board|table]` in any order (localised words) → (puzzle, subcommand)."""
    puzzle, sub = daily.DEFAULT_PUZZLE, None
    for raw in args:
        word = meaning(raw, vocab, (*daily.PUZZLES, *SUBCOMMANDS))
        if word in daily.PUZZLES:
            puzzle = word
        elif word in SUBCOMMANDS:
            sub = word
        else:
            raise GameError("bad_option", option=raw[:30])
    return puzzle, sub


async def cmd_daily(svc: Services, turn: Turn, args: tuple[str, ...]) -> None:
    """/daily in a group: that chat's puzzle of the day (or its board, its table). In the private chat,
    where there is no chat's puzzle to start: the player's running dailies shown again, each naming
    its group and day (yesterday's may still run next to today's, or dailies of several groups)."""
    puzzle, sub = parse(args, svc.option_words)
    chat = turn.inbound.chat
    if chat.private:
        running = [r for r in await awaiting_secret(svc, turn.inbound.actor) if r.kind == "daily"]
        if not running or sub is not None:
            raise GameError("group_only", command="daily")
        for row in running:
            kind, state = loaded(row)
            if len(running) == 1:  # the only one: the next private input goes to it
                svc.note_prompts(kind, row.id, row.platform, None, state, turn.inbound.actor.user_id)
            turn.messages.extend(await svc.titled(row.kind, svc.chat_of(row),
                                                  [kind.board(row.id, state, svc.chat_of(row))]))
        return
    if sub == "board":
        await show_day(svc, turn, chat, puzzle)
    elif sub == "table":
        await show_table(svc, turn, chat, puzzle)
    else:
        await play(svc, turn, chat, puzzle)


def play_button(chat: Chat, puzzle: str) -> Button:
    """"Play today's daily of this chat": a chat action (a deep link on Telegram)."""
    return Button(Text("daily.button_play"), f"daily:{chat.chat_id}:{puzzle}", prompt=Text("daily.button_prompt"))


async def play(svc: Services, turn: Turn, group: Chat, puzzle: str, guess: str | None = None) -> None:
    """Start the actor's attempt at the chat's puzzle of the day, or resume it; one per day. `guess`
    (typed into the play button's private prompt, e.g. a Discord modal): played on that attempt at
    once, the first guess of a new one or the next of a running one."""
    ib = turn.inbound
    me = Player(ib.actor.user_id, ib.actor.name)
    day = await today(svc, group)
    found = await svc.store.daily_play(group.platform, group.chat_id, day, puzzle, me.user_id)
    if found is None:
        tz = await svc.store.chat_tz(group.platform, group.chat_id)
        await check_open(svc, group, day, puzzle, tz)
        lang = await svc.renderer.group_lang(group)  # the group's, not the first asker's
        lang = lang if lang in ALPHABETS else "en"
        ctx = svc.ctx()
        secret, lang = await svc.store.daily_puzzle(group.platform, group.chat_id, day, puzzle,
                                                    lambda: (daily.draw(puzzle, lang, ctx), lang), ctx.now,
                                                    ends(day, tz))
        state, events = daily.new(puzzle, day, me, secret, ctx, lang, colour_letters(svc.catalogs), closes(day, tz))
        job = svc.store.daily_start_job(group.platform, group.chat_id, day, puzzle, me.user_id, me.name, ctx.now)
        try:
            await svc.create(turn, "daily", state, events, [me.user_id], group, extra=job, bounded=False,
                             seat_key=seat_key(group, day, puzzle))
        except (DailyTaken, GameError) as err:  # started at the same moment elsewhere (a second device)
            if isinstance(err, GameError) and err.code != "already_in_game":
                raise
            found = await svc.store.daily_play(group.platform, group.chat_id, day, puzzle, me.user_id)
        else:
            if not ib.chat.private:
                turn.messages.append(Message(group, Text("daily.playing", {
                    "name": me.name, "game": Text(daily.GAME_KEYS[puzzle])}), ((play_button(group, puzzle),),)))
            if guess is not None:
                made = await svc.store.daily_play(group.platform, group.chat_id, day, puzzle, me.user_id)
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
    game = Text(daily.GAME_KEYS[puzzle])
    result = Text(OUTCOME_KEYS[outcome], {"n": attempts, "max": daily.MAX_ATTEMPTS[puzzle]})
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
    await svc.play(turn, row, kind.secret_action(guess.strip()))


async def resume(svc: Services, turn: Turn, game_id: int, outcome: str, attempts: int, puzzle: str) -> None:
    """The actor's attempt exists: a running one is shown again privately; a finished one is not
    played again."""
    game = Text(daily.GAME_KEYS[puzzle])
    row = await svc.store.get_game(game_id)
    if outcome != "playing" or row is None or row.over:
        raise await refused_again(svc, turn, svc.chat_of(row) if row else turn.inbound.chat, outcome, attempts,
                                  puzzle)
    kind, state = loaded(row)
    turn.outcome = f"resumed:{row.id}"
    svc.note_prompts(kind, row.id, row.platform, None, state, turn.inbound.actor.user_id)
    turn.messages.extend(await svc.titled(row.kind, svc.chat_of(row), [kind.board(row.id, state, svc.chat_of(row))]))
    if not turn.inbound.chat.private:
        turn.messages.append(Message(turn.inbound.chat, Text("daily.resumed", {"name": turn.inbound.actor.name,
                                                                               "game": game}),
                                     only_for_actor=True))


# ---------------------------------------------------------------- the day's board, the all-time table

async def show_day(svc: Services, turn: Turn, chat: Chat, puzzle: str) -> None:
    """Who has played today's puzzle here: the solvers by attempts, then the others; a running
    attempt shows no more than that it runs."""
    ib = turn.inbound
    day = await today(svc, chat)
    lines = await svc.store.daily_day(chat.platform, chat.chat_id, day, puzzle)
    game = Text(daily.GAME_KEYS[puzzle])
    if not lines:
        turn.messages.append(Message(chat, Text("daily.board_empty", {"game": game, "day": date.fromisoformat(day)})))
        return
    lang = await svc.lang(ib)
    solved: dict[str, list[str]] = {}  # every player's solved days, from one read (not one per player)
    for past in await svc.store.daily_history(chat.platform, chat.chat_id, puzzle):
        if past.outcome == "solved":
            solved.setdefault(past.user_id, []).append(past.day)
    shown = []
    for i, line in enumerate(lines, 1):  # the solvers come first: only they are ranked
        current, _best = streaks(solved.get(line.user_id, []), day)
        key = "daily.board_line" if line.outcome == "solved" else "daily.board_line_unranked"
        shown.append(svc.catalogs.render(Text(key, {
            "i": i, "name": line.name, "result": outcome_text(line, puzzle),
            "streak": Text("daily.streak", {"n": current}) if current > 1 else ""}), lang).rstrip())
    turn.messages.append(Message(chat, Text("daily.board_day", {
        "game": game, "day": date.fromisoformat(day), "lines": await svc.capped(ib, shown, svc.list_lines)})))


def outcome_text(line: DailyLine, puzzle: str) -> Text:
    return Text(OUTCOME_KEYS[line.outcome], {"n": line.attempts, "max": daily.MAX_ATTEMPTS[puzzle]})


async def show_table(svc: Services, turn: Turn, chat: Chat, puzzle: str) -> None:
    """The chat's all-time table of a puzzle: days solved, average attempts of the solved ones,
    best streak; most solved first."""
    ib = turn.inbound
    game = Text(daily.GAME_KEYS[puzzle])
    history = await svc.store.daily_history(chat.platform, chat.chat_id, puzzle)
    if not history:
        turn.messages.append(Message(chat, Text("daily.table_empty", {"game": game})))
        return
    players: dict[str, list[DailyLine]] = {}
    for line in history:
        players.setdefault(line.user_id, []).append(line)
    day = await today(svc, chat)
    rows = []
    for lines in players.values():
        solved = [x for x in lines if x.outcome == "solved"]
        _current, best = streaks([x.day for x in solved], day)
        average = sum(x.attempts for x in solved) / len(solved) if solved else 0.0
        rows.append((len(solved), -average if solved else -99.0, lines[-1].name, len(lines), average, best))
    rows.sort(key=lambda r: (-r[0], -r[1], r[2]))
    lang = await svc.lang(ib)
    shown = [svc.catalogs.render(Text("daily.table_line", {  # only who has solved one is ranked, with an average
        "i": i, "name": name, "solved": solved, "played": played, "average": average, "best": best}) if solved else
        Text("daily.table_line_unsolved", {"name": name, "played": played}), lang)
        for i, (solved, _key, name, played, average, best) in enumerate(rows, 1)]
    turn.messages.append(Message(chat, Text("daily.table", {
        "game": game, "lines": await svc.capped(ib, shown, svc.list_lines)})))


# ---------------------------------------------------------------- /timezone

async def cmd_timezone(svc: Services, turn: Turn, args: tuple[str, ...]) -> None:
    """/timezone: the chat's zone and day; /timezone Europe/Berlin sets it (chat admins in a group)."""
    ib = turn.inbound
    if not args:
        tz = await svc.store.chat_tz(ib.chat.platform, ib.chat.group) or DEFAULT_TZ
        day = date.fromisoformat(await today(svc, ib.chat))
        turn.messages.append(Message(ib.chat, Text("timezone.show", {"tz": tz, "day": day})))
        return
    if not ib.chat.private and not ib.actor.is_admin:
        raise GameError("timezone.admins_only")
    name = args[0].strip()
    try:
        if len(name) > 60 or name.startswith(("/", ".")):
            raise ValueError(name)
        ZoneInfo(name)
    except (ZoneInfoNotFoundError, ValueError):
        raise GameError("timezone.unknown", tz=name[:60]) from None
    await svc.store.set_chat_tz(ib.chat.platform, ib.chat.group, name)
    day = date.fromisoformat(await today(svc, ib.chat))
    turn.messages.append(Message(ib.chat, Text("timezone.set", {"tz": name, "day": day})))


# ---------------------------------------------------------------- the plugin

class DailyPlugin(GamePlugin[daily.State]):
    game = daily.GAME
    title = "game.daily"
    commands = (
        # two options, each with its fixed values (a slash command offers them as choices); typed, the
        # words may come in any order
        Command("daily", ("puzzle", "show"), cmd_daily,
                choices=(("puzzle", daily.PUZZLES), ("show", SUBCOMMANDS))),
        Command("timezone", ("zone",), cmd_timezone, personal=False),
    )

    def writes(self, svc: Services, row: GameRow, old: Any, new: Any, over: bool) -> Any:
        """An attempt's end goes into the daily table in the transaction of its last move."""
        if not over:
            return None
        return svc.store.daily_finish_job(row.id, "solved" if new.outcome == "solved" else new.outcome,
                                          len(new.rows), svc.clock())

    async def chat_action(self, svc: Services, turn: Turn, chat: Chat, arg: str) -> None:
        """`daily:<chat>:<puzzle>`: play today's daily of that chat (from the chat or privately); with
        a text (the play button's prompt answered, e.g. a Discord modal) that text is the guess."""
        if arg not in daily.PUZZLES:
            raise GameError("stale_button")
        await play(svc, turn, chat, arg, turn.inbound.text or None)

    async def after_save(self, svc: Services, turn: Turn, chat: Chat, state: Any, over: bool) -> None:
        """A solved attempt: the streak it makes, told in the group with the result."""
        if not over or state.outcome != "solved":
            return
        days = await svc.store.daily_solved_days(chat.platform, chat.chat_id, state.puzzle, state.player.user_id)
        current, best = streaks([*days, state.day], state.day)
        if current > 1:
            turn.messages.append(Message(chat, Text("daily.streak_told", {"name": state.player.name, "n": current,
                                                                          "best": best})))

    async def hint(self, svc: Services, turn: Turn, row: GameRow) -> bool:
        raise GameError("daily.no_hints")

    def titled(self, msg: Message, chat: str) -> Message:
        """"Today's 1A2B daily of Kegelclub Elbe": the attempt's start and its board name the group."""
        if msg.text.key in TITLED:
            return replace(msg, text=Text(TITLED[msg.text.key], {**msg.text.params, "chat": chat}, msg.text.lang))
        return msg

    async def not_waiting(self, svc: Services, row: GameRow, ib: Inbound) -> GameError | None:
        """An old guess button or a code for the actor's finished attempt: what became of it (today's,
        or that it was an earlier day's)."""
        _kind, state = loaded(row)
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
        _kind, state = loaded(row)
        params = {"game": Text(daily.GAME_KEYS[state.puzzle]), "day": daily.day_of(state), "id": row.id}
        if chat:
            return Text("daily.button_game_in", {**params, "chat": chat})
        return Text("daily.button_game", params)


PLUGIN = DailyPlugin()

