"""Higher or lower against the bot: it thinks of a number from 1 to 100, the player guesses, the
bot says "higher" or "lower" until the number is found. Pure: randomness and time come in `Ctx`."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from core.errors import GameError
from core.games.actions import GiveUp, Guess, Timeout
from core.games.base import Ctx, Event, Game, Outcome, Player, ResultRow, say
from core.messages import Chat, Message

LOW, HIGH = 1, 100


# its events: one frozen Struct each (core/games/base.py `Event`), stored in the event log as type + fields
class Started(Event, frozen=True):
    type = "started"
    low: int
    high: int


class Hint(Event, frozen=True):
    """The guess was too low ("higher") or too high ("lower")."""

    type = "hint"
    higher: bool
    guess: int


class Found(Event, frozen=True):
    type = "found"
    number: int
    tries: int


class Ended(Event, frozen=True):
    """Given up or timed out: the number is revealed."""

    type = "ended"
    number: int


@dataclass
class State:
    player: Player
    number: int
    tries: int = 0
    over: bool = False
    outcome: str | None = None  # "win" | "gave_up" | "abandoned"
    updated: float = 0.0


def new(player: Player, ctx: Ctx) -> tuple[State, list[Event]]:
    return State(player, ctx.rng.randint(LOW, HIGH), updated=ctx.now), [Started(LOW, HIGH)]


class HigherOrLower(Game[State]):
    kind = "hilo"
    state_type = State

    def apply(self, state: State, action: object, actor: str | None, ctx: Ctx) -> tuple[State, list[Event]]:
        if state.over:
            raise GameError("game_over")
        if isinstance(action, Timeout):
            state.over, state.outcome = True, "abandoned"
            return state, [Ended(state.number)]
        if actor != state.player.user_id:
            raise GameError("not_a_player")
        if isinstance(action, GiveUp):
            state.over, state.outcome, state.updated = True, "gave_up", ctx.now
            return state, [Ended(state.number)]
        if not isinstance(action, Guess):
            raise GameError("not_now")
        text = action.code.strip()
        if not text.isdecimal() or not LOW <= int(text) <= HIGH:
            raise GameError("hilo.not_a_number", low=LOW, high=HIGH)
        state.tries, state.updated = state.tries + 1, ctx.now
        n = int(text)
        if n == state.number:
            state.over, state.outcome = True, "win"
            return state, [Found(n, state.tries)]
        return state, [Hint(n < state.number, n)]

    def present(self, game_id: int, state: State, events: Sequence[Event], chat: Chat) -> list[Message]:
        name = state.player.name
        out = []
        for ev in events:
            match ev:
                case Started(low=low, high=high):
                    out.append(say(chat, "hilo.started", name=name, low=low, high=high))
                case Hint(higher=higher, guess=guess):
                    out.append(say(chat, "hilo.higher" if higher else "hilo.lower", name=name, guess=guess))
                case Found(number=number, tries=tries):
                    out.append(say(chat, "hilo.found", name=name, number=number, n=tries))
                case Ended(number=number):
                    out.append(say(chat, "hilo.ended", name=name, number=number))
        return out

    def board(self, game_id: int, state: State, chat: Chat) -> Message:
        return say(chat, "hilo.board", name=state.player.name, n=state.tries)

    def players(self, state: State) -> list[Player]:
        return [state.player]

    def seated(self, state: State) -> list[Player]:
        return [] if state.over else [state.player]

    def is_over(self, state: State) -> bool:
        return state.over

    def results(self, state: State) -> list[ResultRow]:
        return [ResultRow(state.player.user_id, state.player.name, Outcome(state.outcome or "abandoned"), state.tries)]

    def last_activity(self, state: State) -> float:
        return state.updated

    # capabilities: typed numbers are guesses, /giveup ends the game
    def accepts_text(self, state: State, text: str) -> bool:
        return text.strip().isdecimal()

    def text_action(self, state: State, user_id: str, text: str) -> object | None:
        return Guess(text)

    def quit_action(self, state: State, user_id: str, command: str) -> object | None:
        return GiveUp()


GAME = HigherOrLower()
