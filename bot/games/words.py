"""Words (Бык-корова with words), bot-side: /words, /begin, /hint in solo practice."""

from __future__ import annotations

from typing import Any

from bot import solver_book
from bot.services import Command, GamePlugin, Services, Turn, loaded
from bot.storage.base import GameRow, NewResult
from core import serial
from core.errors import GameError
from core.games import words
from core.games.base import Player
from core.messages import Message, Text
from core.ratings import Match, ranked_match
from core.solver import games as solver_games


async def cmd_words(svc: Services, turn: Turn, args: tuple[str, ...]) -> None:
    """/words [solo] [options]: a Бык-корова lobby in a group, or solo practice against the bot."""
    ib = turn.inbound
    solo, opts = words.parse_options(args, await svc.lang(ib), svc.option_words)
    me = Player(ib.actor.user_id, ib.actor.name)
    if solo:
        state, events = words.new_solo(opts, me, svc.ctx())
    elif ib.chat.private:
        raise GameError("group_only", command="words")
    else:
        state, events = words.new(opts, me, svc.ctx())
    await svc.create(turn, "words", state, events, [me.user_id])


async def cmd_begin(svc: Services, turn: Turn, args: tuple[str, ...]) -> None:
    ib = turn.inbound
    row = await svc.my_game(ib.actor, ib.chat)
    if row is None or row.kind != "words":
        for other in reversed(await svc.store.chat_games(ib.chat.platform, ib.chat.chat_id)):
            _mod, state = loaded(other)
            if other.kind == "words" and words.join_action(state, ib.actor.user_id, ib.actor.name):
                raise GameError("words.not_in_lobby", name=state.opener.name)  # whose lobby it is
        raise GameError("words.no_lobby")
    await svc.play(turn, row, words.Begin())


async def words_hint(svc: Services, turn: Turn, row: GameRow) -> None:
    """/hint in /words solo practice: how many of the bot's words still fit, and a strong next guess.
    Solo practice is not recorded, so the game itself does not change."""
    state = serial.load(words.State, row.state)
    if not solver_games.word_hint_allowed(state):
        raise GameError("solver.hint_no_game")
    opts = state.opts
    position = tuple((t.word, t.bulls, t.cows, t.answer.value) for t in state.tries)
    left, word = await svc.thinker.run(("words", opts.lang, opts.length, opts.counts, position),
                                        solver_book.word_hint, opts.lang, opts.length, opts.counts, state)
    turn.outcome = f"hint:{row.id}"
    turn.messages.append(Message(turn.inbound.chat, Text("solver.words_hint", {
        "name": turn.inbound.actor.name, "n": left, "word": word})))


class WordsPlugin(GamePlugin[words.State]):
    game = words.GAME
    title = "game.words"
    commands = (Command("words", ("options",), cmd_words), Command("begin", (), cmd_begin))

    async def rated(self, svc: Services, row: GameRow, state: Any, results: list[NewResult]) -> Match | None:
        """A finished match is a ranking by points (a two-player variant: its winner first, as it
        counts guesses); those who left rank below everyone who stayed. Only who made a move — a
        guess, or a word set for the others — takes part: a second account that joins and leaves
        hands out nothing. Solo practice and timed-out or cancelled matches are not rated."""
        if state.mode is words.Mode.SOLO or state.outcome != "finished" or not results:
            return None
        pair = state.mode in (words.Mode.PAIR_ROUNDS, words.Mode.PAIR_LIMIT)
        moved = words.movers(state)
        scores = {r.user_id: (float("-inf") if r.user_id in state.left else
                              float(r.outcome in ("win", "draw")) if pair else float(state.points.get(r.user_id, 0)))
                  for r in results if r.user_id in moved}
        return ranked_match(scores, {r.user_id: r.name for r in results})

    async def hint(self, svc: Services, turn: Turn, row: GameRow) -> bool:
        await words_hint(svc, turn, row)
        return True


PLUGIN = WordsPlugin()
