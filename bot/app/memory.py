"""What the App remembers of its users between messages, each cache with one owner: where a user's private
input goes (`PrivateInputs`) and which names, locales and chat titles are stored already (`Known`).

Each cache is bounded (bot/process/bounded.py) and can be refilled from the store; /forgetme empties
what is kept of one user (`forget`)."""

from __future__ import annotations

from collections.abc import Collection
from typing import Any

from bot.process.bounded import Bounded
from core.games.base import Game

CACHED_USERS = 100_000  # names and locales last stored (bot/process/bounded.py: a miss costs one write)
UserKey = tuple[str, str]  # (platform, user id)


class PrivateInputs:
    """Which game a user's private input (a secret, a guess typed privately) is for: the game chosen by its
    button (focus), the game that asked them last (prompted), the game their last private input went to
    (answered). Read by the router (bot/app/routing.py `input_target`), noted by the move runner."""

    def __init__(self, size: int = CACHED_USERS) -> None:
        self._focus: Bounded[UserKey, int] = Bounded(size)
        self._prompted: Bounded[UserKey, int] = Bounded(size)
        self._answered: Bounded[UserKey, int] = Bounded(size)

    def focus(self, user: UserKey, game_id: int) -> None:
        """The user pressed a game's secret button: their next private input is for it."""
        self._focus[user] = game_id

    def focused(self, user: UserKey) -> int | None:
        return self._focus.get(user)

    def unfocus(self, user: UserKey) -> bool:
        """Forget the user's chosen game (/cancel); True when one was chosen."""
        return self._focus.pop(user, None) is not None

    def answered(self, user: UserKey, game_id: int) -> None:
        """The user's private input went to this game (the choice made; any button's choice is spent)."""
        self._focus.pop(user, None)
        self._answered[user] = game_id

    def asked_last(self, user: UserKey) -> int | None:
        return self._prompted.get(user)

    def last(self, user: UserKey) -> int | None:
        """The game the user's last private input went to, else the game that asked them last."""
        return self._answered.get(user, self._prompted.get(user))

    def note_prompts(self, game: Game[Any], game_id: int, platform: str, old: Any, new: Any, actor: str,
                     reached: Collection[str] | None = None) -> None:
        """Remember whom this move has asked for private input (newly waiting for it, or the actor
        still waiting after their own move: a daily attempt's next guess): their private input goes
        to the game that asked last (bot/app/routing.py `secret_input`). `reached`: the players the move's
        messages reached privately, the only ones it can have asked (a guess in the group asks nobody, and
        no prompt is computed for it); None: every seated player."""
        for p in game.seated(new):
            if reached is not None and p.user_id not in reached:
                continue
            if game.secret_prompt(game_id, new, p.user_id) is None:
                continue
            if old is None or p.user_id == actor or game.secret_prompt(game_id, old, p.user_id) is None:
                self._prompted[(platform, p.user_id)] = game_id

    def forget(self, user: UserKey) -> None:
        for cache in (self._focus, self._prompted, self._answered):
            cache.pop(user, None)


class Known:
    """What this process has stored already, so that a message writes it only when it is news: a user's
    name and locale, and that a user has acted in a group under its title (bot/app/app.py)."""

    def __init__(self, size: int = CACHED_USERS) -> None:
        self._users: Bounded[UserKey, tuple[str, str | None]] = Bounded(size)
        self._members: Bounded[tuple[str, str, str], str | None] = Bounded(size)  # (platform, chat, user): title

    def user_is(self, user: UserKey, known: tuple[str, str | None]) -> bool:
        return self._users.get(user) == known

    def user_stored(self, user: UserKey, known: tuple[str, str | None]) -> None:
        self._users[user] = known

    def member_is(self, member: tuple[str, str, str], title: str | None) -> bool:
        return member in self._members and self._members.get(member) == title

    def member_stored(self, member: tuple[str, str, str], title: str | None) -> None:
        self._members[member] = title

    def bound(self, size: int) -> None:
        """At most `size` users and members kept (a test of the bound)."""
        self._users.size = self._members.size = size

    def users_kept(self) -> int:
        return len(self._users)

    def forget(self, user: UserKey) -> None:
        platform, uid = user
        self._users.pop(user, None)
        for key in [k for k in self._members if k[0] == platform and k[2] == uid]:
            self._members.pop(key, None)
