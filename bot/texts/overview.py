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
    """Every visible command in menu order: those of a game (a plugin's `commands`) grouped under its name
    (`title`, else `game.<kind>`), the ones before the first game's first, the shared ones after the games."""
    listed = [c for c in commands if not c.hidden]
    owner = {c.name: kind for kind, p in plugins.items() for c in p.commands}
    lines: list[Text] = []
    first_game = next((i for i, c in enumerate(listed) if c.name in owner), len(listed))
    lines += [_line(c) for c in listed[:first_game]]
    for kind, plugin in plugins.items():
        own = [c for c in listed if owner.get(c.name) == kind]
        if own:
            lines.append(Text("help.game", {"game": Text(plugin.title or f"game.{kind}")}))
            lines += [_line(c) for c in own]
    rest = [c for c in listed[first_game:] if c.name not in owner]
    if rest:
        lines.append(Text("help.everyone"))
        lines += [_line(c) for c in rest]
    return Text("help.overview", {"commands": lines, "guess": GUESS})


def _line(command: Command) -> Text:
    return Text("help.line", {"command": command.name, "text": Text(menu_key(command.name))})
