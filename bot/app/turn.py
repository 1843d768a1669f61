"""One turn: the handling of one inbound (`Turn`) and the commands that act on it (`Command`, localised aliases).

A command's handler gets the App's services (bot/games/plugin.py `Services`: the App of bot/app/app.py) and
the `Turn` of the inbound that named it, and adds its messages to it; the App renders them at the end
(bot/texts/render.py)."""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Collection
from dataclasses import dataclass, field
from typing import Any

from core.messages import Chat, Inbound, Message, Text

# a handler is called with the services (bot/games/plugin.py `Services`, which names this module's types: so
# the handler's own signature types them, and this module imports nothing of the App)
Handler = Callable[[Any, "Turn", tuple[str, ...]], Awaitable[None]]


@dataclass(frozen=True)
class Command:
    """A command, identical on every platform: its options (platform menus), where it may be used,
    and its handler."""

    name: str
    options: tuple[str, ...] = ()
    handler: Handler | None = None
    group_only: bool = False
    hidden: bool = False  # not in platform menus (e.g. /start, which platforms handle themselves)
    personal: bool = True  # needs a person: refused to a post on behalf of a chat (`Actor.as_chat`)
    choices: tuple[tuple[str, tuple[str, ...]], ...] = ()  # fixed value sets of options (Discord choices)
    # localised names, (language, name) pairs: typed, each works like `name` in every chat on every
    # platform; a platform menu of that language shows the first of them its naming rules accept
    # (Telegram: [a-z0-9_]{1,32}; Discord: lowercase letters of any script, digits, - and _)
    aliases: tuple[tuple[str, str], ...] = ()

    def names(self, lang: str) -> tuple[str, ...]:
        """The command's names in one language, the localised ones first."""
        return tuple(n for lg, n in self.aliases if lg == lang)


def command_aliases(commands: Collection[Command]) -> dict[str, str]:
    """Every localised command name → its command; an alias never hides a command or another alias."""
    taken = {c.name for c in commands}
    out: dict[str, str] = {}
    for c in commands:
        for _lang, alias in c.aliases:
            alias = alias.lower()
            if alias == c.name:  # the command's own name in that language
                continue
            if alias in taken or out.get(alias, c.name) != c.name:
                raise ValueError(f"the alias /{alias} of /{c.name} is taken")
            out[alias] = c.name
    return out


@dataclass
class Turn:
    """The handling of one inbound (`App.handle`): what it has produced so far — the messages, a notice,
    the log's outcome — and which of its ids went into the store."""

    inbound: Inbound
    messages: list[Message] = field(default_factory=list)
    notice: Text | None = None
    delete_inbound: bool = False
    outcome: str = "ok"
    about: Chat | None = None  # the group whose game the inbound acted on (its language, for a reader with none)

    seen_stored: bool = False  # its id went into the store with the first move it caused

    @property
    def seen(self) -> tuple[str, str] | None:
        ev = self.inbound.event_id
        return (self.inbound.actor.platform, ev) if ev else None

    @property
    def unsaved_seen(self) -> tuple[str, str] | None:
        """The id for the next save, once (one inbound may cause several moves): the message's where its author
        may edit it (`Inbound.message`: one move per message, however often edited), else the update's."""
        msg = self.inbound.message
        return None if self.seen_stored else (self.inbound.actor.platform, f"m:{msg}") if msg else self.seen


