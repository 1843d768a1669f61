"""The /help overview, built from the registered commands: each game's commands under the game's name, each with
its one-line help (`cmd.<name>`, the same line the platform menus show), then the shared ones — so a new game
adds nothing to a shared text; its lines come from its own catalog (docs/architecture.md, "Adding a game")."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import TYPE_CHECKING, Any

from core.messages import Text

if TYPE_CHECKING:
    from bot.app.turn import Command

GUESS = Text("help.guess_typed")  # how to guess; said otherwise where the bot cannot read plain messages


def menu_key(command: str) -> str:
    """A command's one line: the platform menus' description, and its line in the overview."""
    return f"cmd.{command}"


def help_key(command: str) -> str:
    """What `/help COMMAND` says about a command."""
    return f"help.cmd.{command}"


def overview(commands: Iterable[Command], plugins: Mapping[str, Any]) -> Text:
    """Every visible command in menu order, short enough for one message on every platform (Discord: 2000
    characters): a line per game — its name and its first command with that command's one line — and its
    other commands by name below; the commands that are no game's by name after the games."""
    listed = [c for c in commands if not c.hidden]
    owner = {c.name: kind for kind, p in plugins.items() for c in p.commands}
    lines: list[Text] = []
    for kind, plugin in plugins.items():
        own = [c for c in listed if owner.get(c.name) == kind]
        if own:
            lines.append(Text("help.game", {"game": Text(plugin.title or f"game.{kind}"), "command": own[0].name,
                                            "text": Text(menu_key(own[0].name))}))
            if own[1:]:
                lines.append(Text("help.also", {"commands": _names(own[1:])}))
    rest = [c for c in listed if c.name not in owner]
    if rest:
        lines.append(Text("help.everyone", {"commands": _names(rest)}))
    return Text("help.overview", {"commands": lines, "guess": GUESS})


def _names(commands: Iterable[Command]) -> str:
    return " ".join(f"/{c.name}" for c in commands)
