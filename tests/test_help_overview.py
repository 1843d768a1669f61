"""The /help overview (help.text) of every language names every game a command starts."""

from __future__ import annotations

import re

import pytest

from bot.games.registry import GAMES
from bot.games.shared import HELP
from bot.texts.commands import COMMANDS
from bot.texts.i18n import Catalogs

CATALOGS = Catalogs()
GAME_COMMANDS = [c.name for c in COMMANDS if c.name in GAMES]  # the commands that start a game


def test_the_game_commands_are_known() -> None:
    assert set(GAME_COMMANDS) == set(GAMES)


@pytest.mark.parametrize("lang", CATALOGS.languages)
def test_overview_names_every_game_command(lang: str) -> None:
    overview = str(CATALOGS.catalogs[lang]["help.text"])
    missing = [name for name in GAME_COMMANDS if not re.search(rf"/{name}\b", overview)]
    assert missing == [], f"{lang} help.text lacks {missing}"


# Commands the overview need not name: /throw is /wurf's English name; the word game's lobby commands
# are named by the lobby itself, where they are used (and in /help join, /help begin, /help leave).
UNNAMED = {"throw", "begin", "join", "leave"}


@pytest.mark.parametrize("lang", CATALOGS.languages)
def test_overview_names_every_other_command(lang: str) -> None:
    """Every command of the menus but those is in the overview, by its name or a localised one
    (/timezone was missing)."""
    overview = CATALOGS.render(HELP, lang)  # as /help renders it (its guessing line filled in)
    missing = [c.name for c in COMMANDS if not c.hidden and c.name not in UNNAMED
               and not any(re.search(rf"/{re.escape(n)}\b", overview) for n in (c.name, *(a for _l, a in c.aliases)))]
    assert missing == [], f"{lang} help.text lacks {missing}"
