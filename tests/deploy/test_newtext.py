"""CI's next version (.ci/image, .ci/newtext.py) changes the English text `cash.head`, the first line of
/kasse: the key must stay a one-line text of the catalog that the cash box's view uses."""

from __future__ import annotations

import runpy
import shutil
from pathlib import Path

from bot.texts.i18n import Catalogs

ROOT = Path(__file__).resolve().parents[2]


def test_the_next_version_text_is_changed_where_kasse_shows_it(tmp_path: Path) -> None:
    shutil.copy(ROOT / "bot" / "club" / "texts" / "en.toml", tmp_path / "en.toml")
    patch = runpy.run_path(str(ROOT / ".ci" / "newtext.py"))["main"]
    assert patch(tmp_path / "en.toml", "cash", "head", "·v2·") == 0
    assert Catalogs(tmp_path, owners=[]).catalogs["en"]["cash.head"].endswith("·v2·")
    assert patch(tmp_path / "en.toml", "cash", "no_such_key", "x") == 1
    sources = "\n".join(p.read_text() for p in (ROOT / "bot" / "club").rglob("*.py"))
    assert '"cash.head"' in sources
