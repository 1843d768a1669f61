"""Each game's texts in its own folder: the loader merges the shared catalogs with every registered game's and
the club wing's (a key defined twice refuses to start), and tools/split_catalogs.py keeps every entry in its
owner's file — re-runnable after a merge that added keys where they used to be."""

from __future__ import annotations

import shutil
import subprocess
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
                     folders["club"] / "en.toml": ["help.cmd.kegelmerge", "cash.new_line"]}
    for path, text in texts.items():
        path.write_text(text)
    duel = tomllib.loads((folders["duel"] / "en.toml").read_text())["duel"]
    assert duel["brand_new"] == "⚔️ {name} is new here." and duel["declined"] == "{name} said no to the duel."
    assert "# a new text\nbrand_new" in (folders["duel"] / "en.toml").read_text()  # its comment came along
    assert "[duel]" not in shared.read_text() and "[cash]" not in shared.read_text()
    assert "/kegelmerge — merged." in (folders["club"] / "en.toml").read_text()  # its handler is the club's
    assert split_catalogs.split_language("en", owners, folders) == ({}, {})  # once is enough



def test_after_a_merge_a_moved_table_comes_back_with_the_keys_another_branch_added(tmp_path: Path) -> None:
    """`--after-merge`: the conflict of "this branch moved the table away" against "that branch added a key
    to it" is resolved with both sides' lines, so the split that follows moves the whole table, new key too."""
    def git(*args: str) -> str:
        return subprocess.run(["git", "-c", "user.name=t", "-c", "user.email=t@t", *args], cwd=tmp_path,
                              capture_output=True, text=True).stdout

    shared = tmp_path / "en.toml"
    git("init", "-q", "-b", "main")
    shared.write_text('[reply]\nto = "{name}: {text}"\n\n[duel]\ndeclined = "no"\ncancelled = "gone"\n\n'
                      '[error]\nx = "x"\n')
    git("add", ".")
    git("commit", "-qm", "base")
    git("checkout", "-qb", "other")
    shared.write_text(shared.read_text().replace('cancelled = "gone"\n', 'cancelled = "gone"\nbrand_new = "new"\n'))
    git("commit", "-qam", "a key where it was")
    git("checkout", "-q", "main")
    shared.write_text('[reply]\nto = "{name}: {text}"\n\n[error]\nx = "x"\n')  # the split moved [duel] away
    git("commit", "-qam", "split")
    git("merge", "-q", "other")
    assert "<<<<<<<" in shared.read_text()
    assert split_catalogs.resolve_merge(tmp_path) == [shared]
    merged = tomllib.loads(shared.read_text())
    assert merged["duel"] == {"declined": "no", "cancelled": "gone", "brand_new": "new"} and merged["error"]
    assert git("ls-files", "-u") == ""  # resolved and added
