"""The /help overview is built from the registered commands (bot/texts/overview.py): each game by its name with its
first command's one line (`cmd.<name>`) and its other commands, then the other commands, in every language and in
one message (Discord: 2000 characters) — so a new game adds nothing to a shared text (the example game's /hilo,
registered for a test, is in it with the lines of its own catalog)."""

from __future__ import annotations

import re

import pytest

from bot.games.registry import PLUGINS, commands
from bot.texts.i18n import Catalogs, text_folders
from bot.texts.overview import overview
from core.messages import Text
from tests.example_game import plugin as hilo

CATALOGS = Catalogs()


def named(shown: str) -> list[str]:
    return re.findall(r"(?<![\w/])/(\w+)\b(?! КОМАНДА| BEFEHL| COMMAND| KOMMANDO)", shown)


@pytest.mark.parametrize("lang", CATALOGS.languages)
def test_the_overview_names_every_command_once_and_each_game_with_its_line(lang: str) -> None:
    shown = CATALOGS.render(overview(commands(), PLUGINS), lang)
    listed = named(shown.split("\n\n")[1])  # the commands' part, between the intro and how to guess
    assert sorted(listed) == sorted(c.name for c in commands() if not c.hidden), lang
    for kind, p in PLUGINS.items():  # each game: its name, its first command and that command's line
        first = p.commands[0].name
        line = f"▸ {CATALOGS.render(Text(p.title or f'game.{kind}'), lang)}: /{first} — "
        assert line + CATALOGS.render(Text(f"cmd.{first}"), lang) + "\n" in shown, (lang, kind)
    assert CATALOGS.render(Text("help.guess_typed"), lang) in shown
    assert "{" not in shown and "help." not in shown and "cmd." not in shown
    assert len(CATALOGS.render(Text("help.unknown", {"command": "x" * 30, "help": overview(commands(), PLUGINS)}),
                               lang)) < 2000


def test_a_game_s_commands_stand_under_its_name() -> None:
    shown = CATALOGS.render(overview(commands(), PLUGINS), "en")
    kegeln = shown.split("▸ Hausnummern: ", 1)[1].split("\n▸ ", 1)[0]
    assert named(kegeln) == [c.name for c in PLUGINS["kegeln"].commands if not c.hidden]
    order = ["▸ 1A2B practice: /practice", "▸ 1A2B duel: /duel", "▸ For every game, and this chat: /help"]
    assert [shown.index(s) for s in order] == sorted(shown.index(s) for s in order)


def test_a_new_game_s_command_is_in_it_from_its_own_catalog(monkeypatch: pytest.MonkeyPatch) -> None:
    """No shared text names /hilo: its line and its game's name come from tests/example_game/texts/."""
    monkeypatch.setitem(PLUGINS, hilo.PLUGIN.kind, hilo.PLUGIN)
    catalogs = Catalogs(owners=text_folders(PLUGINS.values()))
    for lang in catalogs.languages:
        shown = catalogs.render(overview(commands(), PLUGINS), lang)
        game, line = catalogs.render(Text("game.hilo"), lang), catalogs.render(Text("cmd.hilo"), lang)
        assert f"\n▸ {game}: /hilo — {line}\n" in shown, lang
    assert "hilo" not in "".join(str(v) for cat in CATALOGS.catalogs.values() for v in cat.values())
