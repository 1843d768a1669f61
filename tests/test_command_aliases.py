"""Localised command names (bot/app/turn.py `Command.aliases`): one canonical command, every alias
typed works; platform menus show the first alias their naming rules accept; the stand-ins refuse
names the platforms refuse."""

from __future__ import annotations

import pytest

from adapters.discord.commands import discord_name
from adapters.telegram.menu import bot_commands, telegram_name
from bot.app.turn import Command, command_aliases
from bot.games.registry import commands
from core.messages import CommandInfo
from tests.discord import limits


def test_every_alias_names_its_command_and_hides_none() -> None:
    aliases = command_aliases(commands())
    assert aliases["yearreview"] == aliases["итоги_года"] == aliases["godishen_pregled"] == "jahresrueckblick"
    assert "jahresrueckblick" not in aliases  # the canonical name is no alias of itself
    with pytest.raises(ValueError, match="taken"):
        command_aliases([Command("a", aliases=(("de", "b"),)), Command("b")])
    with pytest.raises(ValueError, match="taken"):
        command_aliases([Command("a", aliases=(("de", "x"),)), Command("b", aliases=(("sv", "x"),))])


def test_every_language_has_a_menu_name_on_both_platforms() -> None:
    (review,) = [c for c in commands() if c.name == "jahresrueckblick"]
    for lang in ("en", "de", "ru", "bg", "sv"):
        names = (*review.names(lang), review.name)
        assert any(telegram_name(n) for n in names) and any(discord_name(n) for n in names), lang
    ru = CommandInfo("jahresrueckblick", "Итоги года", aliases=review.names("ru"))
    assert [c.command for c in bot_commands([ru])] == ["itogi_goda"]  # Telegram: the Latin transliteration
    assert not telegram_name("итоги_года") and discord_name("итоги_года") and not discord_name("Итоги")


def test_the_discord_standin_refuses_what_discord_refuses() -> None:
    good = {"name": "jahresrueckblick", "description": "x", "name_localizations": {"ru": "итоги_года"}}
    assert limits.command_errors([good]) == {}
    for bad in ({**good, "name": "Jahr"}, {**good, "name_localizations": {"xx": "a"}},
                {**good, "name_localizations": {"ru": "итоги года"}}, {**good, "description": ""},
                {**good, "name": "a" * 33}):
        assert limits.command_errors([bad]) != {}, bad
    assert limits.command_errors([good, {**good, "name_localizations": {}}]) != {}  # the same name twice
