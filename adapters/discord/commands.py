"""The slash command tree, built from the App's neutral command menus.

The App owns the command list (`CommandInfo` per language); this module turns
it into discord.py app commands with typed options and localised
descriptions, so nothing Discord-specific leaks into the App and a new command
in the menu becomes a slash command on the next `sync_commands`.
"""

from __future__ import annotations

import inspect
import logging
import re
from collections.abc import Awaitable, Callable, Coroutine, Mapping, Sequence
from typing import Any

import discord
from discord import app_commands
from discord.app_commands import locale_str

from core.messages import CommandInfo

from .inbound import lang_of, option_args

log = logging.getLogger(__name__)

# Option names with a Discord type; every other option is free text.
USER_OPTIONS = frozenset({"opponent", "player", "user", "member"})
FLAG_OPTIONS = frozenset({"repeats"})
LANG_COMMAND = "lang"

_NAME_RE = re.compile(r"^[-_\w]{1,32}$")

CommandCallback = Callable[[discord.Interaction, str, tuple[str, ...]], Awaitable[None]]


def option_annotation(name: str) -> Any:
    """The Python annotation discord.py turns into the option's Discord type."""
    if name in USER_OPTIONS:
        return discord.User
    if name in FLAG_OPTIONS:
        return bool
    return app_commands.Range[str, 1, 100]


def _clip(text: str, limit: int = 100) -> str:
    text = " ".join(text.split()) or "…"
    return text if len(text) <= limit else text[: limit - 1] + "…"


def discord_name(name: str) -> bool:
    """Whether Discord takes this as a command name: 1–32 lowercase letters (any script), digits, - or _."""
    return bool(_NAME_RE.match(name)) and name == name.lower()


def _option_name(name: str) -> str | None:
    name = name.strip().lower()
    return name if _NAME_RE.match(name) else None


class MenuTranslator(app_commands.Translator):
    """Localises command descriptions from the App's per-language menus.

    Discord asks per Discord locale (de, sv-SE, en-GB, …); we answer with the
    menu of the matching bot language, or None to keep the English default.
    """

    def __init__(self, menus: Mapping[str, Sequence[CommandInfo]]) -> None:
        self._text: dict[tuple[str, str], str] = {}
        self._options: dict[tuple[str, str, str], str] = {}
        self._names: dict[tuple[str, str], str] = {}  # the command's localised name (name_localizations)
        for lang, menu in menus.items():
            for info in menu:
                self._text[(lang.lower(), info.name)] = _clip(info.description)
                local = next((n for n in info.aliases if discord_name(n)), None)
                if local is not None:
                    self._names[(lang.lower(), info.name)] = local
                for opt, text in info.option_descriptions.items():
                    self._options[(lang.lower(), info.name, opt)] = _clip(text)

    async def translate(
        self,
        string: locale_str,
        locale: discord.Locale,
        context: app_commands.TranslationContextTypes,
    ) -> str | None:
        command = string.extras.get("command")
        kind = string.extras.get("kind")
        lang = lang_of(locale)
        if command is None or lang is None:
            return None
        if kind == "name":  # English too: en-US and en-GB get the English alias
            local = self._names.get((lang, command))
            return local if local and local != string.message else None
        if lang == "en":
            return None
        if kind == "description":
            found = self._text.get((lang, command))
        elif kind == "option":
            found = self._options.get((lang, command, string.extras.get("option", "")))
        else:
            return None
        return found if found and found != string.message else None


def _opponent_value(interaction: discord.Interaction, value: Any) -> Any:
    """A bot account picked in a user option: this bot means a game against the computer ("bot");
    any other bot stays a mention, and `picked_bots` tells the App it is a bot (bots cannot play)."""
    if not isinstance(value, discord.abc.User) or not value.bot:
        return value
    me = interaction.client.user
    if me is not None and value.id == me.id:
        return "bot"
    return value


def picked_bots(interaction: discord.Interaction) -> tuple[str, ...]:
    """The other bot accounts picked in a slash command's user options (`Inbound.bots`)."""
    me = interaction.client.user
    return tuple(str(v.id) for _, v in interaction.namespace
                 if isinstance(v, discord.abc.User) and v.bot and (me is None or v.id != me.id))


def picked_names(interaction: discord.Interaction) -> tuple[tuple[str, str], ...]:
    """The users picked in a slash command's user options, named as Discord resolved them in this very
    interaction (`Inbound.named`: the member's server nickname where there is one, else their name)."""
    return tuple((str(v.id), v.display_name) for _, v in interaction.namespace if isinstance(v, discord.abc.User))


def _make_callback(
    name: str, options: Sequence[str], run: CommandCallback
) -> Callable[..., Coroutine[Any, Any, None]]:
    """A callback whose signature declares the options, as discord.py reads them."""

    async def callback(interaction: discord.Interaction, **values: Any) -> None:
        values = {k: _opponent_value(interaction, v) for k, v in values.items()}
        await run(interaction, name, option_args(options, values))

    params = [
        inspect.Parameter(
            "interaction", inspect.Parameter.POSITIONAL_OR_KEYWORD, annotation=discord.Interaction
        )
    ]
    params += [
        inspect.Parameter(
            opt,
            inspect.Parameter.KEYWORD_ONLY,
            annotation=option_annotation(opt) | None,
            default=None,
        )
        for opt in options
    ]
    callback.__signature__ = inspect.Signature(params)  # type: ignore[attr-defined]
    callback.__name__ = f"cmd_{name}"
    callback.__qualname__ = f"cmd_{name}"
    return callback


def build_commands(
    menus: Mapping[str, Sequence[CommandInfo]], run: CommandCallback
) -> list[app_commands.Command[Any, ..., Any]]:
    """One app command per canonical command in the English menu."""
    built: list[app_commands.Command[Any, ..., Any]] = []
    for info in menus.get("en", ()):
        name = _option_name(info.name)
        if name is None:
            log.warning("skipping command with a name Discord refuses: %r", info.name)
            continue
        # in the menu's order, which is the arguments' (`bot` and `game` lead: `/stats logik [player]`)
        options = [o for o in (_option_name(x) for x in info.options) if o]
        description = _clip(info.description)
        callback = _make_callback(name, options, run)
        command: app_commands.Command[Any, ..., Any] = app_commands.Command(
            name=locale_str(name, command=name, kind="name"),
            description=locale_str(description, command=name, kind="description"),
            callback=callback,
        )
        if info.group_only:  # a command that works only in a server channel is not offered in DMs
            command.guild_only = True  # synced as dm_permission false and contexts [guild]
            command.allowed_contexts = app_commands.AppCommandContext(guild=True, dm_channel=False,
                                                                      private_channel=False)
        for opt in options:
            param = command._params[opt]
            param.description = locale_str(_clip(info.option_descriptions.get(opt) or opt), command=name,
                                           kind="option", option=opt)
            if param.type is not discord.AppCommandOptionType.string:
                continue
            # fixed values as choices (still sent as the plain text): the App says which, e.g. the
            # code lengths; /lang offers the bot's languages
            values = info.choices.get(opt) or (tuple(sorted(menus)) if name == LANG_COMMAND else ())
            if values:
                choices: list[app_commands.Choice[str | int | float]] = [
                    app_commands.Choice(name=v, value=v) for v in values[:25]]
                param.choices = choices
                param.min_value = param.max_value = None
        built.append(command)
    return built
