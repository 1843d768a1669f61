"""What a move is to the move runner (`Move` and its `Kind`, `Played`, `Moved`) and what the runner offers the
games (`Runner`): plain types of their own, so that the games' plugins and the services protocol
(bot/games/plugin.py) name them without importing the runner (bot/app/runner.py)."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Literal, Protocol

from bot.storage.base import NewResult
from core.games.base import Ctx, Event, Game

if TYPE_CHECKING:  # only types; neither module imports the App
    from bot.app.turn import Turn
    from bot.storage.base import GameRow
    from core.messages import Chat

Step = Callable[[Game[Any], Any, Ctx], tuple[Any, list[Event]]]
# Every way a game moves or ends, each through the runner's one entry (`MoveRunner.run`):
# a player's move, the computer opponent's, a hint, the idle timeout (the App's sweep), a chat nobody can
# play in any more (bot/app/closing.py), a player who forgot themselves (bot/yourdata/forget.py)
Kind = Literal["player", "bot", "hint", "timeout", "closed", "forgotten"]
KINDS: tuple[Kind, ...] = ("player", "bot", "hint", "timeout", "closed", "forgotten")


@dataclass(frozen=True)
class Move:
    """One move for the move runner (`MoveRunner.run`): how it changes the state, and how it is told."""

    step: Step
    label: str  # the log's outcome: "guess", "bot", "hint" …
    kind: Kind = "player"
    extra: tuple[Event, ...] = ()  # events logged before the move's own

    @property
    def same_version(self) -> bool:
        """Decided on the row given (the bot's thought, a hint): `Moved` if another move came first."""
        return self.kind in ("bot", "hint")

    @property
    def answered(self) -> bool:
        """A person's move, which the game's hooks answer (the computer opponent's move: `before_move`,
        `after_move`); the bot's own move and the App's endings are not answered."""
        return self.kind in ("player", "hint")

    @property
    def ends(self) -> bool:
        """The App ends the game as by its timeout (the sweep, a closed chat): only while it runs, and
        with no lazy timer's move first."""
        return self.kind in ("timeout", "closed")


@dataclass(frozen=True)
class Played:
    """What the move runner played: the game's id, whether that move ended the game, and the state before it."""

    game_id: int
    over: bool
    before: Any = None


class Moved(Exception):
    """A move decided on a state that another move has changed meanwhile (or an App's ending of a game
    that is not due any more): decide again, or leave it."""


def results(game: Game[Any], state: Any) -> list[NewResult]:
    """A finished game's results as the store records them (the 1A2B games with their code rules)."""
    length, repeats = game.code_rules(state) or (None, None)
    return [NewResult(r.user_id, r.name, r.outcome, r.attempts, length, repeats, r.rating, r.side)
            for r in game.results(state)]


class Runner(Protocol):
    """What the move runner (bot/app/runner.py `MoveRunner`) offers the games and the handlers: a new game,
    the one entry for every move (`run`; `play` is a player's), the game's lock for work beside a move."""

    def lock(self, game_id: int) -> Any: ...  # an asyncio.Lock
    def release(self, game_id: int) -> None: ...
    def owe(self, game_id: int) -> bool: ...
    async def create(self, turn: Turn, kind: str, state: Any, events: list[Event], seats: list[str],
                     chat: Chat | None = None, *, extra: Any = None, bounded: bool = True,
                     seat_key: str | None = None) -> None: ...
    async def play(self, turn: Turn, row: GameRow, action: object) -> Played: ...
    async def run(self, turn: Turn, row: GameRow, move: Move) -> Played: ...
