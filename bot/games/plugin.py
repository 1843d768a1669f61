"""A game's bot-side half, `GamePlugin[S]`: the core game it carries, its commands and its hooks into the
move runner (bot/app/runner.py), typed by the game's state; and the one table of registered plugins
(filled by bot/games/registry.py), through which the core game objects are found (`GAMES`).

A game is one entry: `register(<kind>.PLUGIN)` in bot/games/registry.py; its kind, rules, presenter and
capabilities come from the core game on the plugin (`game = GAME`), its commands and hooks from the
plugin. The App knows the games only through this interface and that table."""

from __future__ import annotations

from collections.abc import Callable, Iterator, Mapping
from dataclasses import replace
from typing import TYPE_CHECKING, Any, ClassVar, Generic, Protocol, TypeVar

from bot.storage.base import GameRow, NewResult, StatLine
from bot.storage.schemas import Schema
from bot.yourdata.declare import Kept, Personal, shared
from core.achievements import Achievement, Feat
from core.errors import GameError
from core.games.base import Game
from core.messages import Chat, Inbound, Message, Text
from core.ratings import Match
from core.solver.games import SolverView

if TYPE_CHECKING:  # only types; none of these modules imports this one or the services
    from bot.app.memory import Known, PrivateInputs
    from bot.app.move_types import Runner
    from bot.app.players import Players
    from bot.app.turn import Command, Turn
    from bot.schedule.scheduler import Job
    from bot.solver.thinking import Thinker
    from bot.storage.base import Store
    from bot.storage.sql import TxJob
    from bot.texts.i18n import Catalogs
    from bot.texts.render import Localiser
    from core.games.base import Ctx

S = TypeVar("S")


class Services(Protocol):
    """What the games' hooks and the commands' handlers are handed: the App's services and its move runner
    (bot/app/app.py `App`, which holds bot/app/runner.py `MoveRunner` as `runner`). A protocol, so that a plugin
    names no module that imports the plugins (no import loop, not even a type-only one)."""

    store: Store
    catalogs: Catalogs
    localiser: Localiser
    plugins: dict[str, GamePlugin[Any]]  # by game kind (the App takes them from bot/games/registry.py)
    commands: dict[str, Command]  # by name, in menu order
    aliases: dict[str, str]  # a localised command name → the command's name
    clock: Callable[[], float]
    rng: Any  # random.Random, or SystemRandom
    thinker: Thinker
    idle_timeout: float
    list_lines: int

    @property
    def runner(self) -> Runner: ...  # every move and every end goes through `runner.run` (bot/app/move_types.py)
    @property
    def inputs(self) -> PrivateInputs: ...  # which game a user's private input is for (bot/app/memory.py)
    @property
    def known(self) -> Known: ...  # names, locales and chat titles stored already
    @property
    def option_words(self) -> dict[str, str]: ...
    def ctx(self, typed: bool = True) -> Ctx: ...
    def chat_of(self, row: GameRow) -> Chat: ...
    def forget_user(self, platform: str, user_id: str) -> None: ...
    async def title_for(self, platform: str, chat_id: str, untold: bool, user_id: str) -> str | None: ...
    async def titled(self, kind: str, chat: Chat, messages: list[Message]) -> list[Message]: ...
    async def lang(self, ib: Inbound) -> str: ...
    async def think(self, key: tuple[Any, ...], spec: Any, fn: Callable[..., Any], *args: Any,
                    aside: bool = False) -> Any: ...
    players: Players
    async def more(self, ib: Inbound, hidden: int) -> str: ...
    async def capped(self, ib: Inbound, lines: list[str], limit: int, tail: int = 0) -> str: ...


class GamePlugin(Generic[S]):
    """A game's bot-side half: its core game (`game`, whose kind it is), its commands and its hooks into
    the move runner (defaults: none). `S` is the game's state: the hooks that see one get it typed."""

    game: Game[S]  # the core game (core/games/<kind>/): set on the class, `game = GAME`
    title: ClassVar[str | None] = None  # the catalog key of the game's name (in /stats)
    commands: ClassVar[tuple[Command, ...]] = ()
    # the game's own tables, if it has any: its migrations, applied by the store after the shared
    # ones (bot/storage/schemas.py); the game reads and writes them in its own storage module
    schema: ClassVar[Schema | None] = None
    # the tables of a wing the game brings along (not a game's: the club's roster and roles, bot/club/),
    # applied like the game's own, each under its own owner
    wings: ClassVar[tuple[Schema, ...]] = ()
    # where the game's own tables keep a chat user's id or name, for /mydata and /forgetme
    # (bot/yourdata/declare.py); a game whose tables hold none declares nothing
    personal: ClassVar[tuple[Personal | Kept, ...]] = ()
    # the achievements a finished game of this kind can earn (core/achievements.py; bot/app/achievements.py)
    achievements: ClassVar[tuple[Achievement, ...]] = ()
    # /forgetme ends a running game of a player who forgets themselves (resigned, cancelled); False where
    # the chat user is a role the game goes on without (the Kegel scorer: an admin takes over)
    forgotten_player_ends: ClassVar[bool] = True
    # its view for the solver (core/games/<kind>/solver.py `VIEW`, a core.solver.games `SolverView`): its code
    # space, /analyse of its finished games (`analysable`), the computer opponent's moves (a `ComputerView`)
    solver: ClassVar[SolverView[Any] | None] = None
    # traits, where the shared commands read them instead of a list of games:
    # the computer opponent may take a seat in it (bot/games/computer/ `ComputerOpponent`)
    computer_plays: ClassVar[bool] = False
    # its players are names within one chat (a Kegel club's members, not accounts): rated in that chat only
    # (its `rated` match is `local`, core/ratings.py), no /top across chats, its ratings kept by /forgetme
    # like the club's records (bot/yourdata/declare.py)
    rated_in_chat: ClassVar[bool] = False
    # the plain /top and the tables by period (/top week, the weekly post) list its wins (the 1A2B duel's);
    # one game at most
    wins_table: ClassVar[bool] = False
    # its `scheduled` hook posts the chat's morning post (`/posts morning 08:00`, bot/retention/schedule.py arms
    # its jobs under the game's kind): the daily puzzle's "today's puzzles"; one game at most
    posts_morning: ClassVar[bool] = False
    # a one-letter prefix of the Telegram deep links to its chat buttons (`<letter>_<chat>_<arg>_<mac>`,
    # adapters/telegram/deeplink.py) instead of `c_<kind>_…`: a game whose links were posted in that form
    link_prefix: ClassVar[str | None] = None

    @property
    def kind(self) -> str:
        """The game's kind, written once: in its core class (`Game.kind`)."""
        return self.game.kind

    @property
    def analysable(self) -> bool:
        """Whether /analyse replays its finished games against the solver (its solver view says so)."""
        return self.solver is not None and self.solver.analysable

    @property
    def is_rated(self) -> bool:
        """Whether the game keeps skill ratings (/top GAME, /rating, the weekly table): the trait is having
        a `rated` hook of its own, so that it cannot be declared apart from the rating it claims."""
        return type(self).rated is not GamePlugin.rated

    def writes(self, svc: Services, row: GameRow, old: S, new: S, over: bool) -> TxJob | None:
        """The game's own writes in the move's transaction (a store job), or None."""
        return None

    async def before_move(self, svc: Services, turn: Turn, row: GameRow) -> None:
        """Before a player's move reaches the game (a pending computer move is made first)."""

    async def after_move(self, svc: Services, turn: Turn, game_id: int, raw: dict[str, Any]) -> None:
        """After a player's move (or the game's creation) was saved: the computer opponent answers.
        `raw`: the stored state the move was made on (or the new game's)."""

    async def after_save(self, svc: Services, turn: Turn, chat: Chat, state: S, over: bool,
                         saved: tuple[int, int, dict[str, Any]]) -> None:
        """After a move was saved and presented (a new personal best is told); `saved`: the game's id, its
        new version and the state as stored."""

    async def rated(self, svc: Services, row: GameRow, state: S, results: list[NewResult]) -> Match | None:
        """A finished game as a rated match (core/ratings.py), or None where it is not rated."""
        return None

    async def feats(self, svc: Services, row: GameRow, state: S, results: list[NewResult], at: float) -> list[Feat]:
        """What a finished game showed of each player, for its achievements (by default its results: a win
        and, for a win, its attempts). `at`: when it ended (live: now; a replay: the stored time), for what
        came before."""
        won = {r.user_id: r.outcome == "win" for r in results}  # attempts count as a crack's only in a win
        return [Feat(r.user_id, r.name, won[r.user_id], r.attempts if won[r.user_id] else None) for r in results]

    async def scheduled(self, svc: Services, job: Job) -> list[Message]:
        """The game's own post at a set time (a job it wrote with `bot.schedule.scheduler.schedule_job`, owner =
        its kind): what to post in the job's chat now, or nothing (e.g. a reminder that came too late)."""
        return []

    async def chat_action(self, svc: Services, turn: Turn, chat: Chat, arg: str) -> None:
        """A button or link `<kind>:<chat id>:<arg>` that names a chat rather than a game (the daily
        puzzle's "play today's daily of this chat"); bot/app/routing.py has checked where it comes from."""
        raise GameError("stale_button")

    def label(self, row: GameRow, chat: str | None = None) -> Text:
        """The game named on a button (which of the player's games a private input is for); `chat`:
        the title of the group it runs in, where the player may be told it (`Services.title_for`)."""
        if self.title is None:
            if chat:
                return Text("button.game_in_chat", {"game": row.id, "chat": chat})
            return Text("button.game_in", {"game": row.id})
        if chat:
            return Text("button.game_named_in", {"game": Text(self.title), "id": row.id, "chat": chat})
        return Text("button.game_named", {"game": Text(self.title), "id": row.id})

    def titled(self, msg: Message, chat: str) -> Message:
        """A private message of this game, to a player who may be told the title of the group it runs
        in (`Services.titled`): the message naming that group (by default a last line "💬 in Büro")."""
        return replace(msg, text=Text("private.in_chat", {"text": msg.text, "chat": chat}))

    async def not_waiting(self, svc: Services, row: GameRow, ib: Inbound) -> GameError | None:
        """What to tell a player whose private input (an old guess button, a code typed privately)
        reaches a game of theirs that waits for none from them (a finished daily attempt), or None
        (the generic answer)."""
        return None

    async def hint(self, svc: Services, turn: Turn, row: GameRow) -> bool:
        """/hint in this game; False where the game gives none."""
        return False

    async def stats(self, svc: Services, turn: Turn, args: tuple[str, ...]) -> bool:
        """`/stats <kind> …`: the game's own statistics; False where it has none."""
        return False

    async def bests(self, svc: Services, platform: str, user_id: str) -> list[Text]:
        """The player's personal bests in this game on the platform, as /stats shows them (practice: one a code
        space); none by default."""
        return []

    def stat_line(self, line: StatLine, name: str) -> str:
        """The game's line in /stats."""
        extra = f" · ⏱{line.abandoned}" if line.abandoned else ""
        return f"{name}: {line.games} · {line.wins}/{line.draws}/{line.losses}" + extra


PLUGINS: dict[str, GamePlugin[Any]] = {}  # by kind, in registration order (bot/games/registry.py fills it)


def register(plugin: GamePlugin[Any]) -> None:
    """Add a game's plugin (or replace the one of its kind): its game, its commands and its hooks."""
    PLUGINS[plugin.kind] = plugin


def rated_kinds(plugins: Mapping[str, GamePlugin[Any]] = PLUGINS) -> tuple[str, ...]:
    """The registered games with skill ratings, in registration order (`GamePlugin.is_rated`)."""
    return tuple(kind for kind, p in plugins.items() if p.is_rated)


def rated_in_chat(plugins: Mapping[str, GamePlugin[Any]] = PLUGINS) -> frozenset[str]:
    """The registered games rated in their chat only (`GamePlugin.rated_in_chat`)."""
    return frozenset(kind for kind, p in plugins.items() if p.rated_in_chat)


def wins_game(plugins: Mapping[str, GamePlugin[Any]] = PLUGINS) -> str | None:
    """The kind of the registered game whose wins the plain /top lists (`GamePlugin.wins_table`), or None."""
    return next((kind for kind, p in plugins.items() if p.wins_table), None)


def morning_poster(plugins: Mapping[str, GamePlugin[Any]] = PLUGINS) -> str | None:
    """The kind of the registered game that posts the chats' morning post (`GamePlugin.posts_morning`), or None."""
    return next((kind for kind, p in plugins.items() if p.posts_morning), None)


def link_prefixes() -> dict[str, str]:
    """The registered games' short deep-link prefixes, kind → letter (`GamePlugin.link_prefix`), for the
    Telegram adapter (bot/__main__.py)."""
    return {kind: p.link_prefix for kind, p in PLUGINS.items() if p.link_prefix}


def with_stats() -> tuple[str, ...]:
    """The registered games with statistics of their own (`/stats <kind>`: a `stats` hook of their own)."""
    return tuple(kind for kind, p in PLUGINS.items() if type(p).stats is not GamePlugin.stats)


def schemas() -> tuple[Schema, ...]:
    """The registered games' own tables, for the store to apply when it opens (bot/app/app.py `open_store`)."""
    return (*(p.schema for p in PLUGINS.values() if p.schema is not None),
            *(w for p in PLUGINS.values() for w in p.wings))


def personal() -> tuple[Personal | Kept, ...]:
    """Every declaration of where a chat user's data is kept: the shared tables' and the registered games'."""
    return shared(rated_in_chat()) + tuple(d for p in PLUGINS.values() for d in p.personal)


class _Games(Mapping[str, Game[Any]]):
    """The core game objects by kind, read through the registered plugins: no table of their own."""

    def __getitem__(self, kind: str) -> Game[Any]:
        return PLUGINS[kind].game

    def __iter__(self) -> Iterator[str]:
        return iter(PLUGINS)

    def __len__(self) -> int:
        return len(PLUGINS)


GAMES: Mapping[str, Game[Any]] = _Games()
