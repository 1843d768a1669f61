"""Each game's texts in its own folder: the loader merges the shared catalogs with every registered game's and
the club wing's (a key defined twice refuses to start), and tools/split_catalogs.py keeps every entry in its
owner's file — re-runnable after a merge that added keys where they used to be."""

from __future__ import annotations

import shutil
import tomllib
from pathlib import Path

import pytest

from bot.games.registry import PLUGINS
from bot.texts.i18n import Catalogs, DuplicateKey, text_folders
from tools import split_catalogs

ROOT = Path(__file__).resolve().parents[1]


def test_the_shipped_owners_are_the_registered_games_and_the_club() -> None:
    shipped = sorted(str(d) for d in Catalogs().owners)
    assert shipped == sorted(str(d) for d in text_folders(PLUGINS.values()))
    assert sorted(Path(d).parent.name for d in shipped) == sorted([*PLUGINS, "club"])


def test_a_key_defined_twice_refuses_to_load(tmp_path: Path) -> None:
    shared, game = tmp_path / "shared", tmp_path / "game"
    shared.mkdir()
    game.mkdir()
    (shared / "en.toml").write_text('[reply]\nto = "{name}: {text}"\n[nim]\nstarted = "go"\n')
    (game / "en.toml").write_text('[nim]\nstarted = "go"\n')
    with pytest.raises(DuplicateKey, match=r"nim.started is defined twice: in .*shared.*en.toml and in .*game"):
        Catalogs(shared, owners=[game])
    (shared / "en.toml").write_text('[reply]\nto = "{name}: {text}"\n')
    assert Catalogs(shared, owners=[game]).catalogs["en"] == {"reply.to": "{name}: {text}", "nim.started": "go"}


def test_a_game_s_catalog_of_a_language_the_bot_does_not_speak_is_refused(tmp_path: Path) -> None:
    (tmp_path / "en.toml").write_text('[reply]\nto = "x"\n')
    (tmp_path / "game").mkdir()
    (tmp_path / "game" / "xx.toml").write_text('[nim]\nstarted = "go"\n')
    with pytest.raises(RuntimeError, match="'xx'"):
        Catalogs(tmp_path, owners=[tmp_path / "game"])


def test_every_entry_is_in_its_owner_s_file() -> None:
    """The split is done and re-running it moves nothing (a game's key added to a shared file would move)."""
    assert split_catalogs.main(["--check"]) == 0


def _copy(tmp_path: Path) -> tuple[split_catalogs.Owners, dict[str, Path]]:
    owners, folders = split_catalogs.Owners.registered()
    copied = {}
    for owner, folder in folders.items():
        copied[owner] = tmp_path / (owner or "shared")
        shutil.copytree(folder, copied[owner], ignore=shutil.ignore_patterns("*.py", "__pycache__"))
    return owners, copied


def test_keys_added_where_they_used_to_be_move_to_their_owner(tmp_path: Path) -> None:
    """What a branch made before the split does after a merge: a new key in the old table of the shared file, a
    changed text of a moved key (the table coming back with it), a new command's help line, a club key."""
    owners, folders = _copy(tmp_path)
    shared = folders[""] / "en.toml"
    text = shared.read_text().replace("[help.cmd]\n", '[help.cmd]\nkegelmerge = "/kegelmerge — merged."\n')
    shared.write_text(text + '\n[duel]\n# a new text\nbrand_new = "⚔️ {name} is new here."\n'
                      'declined = "{name} said no to the duel."\n\n[cash]\nnew_line = "💶 new"\n')
    moved, texts = split_catalogs.split_language("en", owners, folders)
    assert moved == {folders["duel"] / "en.toml": ["duel.brand_new", "duel.declined"],
                     folders["kegeln"] / "en.toml": ["help.cmd.kegelmerge"],
                     folders["club"] / "en.toml": ["cash.new_line"]}
    for path, text in texts.items():
        path.write_text(text)
    duel = tomllib.loads((folders["duel"] / "en.toml").read_text())["duel"]
    assert duel["brand_new"] == "⚔️ {name} is new here." and duel["declined"] == "{name} said no to the duel."
    assert "# a new text\nbrand_new" in (folders["duel"] / "en.toml").read_text()  # its comment came along
    assert "[duel]" not in shared.read_text() and "[cash]" not in shared.read_text()
    assert "/kegelmerge — merged." in (folders["kegeln"] / "en.toml").read_text()
    assert split_catalogs.split_language("en", owners, folders) == ({}, {})  # once is enough

