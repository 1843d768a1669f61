"""The /help overview is built from the registered commands (bot/texts/overview.py): every visible command with
its one line (`cmd.<name>`) under its game's name, in every language — so a new game adds nothing to a shared
text (the example game's /hilo, registered for a test, is in it with the lines of its own catalog)."""

from __future__ import annotations

import re

import pytest

from bot.games.registry import PLUGINS, commands
from bot.texts.i18n import Catalogs, text_folders
from bot.texts.overview import overview
from core.messages import Text
from tests.example_game import plugin as hilo

CATALOGS = Catalogs()


@pytest.mark.parametrize("lang", CATALOGS.languages)
def test_the_overview_names_every_command_with_its_line(lang: str) -> None:
    shown = CATALOGS.render(overview(commands(), PLUGINS), lang)
    for c in commands():
        line = f"/{c.name} — {CATALOGS.render(Text(f'cmd.{c.name}'), lang)}"
        assert (line in shown) != c.hidden, (lang, c.name)
    for kind, p in PLUGINS.items():  # each game's commands under its name
        assert f"▸ {CATALOGS.render(Text(p.title or f'game.{kind}'), lang)}\n" in shown, (lang, kind)
    assert CATALOGS.render(Text("help.guess_typed"), lang) in shown
    assert "{" not in shown and "help." not in shown and "cmd." not in shown


def test_a_game_s_commands_stand_under_its_name() -> None:
    shown = CATALOGS.render(overview(commands(), PLUGINS), "en")
    kegeln = shown.split("\n▸ Hausnummern\n", 1)[1].split("\n\n", 1)[0]
    assert re.findall(r"^/(\w+)", kegeln, re.M) == [c.name for c in PLUGINS["kegeln"].commands if not c.hidden]
    order = ["/help —", "▸ 1A2B practice", "▸ 1A2B duel", "▸ For every game", "/forgetme —"]
    assert [shown.index(s) for s in order] == sorted(shown.index(s) for s in order)


def test_a_new_game_s_command_is_in_it_from_its_own_catalog(monkeypatch: pytest.MonkeyPatch) -> None:
    """No shared text names /hilo: its line and its game's name come from tests/example_game/texts/."""
    monkeypatch.setitem(PLUGINS, hilo.PLUGIN.kind, hilo.PLUGIN)
    catalogs = Catalogs(owners=text_folders(PLUGINS.values()))
    for lang in catalogs.languages:
        shown = catalogs.render(overview(commands(), PLUGINS), lang)
        line = catalogs.render(Text("cmd.hilo"), lang)
        assert f"\n▸ {catalogs.render(Text('game.hilo'), lang)}\n/hilo — {line}\n" in shown, lang
    assert "hilo" not in "".join(str(v) for cat in CATALOGS.catalogs.values() for v in cat.values())
