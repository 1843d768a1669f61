"""What every game shares: players, events, the context of a move, the game interface."""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any, Protocol

from core.messages import Actor, Button, Chat, Message, Text


@dataclass(frozen=True)
class Player:
    """A seat in a game: the platform user id and the name shown to others."""

    user_id: str
    name: str


@dataclass
class Match:
    """The running match score over rematches of a duel: wins per player id, and draws."""

    wins: dict[str, int] = field(default_factory=dict)
    draws: int = 0


@dataclass(frozen=True)
class Event:
    """Something that happened in a game; data only, stored in the event log."""

    type: str
    data: dict[str, Any] = field(default_factory=dict)


@dataclass(frozen=True)
class Ctx:
    """What a move may depend on besides the state: time and randomness, injected."""

    now: float
    rng: random.Random
    # reference data the App loads and injects (words: language code → core.games.words.Lexicon)
    lexicon: Callable[[str], Any] | None = None


@dataclass(frozen=True)
class ResultRow:
    """One player's line in the statistics when a game ends."""

    user_id: str
    name: str
    outcome: str  # "win" | "draw" | "loss" | "abandoned" | "gave_up"
    attempts: int | None = None
    rating: str | None = None
    side: str | None = None  # the player's side where a game records sides ("white" | "black" in Logik)


class GameKind(Protocol):
    """A game module seen from the App: a pure state machine plus its presenter.

    Optional hooks (module functions the App calls when present):
    - `text_action(state, user_id, text)`: what a seated player's plain message or /guess means
    - `secret_prompt(game_id, state, user_id) -> Text | None`: the game waits for private input
      from this user (a secret); `secret_action(text | None)` turns the input into an action
    - `button_action(state, verb, user_id, name, text)`: a pressed `g:<id>:<verb>` button
    - `can_answer(state, user_id)`: "targeted" / "open" / None, for /accept and /decline
    - `quit_action(state, user_id, command)`: /resign or /giveup; `cancel_action(state, user_id)`
    - `follow_up(old, verb, user_id, ctx)`: a new game from a finished one (rematch, play again)
    - `accepts_text(state, text) -> bool`: a plain message that is not a digit code is offered to the game
    - `due_action(state, now) -> action | None`: applied first when an inbound reaches the game (lazy timers)
    - `join_action(state, user_id, name)` / `leave_action(state, user_id)`: /join and /leave
    - `board(game_id, state, chat)`: the /board message
    - `Timeout`: the action the App applies to games idle past the timeout
    """

    kind: str
    state_type: type

    def apply(self, state: Any, action: Any, actor: str | None, ctx: Ctx) -> tuple[Any, list[Event]]: ...

    def present(self, game_id: int, state: Any, events: Sequence[Event], chat: Chat) -> list[Message]: ...

    def players(self, state: Any) -> list[Player]: ...

    def seated(self, state: Any) -> list[Player]: ...

    def is_over(self, state: Any) -> bool: ...

    def results(self, state: Any) -> list[ResultRow]: ...

    def last_activity(self, state: Any) -> float: ...


def to_actor(chat: Chat, player: Player) -> Actor:
    """A player's private destination on the game's platform."""
    return Actor(chat.platform, player.user_id, player.name)


def button(game_id: int, action: str, key: str, **params: Any) -> Button:
    """A button whose opaque id names the game and the action: `g:<id>:<action>`."""
    return Button(Text(key, params), f"g:{game_id}:{action}")


def say(to: Chat | Actor, key: str, buttons: tuple[tuple[Button, ...], ...] = (), **params: Any) -> Message:
    """Shorthand for a presenter's message."""
    return Message(to, Text(key, params), buttons)


def repeats_text(repeats: bool) -> Text:
    """The localised name of the repeats option, as a parameter of another text."""
    return Text("option.repeats_on" if repeats else "option.repeats_off")
