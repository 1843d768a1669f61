"""`python -m bot --help`: what it promises comes from the repository, not from a hard-coded list."""

from __future__ import annotations

import re

import pytest

from bot.__main__ import parse_args
from bot.texts.i18n import Catalogs


def test_lang_help_lists_every_catalog_language(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit):
        parse_args(["--help"])
    out = " ".join(capsys.readouterr().out.split())  # argparse wraps long help lines
    listed = re.search(r"--lang LANG\s+(.*?)(?:\s--|$)", out)
    assert listed, out
    languages = Catalogs().languages
    assert len(languages) == 5
    for code in languages:
        assert re.search(rf"\b{code}\b", listed.group(1)), (code, listed.group(1))
