"""/hint in the word game's solo practice: how many of the bot's words still fit, and a strong next guess."""

from __future__ import annotations

from bot.app.turn import Turn
from bot.games.plugin import Services
from bot.storage.base import GameRow
from core import serial
from core.errors import GameError
from core.games.words.solver import word_hint, word_hint_allowed, word_solver
from core.games.words.state import State
from core.messages import Message, Text


def think_word_hint(lang: str, length: int, counts: bool, state: State) -> tuple[int, str]:
    """The hint worked out (run in a worker): the dictionary is loaded once per process."""
    from bot.solver.dictionary import lexicon

    return word_hint(word_solver(lexicon(lang), length, counts), state)


async def words_hint(svc: Services, turn: Turn, row: GameRow) -> None:
    """The solver's answer for the player's position (worked out off the event loop, cached by it).
    Solo practice is not recorded, so the game itself does not change."""
    state = serial.load(State, row.state)
    if not word_hint_allowed(state):
        raise GameError("solver.hint_no_game")
    opts = state.opts
    position = tuple((t.word, t.bulls, t.cows, t.answer.value) for t in state.tries)
    left, word = await svc.thinker.run(("words", opts.lang, opts.length, opts.counts, position),
                                        think_word_hint, opts.lang, opts.length, opts.counts, state,
                                        aside=True)  # changes nothing: the chat's next update need not wait
    turn.outcome = f"hint:{row.id}"
    turn.messages.append(Message(turn.inbound.chat, Text("solver.words_hint", {
        "name": turn.inbound.actor.name, "n": left, "word": word})))
