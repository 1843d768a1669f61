"""The command menu as Telegram takes it: which names it accepts as commands, and the BotCommand list
the bot sets for each language (https://core.telegram.org/bots/api#botcommand: a command of 1–32
characters of a-z, 0-9 and _, a description of 1–256 characters)."""

from __future__ import annotations

import logging
from collections.abc import Mapping, Sequence

from telegram import Bot, BotCommand, BotCommandScopeAllGroupChats, BotCommandScopeAllPrivateChats
from telegram.error import TelegramError

from adapters.telegram.logsafe import redact
from core.messages import CommandInfo

log = logging.getLogger("adapters.telegram.adapter")  # the adapter's log, as before the move
MAX_DESCRIPTION = 256


def telegram_name(name: str) -> bool:
    """Whether Telegram takes this as a command name: [a-z0-9_]{1,32}, not internal (`_…`)."""
    return 0 < len(name) <= 32 and not name.startswith("_") and name == name.lower() and all(
        c.isascii() and (c.isalnum() or c == "_") for c in name)


def bot_commands(menu: Sequence[CommandInfo]) -> list[BotCommand]:
    """CommandInfo -> BotCommand, dropping what Telegram would refuse (internal names)."""
    out = []
    for info in menu:
        # the menu's language shows the command under its first localised name Telegram accepts
        name = next((n for n in (*info.aliases, info.name) if telegram_name(n)), "")
        if not name:
            continue
        description = (info.description or name).strip()[:MAX_DESCRIPTION] or name
        out.append(BotCommand(name, description))
    return out


async def set_commands(bot: Bot, menus: Mapping[str, Sequence[CommandInfo]], token: str) -> None:
    """One menu per language and scope; English is also the default menu."""
    scopes = (BotCommandScopeAllPrivateChats(), BotCommandScopeAllGroupChats())
    done: set[str | None] = set()
    for lang, menu in menus.items():
        commands = bot_commands(menu)
        if not commands:
            continue
        code = lang.lower().split("-")[0].split("_")[0]
        codes: list[str | None] = [code] + ([None] if code == "en" else [])
        for language_code in codes:
            if language_code in done:
                continue
            done.add(language_code)
            for scope in scopes:
                try:
                    await bot.set_my_commands(commands, scope=scope, language_code=language_code)
                except TelegramError as exc:
                    log.warning("setMyCommands (%s, %s) failed: %s", language_code or "default",
                                scope.type, redact(exc, token))
