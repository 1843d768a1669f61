"""The texts said otherwise where the bot does not receive plain messages (Telegram's privacy mode):
each variant exists in every language, takes the very parameters of the text it replaces, and is
chosen inside nested texts too."""

from __future__ import annotations

import string

import pytest

from bot.texts.i18n import Catalogs
from bot.texts.render import COMMANDS_ONLY, commands_only
from core.messages import Text

CATALOGS = Catalogs()


def placeholders(entry: object) -> set[str]:
    texts = entry.values() if isinstance(entry, dict) else [entry]
    return {name for t in texts for _, name, _, _ in string.Formatter().parse(str(t)) if name}


@pytest.mark.parametrize("lang", CATALOGS.languages)
@pytest.mark.parametrize(("typed", "unheard"), sorted(COMMANDS_ONLY.items()))
def test_each_variant_takes_the_parameters_of_the_text_it_replaces(lang: str, typed: str, unheard: str) -> None:
    catalog = CATALOGS.catalogs[lang]
    assert placeholders(catalog[unheard]) == placeholders(catalog[typed])
    assert "/guess" in str(catalog[unheard])


def test_the_variant_is_chosen_inside_nested_texts_and_nothing_else_changes() -> None:
    overview = Text("help.overview", {"commands": [], "guess": Text("help.guess_typed")})
    text = Text("help.unknown", {"command": "x", "help": overview})
    said = commands_only(text)
    assert said.key == "help.unknown" and said.params["command"] == "x"
    assert said.params["help"].params["guess"].key == "help.guess_commands"
    assert commands_only(Text("words.guess", {"word": "crane"})) == Text("words.guess", {"word": "crane"})
