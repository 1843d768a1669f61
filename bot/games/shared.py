"""The commands every game shares: help, answers to challenges, guesses, giving up, the board,
rematches, statistics, languages, lobbies, hints and analyses. Each acts on the actor's game
through its `core.games.base.Game` interface and its plugin (bot/games/plugin.py)."""

from __future__ import annotations

import asyncio
import contextlib
from datetime import UTC, datetime
from decimal import ROUND_HALF_UP, Decimal
from typing import Any

from babel.numbers import format_decimal

from bot.app import achievements
from bot.app.routing import (
    answer,
    awaiting_secret,
    follow_up,
    game_here,
    guess_or_secret,
    join_offer,
    private_plays,
    secret_input,
    set_lang,
)
from bot.app.runner import loaded, pictured
from bot.app.turn import Command, Turn
from bot.games.plugin import GAMES, GamePlugin, Services, rated_in_chat, rated_kinds, wins_game, with_stats
from bot.retention.periods import period_word
from bot.retention.tables import show_period
from bot.solver import book as solver_book
from bot.storage.base import GameRow, RatedLine, StatLine
from bot.texts.overview import help_key, overview
from core import names, ratings
from core.buttons import GameButton, LangButton
from core.errors import GameError
from core.games.base import Verb
from core.games.challenge import ChallengeGame
from core.games.lobby import LobbyGame
from core.messages import Button, Inbound, Message, Text
from core.options import meaning
from core.ratings_chart import rating_chart
from core.solver.games import BOT
from core.solver.spaces import LOGIK

ANALYSE_LINES = 30  # guesses /analyse shows at most (the first ones and the last 5)
CHART_GAMES = 200  # /rating: the chart shows the player's last rated games, at most this many
LOOK_BACK = 20  # /rematch, /analyse: how many of the player's newest games here are looked through


async def cmd_help(svc: Services, turn: Turn, args: tuple[str, ...]) -> None:
    name = args[0].lstrip("/").lower() if args else ""
    name = svc.aliases.get(name, name)  # a command's localised name (Command.aliases)
    if name in svc.commands:
        text = Text(help_key(name))
    elif name:  # say that it is unknown, then what there is
        text = Text("help.unknown", {"command": name[:30], "help": overview(svc.commands.values(), svc.plugins)})
    else:
        text = overview(svc.commands.values(), svc.plugins)
    turn.messages.append(Message(turn.inbound.chat, text, only_for_actor=True))  # help goes to the actor alone


async def cmd_start(svc: Services, turn: Turn, args: tuple[str, ...]) -> None:
    turn.messages.append(Message(turn.inbound.chat, Text("help.welcome")))


async def cmd_accept(svc: Services, turn: Turn, args: tuple[str, ...]) -> None:
    await answer(svc, turn, Verb.ACCEPT)


async def cmd_decline(svc: Services, turn: Turn, args: tuple[str, ...]) -> None:
    await answer(svc, turn, Verb.DECLINE)


async def cmd_guess(svc: Services, turn: Turn, args: tuple[str, ...]) -> None:
    ib = turn.inbound
    if not args:
        raise GameError("guess_needs_code")
    text = " ".join(args)  # a row may come as "r g b y k"
    waiting = await awaiting_secret(svc, ib.actor) if ib.chat.private else []
    if waiting and await svc.players.seated_game(ib.actor, ib.chat) is None:
        await secret_input(svc, turn, waiting, text)
        return
    row = await game_here(svc, ib.actor, ib.chat)  # a daily's guess typed in its group: caught unseen
    if row is None:
        raise GameError("no_game")
    await guess_or_secret(svc, turn, row, text, False)
    if turn.outcome == "ignored":  # a game that takes no typed guess (Kegeln): a command is never met with silence
        raise GameError("not_now")


async def play_or(svc: Services, turn: Turn, row: GameRow, action: object | None, refusal: GameError) -> None:
    """Play what the game made of a command; None (the game has nothing for it now) is the `refusal`."""
    if action is None:
        raise refusal
    await svc.runner.play(turn, row, action)


async def cmd_giveup(svc: Services, turn: Turn, args: tuple[str, ...]) -> None:
    await quit_game(svc, turn, "giveup")


async def cmd_resign(svc: Services, turn: Turn, args: tuple[str, ...]) -> None:
    await quit_game(svc, turn, "resign")


async def my_games_here(svc: Services, turn: Turn) -> list[GameRow]:
    """The actor's games a command here means: the one they sit in in this chat; else those they play
    privately (`Game.private_play`: daily attempts, which take no seat) — in a group the group's, in a
    private chat those of every group. Several (yesterday's daily and today's, two kinds): the
    caller asks which, or shows each."""
    ib = turn.inbound
    row = await svc.players.seated_game(ib.actor, ib.chat)
    if row is not None:
        return [row]
    if not ib.chat.private:
        return await private_plays(svc, ib.actor, ib.chat)
    return [r for r in await awaiting_secret(svc, ib.actor) if GAMES[r.kind].private_play]


async def my_game_here(svc: Services, turn: Turn) -> GameRow | None:
    """The actor's one game here (see `my_games_here`); None when there is none, or several."""
    rows = await my_games_here(svc, turn)
    return rows[0] if len(rows) == 1 else None


async def quit_game(svc: Services, turn: Turn, command: str) -> None:
    """/giveup or /resign of the actor's game here; with several (two dailies), asked which — each
    button names its game and day, and ends only that one (bot/app/routing.py `on_action`)."""
    rows = await my_games_here(svc, turn)
    if not rows:
        raise GameError("no_game")
    if len(rows) > 1:
        await ask_which(svc, turn, rows, command)
        return
    row = rows[0]
    game, state = loaded(row)
    await play_or(svc, turn, row, game.quit_action(state, turn.inbound.actor.user_id, command),
                  GameError("wrong_quit", command=command))


async def ask_which(svc: Services, turn: Turn, rows: list[GameRow], verb: str) -> None:
    """"Which one do you want to end?", a button per game (its `GameButton` of the verb), each naming its game, day
    and — privately, to a player who has acted there — its group."""
    ib = turn.inbound
    buttons = []
    for r in rows:
        title = await svc.title_for(r.platform, r.chat_id, not ib.chat.private, ib.actor.user_id)
        buttons.append((Button(svc.plugins[r.kind].label(r, title), str(GameButton.of(r.id, verb)), settles=True),))
    turn.messages.append(Message(ib.chat, Text("private.which_quit", {"command": verb}), tuple(buttons),
                                 only_for_actor=True))


async def cmd_cancel(svc: Services, turn: Turn, args: tuple[str, ...]) -> None:
    ib = turn.inbound
    if svc.inputs.unfocus((ib.actor.platform, ib.actor.user_id)):
        turn.messages.append(Message(ib.chat, Text("cancel.focus")))
        return
    row = await svc.players.seated_game(ib.actor, ib.chat)
    if row is None:  # a challenge aimed at the actor: /cancel means no, like /decline
        with contextlib.suppress(GameError):
            await answer(svc, turn, Verb.DECLINE)
            return
        raise GameError("nothing_to_cancel")
    game, state = loaded(row)
    await play_or(svc, turn, row, game.cancel_action(state, ib.actor.user_id), GameError("nothing_to_cancel"))


async def cmd_board(svc: Services, turn: Turn, args: tuple[str, ...]) -> None:
    """/board: the actor's game here (each of them, where they play several dailies), else the list of
    the chat's running games."""
    ib = turn.inbound
    mine = await my_games_here(svc, turn)
    if not mine:
        running = await svc.store.chat_games(ib.chat.platform, ib.chat.chat_id)
        if not running:
            raise GameError("no_game")
        shown = running[:svc.list_lines]
        lines = [f"#{r.id} {title(svc, r)}" for r in shown]  # only the shown games are loaded
        if len(running) > len(shown):
            lines.append(await svc.more(ib, len(running) - len(shown)))
        turn.messages.append(Message(ib.chat, Text("board.list", {"games": "\n".join(lines)})))
        return
    for row in mine:
        game, state = loaded(row)
        turn.messages.extend(await svc.titled(row.kind, svc.chat_of(row),
                                              [await pictured(game, game.board, row.id, state, svc.chat_of(row))]))


def title(svc: Services, row: GameRow) -> str:
    game, state = loaded(row)
    players = [p.name for p in game.players(state)]
    shown = " – ".join(players[:4]) + (" – …" if len(players) > 4 else "")  # a lobby of 12: one line
    return f"{row.kind}: {shown}"


async def last_played(svc: Services, ib: Inbound) -> GameRow | None:
    """The actor's newest game in this chat that runs or was played: a challenge that nobody played
    (declined, withdrawn, expired: `ChallengeGame.unplayed`) hides no finished game from /rematch or /analyse."""
    for row in await svc.store.last_games(ib.chat.platform, ib.chat.chat_id, ib.actor.user_id, LOOK_BACK):
        game, state = loaded(row)
        if not (row.over and isinstance(game, ChallengeGame) and game.unplayed(state)):
            return row
    return None


async def cmd_rematch(svc: Services, turn: Turn, args: tuple[str, ...]) -> None:
    ib = turn.inbound
    row = await last_played(svc, ib)
    if row is not None and not row.over:
        game, state = loaded(row)
        waiting = game.challenge(state) if isinstance(game, ChallengeGame) else None
        if waiting is not None and waiting.offer and await join_offer(svc, turn, row.kind, waiting.pair):
            return
    if row is None or not row.over:
        raise GameError("no_rematch")
    await follow_up(svc, turn, row, loaded(row)[0].rematch_verb)


async def cmd_stats(svc: Services, turn: Turn, args: tuple[str, ...]) -> None:
    own = svc.plugins.get(args[0].lower()) if args else None  # `/stats logik`: a game's own statistics
    if own is not None and await own.stats(svc, turn, args[1:]):
        return
    ib = turn.inbound
    uid, name = ib.actor.user_id, ib.actor.name
    if args:
        found = await svc.players.find(ib, " ".join(args), known_only=True)
        uid, name = found.user_id, found.name
    here = await svc.store.stats(ib.chat.platform, ib.chat.chat_id, uid)
    everywhere = await svc.store.stats(ib.chat.platform, None, uid)
    best_lines = [line for p in svc.plugins.values() for line in await p.bests(svc, ib.chat.platform, uid)]

    lang = await svc.localiser.lang_for(ib.chat, ib)  # rating and game names in the reader's language

    def lines(rows: list[Any]) -> Text | str:
        if not rows:
            return Text("stats.none")
        return "\n".join(stat_line(svc, r, lang) for r in rows)

    text = Text("stats.text", {
        "name": name, "here": lines(here), "everywhere": lines(everywhere),
        "bests": best_lines or Text("stats.none"), "ratings": await rating_lines(svc, ib, uid)})
    earned = await achievements.of_player(svc.store, ib.chat.platform, ib.chat.chat_id, uid)  # this chat's
    if earned:
        text = Text("achievement.in_stats", {"stats": text, "achievements": earned})
    turn.messages.append(Message(ib.chat, text))


async def rating_lines(svc: Services, ib: Inbound, uid: str) -> list[Text] | Text:
    """/stats: the player's skill rating per game in this chat with its trend, and across chats (the
    rating and games only: when and where they played elsewhere stays there)."""
    here = await svc.store.player_ratings(ib.chat.platform, ib.chat.chat_id, uid)
    everywhere = await svc.store.player_ratings(ib.chat.platform, ratings.EVERYWHERE, uid)
    out: list[Text] = []
    for kind in rated_kinds():
        if kind not in here and kind not in everywhere:
            continue
        game = Text(svc.plugins[kind].title or kind)
        line = await rating_line(svc, ib, kind, uid, here[kind]) if kind in here else Text(
            "stats.rating_none", {"game": game})
        far = everywhere.get(kind)
        out.append(Text("stats.rating_both", {"line": line, "everywhere": Text("stats.rating_everywhere", {
            "rating": round(far.mu - 3 * far.sigma, 1), "n": far.games})}) if far else line)
    return out or Text("stats.none")


async def rating_line(svc: Services, ib: Inbound, kind: str, uid: str, r: RatedLine,
                      steps: list[ratings.Rating] | None = None) -> Text:
    """One game's rating in this chat: conservative rating (mu ± sigma), games, and the trend over
    the last rated games (from the rating history)."""
    if steps is None:
        steps = [s for _at, s in await svc.store.rating_steps(ib.chat.platform, ib.chat.chat_id, kind, uid,
                                                              limit=ratings.TREND_GAMES + 1)]
    trend = ratings.trend(steps, r.games)
    shown: Text | str = ""
    if trend is not None:
        change, n = round(trend[0], 1), trend[1]
        arrow = "↑" if change > 0 else "↓" if change < 0 else "→"
        shown = Text("stats.trend", {"arrow": arrow, "change": abs(change), "n": n})
    return Text("stats.rating_line", {"game": Text(svc.plugins[kind].title or kind),
                                      "rating": round(r.mu - 3 * r.sigma, 1), "mu": round(r.mu, 1),
                                      "sigma": round(r.sigma, 1), "n": r.games, "trend": shown})


async def cmd_rating(svc: Services, turn: Turn, args: tuple[str, ...]) -> None:
    """/rating [GAME] [NAME]: a player's skill rating in one game of this chat over time, as a chart
    (drawn off the event loop), with the rating and its trend. Without a game: the player's most
    played rated game here. Kegeln's players are the club's members, by name."""
    ib = turn.inbound
    kind = meaning(args[0], svc.option_words, rated_kinds()) if args else None  # `/rating думи` too
    rest = args[1:] if kind else args
    uid, name = ib.actor.user_id, ib.actor.name
    if kind in rated_in_chat():  # its players are names within the chat (the club's members)
        name = names.clean(" ".join(rest)) if rest else ib.actor.name
        uid = name.casefold()
    elif rest:
        found = await svc.players.find(ib, " ".join(rest), known_only=True)
        uid, name = found.user_id, found.name
    mine = await svc.store.player_ratings(ib.chat.platform, ib.chat.chat_id, uid)
    if kind is None:
        if not mine:
            turn.messages.append(Message(ib.chat, Text("stats.rating_games", {"games": ", ".join(rated_kinds())})))
            return
        kind = max(mine, key=lambda k: mine[k].games)
    line = mine.get(kind)
    game = Text(svc.plugins[kind].title or kind)
    if line is None:
        turn.messages.append(Message(ib.chat, Text("stats.chart_none", {"name": name, "game": game})))
        return
    if kind in rated_in_chat():
        name = line.name  # the member as the scorer wrote the name last
    history = await svc.store.rating_steps(ib.chat.platform, ib.chat.chat_id, kind, uid, limit=CHART_GAMES)
    lang = await svc.lang(ib)
    days = [datetime.fromtimestamp(at, UTC).date() for at, _r in history]
    # one label per day: the second game of a day stands under the first one's date, not a twin of it
    labels = svc.catalogs.date_axis(days, lang, twins=False)  # with the year where it is needed
    title = svc.catalogs.render(Text("stats.chart_title", {"game": game}), lang)
    image = await asyncio.to_thread(rating_chart, name, [r.ordinal for _at, r in history], labels,
                                    title) if history else None
    text = await rating_line(svc, ib, kind, uid, line, [r for _at, r in history])
    turn.messages.append(Message(ib.chat, Text("stats.chart", {"name": name, "line": text}), image=image))


def stat_line(svc: Services, r: StatLine, lang: str) -> str:
    plugin = svc.plugins.get(r.kind, GamePlugin[Any]())
    name = svc.catalogs.render(Text(plugin.title), lang) if plugin.title else r.kind
    return plugin.stat_line(r, name)


async def cmd_top(svc: Services, turn: Turn, args: tuple[str, ...]) -> None:
    """/top: the leaderboard by wins of the game that lists them (`GamePlugin.wins_table`, the 1A2B duel; the
    computer opponent is no player in it);
    /top GAME [all]: the chat's skill ratings in that game (with `all`: its players' ratings across
    chats). GAME in any language's words for it (`/top думи`, as `/daily думи`). A last word week, month
    or season (localised): the table of that period in the chat's zone (bot/retention/tables.py)."""
    ib = turn.inbound
    period = period_word(args[-1], svc) if args else None
    if period is not None:
        kind = meaning(args[0], svc.option_words, rated_kinds()) or args[0].lower() if len(args) > 1 else None
        if kind is not None and kind not in rated_kinds():
            turn.messages.append(Message(ib.chat, Text("top.games", {"games": ", ".join(rated_kinds())})))
            return
        await show_period(svc, turn, kind, period)
        return
    if args:
        await rated_top(svc, turn, meaning(args[0], svc.option_words, rated_kinds()) or args[0].lower(), args[1:])
        return
    wins = wins_game(svc.plugins)  # the plain /top: the wins of the game that lists them (the duel's)
    rows = await svc.store.top(ib.chat.platform, ib.chat.chat_id, wins, limit=svc.list_lines, skip=BOT) if wins else []
    if not rows:
        turn.messages.append(Message(ib.chat, Text("top.empty")))
        return
    table = "\n".join(f"{i}. {r.name} — {r.wins}/{r.draws}/{r.losses} ({r.games})" for i, r in enumerate(rows, 1))
    turn.messages.append(Message(ib.chat, Text("top.text", {"table": table})))


async def rated_top(svc: Services, turn: Turn, kind: str, scope: tuple[str, ...] = ()) -> None:
    """The chat's players of one game by their conservative rating (mu − 3·sigma), with games played;
    `/top GAME all`: the same players by their rating across chats (nobody who never played here,
    and by the names they have here)."""
    ib = turn.inbound
    if kind not in rated_kinds():
        turn.messages.append(Message(ib.chat, Text("top.games", {"games": ", ".join(rated_kinds())})))
        return
    everywhere = bool(scope) and scope[0].lower() in svc.catalogs.words("top.everywhere_words")
    if everywhere and kind in rated_in_chat():
        turn.messages.append(Message(ib.chat, Text("top.local_only", {"game": Text(svc.plugins[kind].title or kind)})))
        return
    game = Text(svc.plugins[kind].title or kind)
    rows = await svc.store.top_rated(ib.chat.platform, ib.chat.chat_id, kind, limit=svc.list_lines,
                                     everywhere=everywhere)
    if not rows:
        turn.messages.append(Message(ib.chat, Text("top.rated_empty", {"game": game})))
        return
    lang = await svc.localiser.lang_for(ib.chat, ib)
    table = "\n".join(svc.catalogs.render(Text("top.rated_line", {
        "i": i, "name": r.name, "rating": round(r.mu - 3 * r.sigma, 1), "n": r.games}), lang)
        for i, r in enumerate(rows, 1))
    key = "top.rated_everywhere" if everywhere else "top.rated"
    turn.messages.append(Message(ib.chat, Text(key, {"game": game, "table": table})))


async def cmd_lang(svc: Services, turn: Turn, args: tuple[str, ...]) -> None:
    if not args:
        buttons = tuple((Button(Text(f"lang.name.{code}"), str(LangButton(code)), settles=True),)
                        for code in svc.catalogs.languages)
        turn.messages.append(Message(turn.inbound.chat, Text("lang.choose"), buttons))
        return
    await set_lang(svc, turn, args[0])


async def cmd_join(svc: Services, turn: Turn, args: tuple[str, ...]) -> None:
    """/join: the newest lobby in this chat that takes players."""
    ib = turn.inbound
    for row in reversed(await svc.store.chat_games(ib.chat.platform, ib.chat.chat_id)):
        game, state = loaded(row)
        action = game.join_action(state, ib.actor.user_id, ib.actor.name) if isinstance(game, LobbyGame) else None
        if action is not None:
            await svc.runner.play(turn, row, action)
            return
    raise GameError("words.no_lobby")


async def cmd_leave(svc: Services, turn: Turn, args: tuple[str, ...]) -> None:
    row = await svc.players.seated_game(turn.inbound.actor, turn.inbound.chat)
    if row is None:
        raise GameError("no_game")
    game, state = loaded(row)
    leave = game.leave_action(state, turn.inbound.actor.user_id) if isinstance(game, LobbyGame) else None
    await play_or(svc, turn, row, leave, GameError("no_game"))


async def cmd_hint(svc: Services, turn: Turn, args: tuple[str, ...]) -> None:
    """/hint in the actor's game here, where the game gives hints (practice, /words solo)."""
    row = await my_game_here(svc, turn)
    if row is None or not await svc.plugins[row.kind].hint(svc, turn, row):
        raise GameError("solver.hint_no_game")


async def cmd_analyse(svc: Services, turn: Turn, args: tuple[str, ...]) -> None:
    """/analyse: the player's last finished practice game or duel in this chat, guess by guess."""
    ib = turn.inbound
    row = await last_played(svc, ib)
    in_daily = row is not None and GAMES[row.kind].private_play
    if in_daily or (ib.chat.private and await my_game_here(svc, turn) is not None):
        raise GameError("solver.analyse_private")  # the daily puzzle: others of the chat play the same code
    view = svc.plugins[row.kind].solver if row is not None else None
    if row is None or not row.over or view is None or not view.analysable:
        raise GameError("solver.analyse_none")
    _mod, state = loaded(row)
    spec, history, secret = view.analysis(state, ib.actor.user_id)  # the game's own view (GamePlugin.solver)
    result = await svc.think(("analyse", spec.name, tuple(history), secret), spec, solver_book.analyse, history, secret,
                             aside=True)  # read above: the chat's next update need not wait for the thinking
    from core.solver import coach  # the shown figures' rounding; imported here: the engine stays out of start-up
    rows = []
    lang = await svc.lang(ib)
    for st in result.steps:
        marks = [f"#{j}" for j in st.contradicts]
        warn = " ⚠ " + " ".join(marks[:5] + (["…"] if len(marks) > 5 else [])) if marks else ""
        fb = f"{st.a}⚫ {st.b}⚪" if spec == LOGIK else f"{st.a}A{st.b}B"
        perfect = ""
        if st.perfect is not None:  # three decimals, the cost from the shown figures: the row adds up
            before, after, spent = coach.shown(st.perfect)
            perfect = " · " + svc.catalogs.render(Text("solver.perfect_row", {
                "before": _decimals(before, lang), "after": _decimals(after, lang), "cost": _decimals(spent, lang),
                "best": st.perfect.best}), lang)
        rows.append(f"#{st.n} {st.code} → {fb} · {st.before} → {st.after}{warn}{perfect}")
    key = "solver.analysis_contradictions" if any(st.contradicts for st in result.steps) else "solver.analysis"
    turn.messages.append(Message(ib.chat, Text(key, {
        "name": ib.actor.name, "game": row.id, "rows": await svc.capped(ib, rows, ANALYSE_LINES, tail=5),
        "n": len(history),
        "solver": result.solver_guesses, "line": " ".join(result.solver_line) or "—"})))
    if result.perfect_mean is not None:  # a space with a perfect tree: each guess against perfect play
        valued = [st.perfect for st in result.steps if st.perfect is not None]
        total = coach.shown_total(valued) if result.cost is not None else None  # the sum of the rows shown
        mean = Decimal(repr(result.perfect_mean)).quantize(Decimal("0.001"), ROUND_HALF_UP)
        turn.messages.append(Message(ib.chat, Text(
            "solver.analysis_perfect" if total is None else "solver.analysis_perfect_cost",
            {"mean": _decimals(mean, lang), "cost": _decimals(total or Decimal(0), lang)})))


def _decimals(value: Decimal, lang: str) -> str:
    """A figure of /analyse with its three decimals, in the reader's number format (3.013 / 3,013)."""
    return format_decimal(value, format="#,##0.000", locale=lang)


HEAD = (Command("help", ("command",), cmd_help, personal=False),)  # first in the menus, before the games' commands
def tail() -> tuple[Command, ...]:
    """The shared commands after the games' own, their game options offering the registered games that have
    what the command shows (statistics of their own, skill ratings): read when the menus are built."""
    rated = rated_kinds()
    return (
        Command("accept", (), cmd_accept),
        Command("decline", (), cmd_decline),
        Command("guess", ("code",), cmd_guess),
        Command("giveup", (), cmd_giveup),
        Command("resign", (), cmd_resign),
        Command("board", (), cmd_board),
        Command("rematch", (), cmd_rematch),
        Command("stats", ("game", "player"), cmd_stats, choices=(("game", with_stats()),)),  # `game`: /stats logik
        Command("top", ("game", "scope"), cmd_top, personal=False, choices=(("game", rated),)),
        Command("rating", ("game", "player"), cmd_rating, choices=(("game", rated),)),
        Command("lang", ("code",), cmd_lang, personal=False),
        Command("cancel", (), cmd_cancel),
        Command("join", (), cmd_join),
        Command("leave", (), cmd_leave),
        Command("hint", (), cmd_hint),
        Command("analyse", (), cmd_analyse),
        Command("start", ("token",), cmd_start, hidden=True, personal=False),
    )
