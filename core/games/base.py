"""What every game shares: players, events, the context of a move, the game interface."""

from __future__ import annotations

import builtins
import random
from abc import ABC, abstractmethod
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from enum import StrEnum
from typing import Any, ClassVar, Generic, Protocol, TypeVar, cast

import msgspec

from core import serial
from core.buttons import GameButton
from core.buttons import Verb as Verb  # the App's button verbs, defined with the button ids
from core.errors import GameError
from core.messages import Actor, Button, Chat, Message, Text

S = TypeVar("S")


@dataclass(frozen=True)
class Player:
    """A seat in a game: the platform user id and the name shown to others."""

    user_id: str
    name: str


@dataclass
class MatchScore:
    """The running match score over rematches of a duel: wins per player id, and draws (not
    `core.ratings.Match`, the rated result of one game)."""

    wins: dict[str, int] = field(default_factory=dict)
    draws: int = 0


class Event(msgspec.Struct, frozen=True):
    """Something that happened in a game: one frozen Struct per kind of event, its fields the data
    (`match ev: case Guessed(by=by, code=code): …`). The event log stores it as `Logged`: its `type`
    and its fields as JSON (a field may be stored under another name: `msgspec.field(name="for")`)."""

    type: ClassVar[str]  # the kind of event, as the event log names it


@dataclass(frozen=True)
class Logged:
    """An event as the event log holds it: its type and its JSON data (the event's fields, in order)."""

    type: str
    data: dict[str, Any]

    @classmethod
    def of(cls, event: Event) -> Logged:
        return cls(event.type, serial.dump(event))

    def read(self, kinds: Iterable[builtins.type[Event]]) -> Event:
        """The event again, as one of `kinds` (a game's `events`); KeyError for a type none of them has."""
        for kind in kinds:
            if kind.type == self.type:
                loaded: Event = serial.load(kind, self.data)
                return loaded
        raise KeyError(self.type)


@dataclass(frozen=True)
class Ctx:
    """What a move may depend on besides the state: time and randomness, injected."""

    now: float
    rng: random.Random
    # reference data the App loads and injects (words: language code → core.lexicon.Lexicon)
    lexicon: Callable[[str], Any] | None = None
    # whether the chat's plain messages reach the game (False: the platform delivers only commands and
    # replies there, Telegram's privacy mode): a player silent by the clock may have typed unheard
    typed: bool = True


class Outcome(StrEnum):
    """How a game ended for one player, as the statistics count it (stored as its value)."""

    WIN = "win"
    DRAW = "draw"
    LOSS = "loss"
    ABANDONED = "abandoned"  # timed out
    GAVE_UP = "gave_up"


@dataclass(frozen=True)
class ResultRow:
    """One player's line in the statistics when a game ends."""

    user_id: str
    name: str
    outcome: Outcome
    attempts: int | None = None
    rating: str | None = None
    side: str | None = None  # the player's side where a game records sides ("white" | "black" in Logik)


class Game(ABC, Generic[S]):
    """One game seen from the App: a pure state machine plus its presenter, through one typed
    interface. The abstract methods are what every game has; the others are capabilities with
    defaults that mean "this game does not do that" (no secret, no typed moves, no buttons …). What
    only some games have is on their own types: a challenge, its pair and the rematch link on
    `core.games.challenge.ChallengeGame`, /join and /leave on `core.games.lobby.LobbyGame`. A game's
    class binds its rules' and presenter's functions as these members (`apply = staticmethod(rules.apply)`),
    or is its rules where a member is its own (a button's meaning): no method that only forwards."""

    kind: ClassVar[str]
    state_type: type[S]
    events: ClassVar[tuple[type[Event], ...]] = ()  # its kinds of events (the event log read back: `Logged.read`)
    pictured: ClassVar[bool] = False  # its messages may carry a PNG (drawn off the event loop)
    rematch_verb: ClassVar[Verb] = Verb.REMATCH  # what /rematch asks of `follow_up` (AGAIN: play again alone)
    # played by its seated player privately though it belongs to a group (the daily puzzle): every move
    # is private input (`secret_prompt`), so /giveup, /hint and /board in the private chat reach it too
    private_play: ClassVar[bool] = False
    # what the bot says when a player types their secret into the group (it is deleted, never echoed):
    # each game names its own secret (a code, a row, a word) or, played privately, its own move
    secret_in_group: ClassVar[str] = "private.secret_in_group"

    # ---------------------------------------------------------------- the state machine
    @abstractmethod
    def apply(self, state: S, action: object, actor: str | None, ctx: Ctx) -> tuple[S, list[Event]]: ...

    @abstractmethod
    def present(self, game_id: int, state: S, events: Sequence[Event], chat: Chat) -> list[Message]: ...

    @abstractmethod
    def board(self, game_id: int, state: S, chat: Chat) -> Message: ...

    @abstractmethod
    def players(self, state: S) -> list[Player]: ...

    @abstractmethod
    def seated(self, state: S) -> list[Player]: ...

    @abstractmethod
    def results(self, state: S) -> list[ResultRow]: ...

    def is_over(self, state: S) -> bool:
        """Over once its phase is "finished" (every game's state is `Staged`)."""
        return is_over(cast(Staged, state))

    def last_activity(self, state: S) -> float:
        """The time of its last move (`Staged.updated`)."""
        return last_activity(cast(Staged, state))

    def code_rules(self, state: S) -> tuple[int, bool] | None:
        """The code length and repeats a 1A2B game records with its results (None: not a code game)."""
        return None

    # ---------------------------------------------------------------- capabilities
    def due_action(self, state: S, now: float) -> object | None:
        """Applied first when an inbound reaches the game (a lazy timer that ran out)."""
        return None

    def secret_prompt(self, game_id: int, state: S, user_id: str) -> Text | None:
        """The private prompt while the game waits for this user's secret, else None."""
        return None

    def secret_action(self, text: str | None) -> object | None:
        """Private input where a secret is expected (None: a random one)."""
        return None

    def exposed_action(self, text: str) -> object | None:
        """A secret of the actor's, typed in the open, stayed visible (the bot could not delete it): the
        action that keeps them from keeping it as their secret (None: the game keeps no secret).
        `core.games.challenge.expose` is the challenge games' own."""
        return None

    def accepts_text(self, state: S, text: str) -> bool:
        """Plain text that is no digit code is offered to this game (a word, a row of colour letters)."""
        return False

    def text_action(self, state: S, user_id: str, text: str) -> object | None:
        """What a seated player's plain message or /guess means (None: the game takes no typed move)."""
        return None

    def button_action(self, state: S, verb: str, user_id: str, name: str, text: str | None) -> object | None:
        """A pressed button of this game (core/buttons.py `GameButton`), `verb` its verb with its argument
        as the game wrote it (`"p3"`; None: a stale button)."""
        return None

    def quit_action(self, state: S, user_id: str, command: str) -> object | None:
        """/giveup or /resign."""
        return None

    def cancel_action(self, state: S, user_id: str) -> object | None:
        """/cancel (None: nothing to cancel)."""
        return None

    def follow_up(self, old: S, verb: str, user_id: str, ctx: Ctx) -> tuple[S, list[Event]] | None:
        """A new game from a finished one (`verb`: `Verb.REMATCH` or `Verb.AGAIN`): the game's 🔁/▶
        buttons and /rematch, where it has one of its own."""
        return None


class Staged(Protocol):
    """A game state that goes through phases, the last one "finished", and notes its last move's time."""

    @property
    def phase(self) -> StrEnum: ...
    updated: float


def is_over(state: Staged) -> bool:
    """The `is_over` of a game whose state is `Staged`."""
    return state.phase == "finished"


def last_activity(state: Staged) -> float:
    """The `last_activity` of a game whose state is `Staged`."""
    return state.updated


St = TypeVar("St", bound=Staged)


def moving(state: St, ctx: Ctx) -> St:
    """A move begins: refused once the game is over, else made on a copy of the state (so a refused
    move leaves `state` untouched), stamped with the move's time."""
    if is_over(state):
        raise GameError("game_over")
    s = serial.clone(state)
    s.updated = ctx.now
    return s


def to_actor(chat: Chat, player: Player) -> Actor:
    """A player's private destination on the game's platform."""
    return Actor(chat.platform, player.user_id, player.name)


def button(game_id: int, verb: str, key: str, *, arg: int | None = None, settles: bool = False,
           prompt: Text | None = None, **params: Any) -> Button:
    """A button of the game whose id names the game, the verb and its argument (core/buttons.py
    `GameButton`; a verb written with its argument, `"p3"`, is split there). `settles`: an accepted
    press of it settles its message's keyboard (`Button.settles`); `prompt`: it leads to private text
    input (`Button.prompt`)."""
    bid = GameButton(game_id, verb, arg) if arg is not None else GameButton.of(game_id, verb)
    return Button(Text(key, params), str(bid), settles=settles, prompt=prompt)


def say(to: Chat | Actor, key: str, buttons: tuple[tuple[Button, ...], ...] = (), **params: Any) -> Message:
    """Shorthand for a presenter's message."""
    return Message(to, Text(key, params), buttons)


def repeats_text(repeats: bool) -> Text:
    """The localised name of the repeats option, as a parameter of another text."""
    return Text("option.repeats_on" if repeats else "option.repeats_off")
