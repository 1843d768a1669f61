"""The /help overview (help.text) of every language names every game a command starts."""

from __future__ import annotations

import re

import pytest

from bot.app import GAMES
from bot.commands import COMMANDS
from bot.i18n import Catalogs

CATALOGS = Catalogs()
GAME_COMMANDS = [c.name for c in COMMANDS if c.name in GAMES]  # the commands that start a game


def test_the_game_commands_are_known() -> None:
    assert set(GAME_COMMANDS) == set(GAMES)


@pytest.mark.parametrize("lang", CATALOGS.languages)
def test_overview_names_every_game_command(lang: str) -> None:
    overview = str(CATALOGS.catalogs[lang]["help.text"])
    missing = [name for name in GAME_COMMANDS if not re.search(rf"/{name}\b", overview)]
    assert missing == [], f"{lang} help.text lacks {missing}"
