"""docs/architecture.md's "Adding a game", followed: in a temporary copy of the repository a throw-away game
(nim, made from tests/example_game/ under its own kind) is added by the checklist — its two folders,
core/games/nim/ and bot/games/nim/ with its texts in five languages, and one line in the registry — then
the checks the checklist names are run there and the game is played through `python -m bot`. Outside its
two folders exactly one file changed: bot/games/registry.py."""

from __future__ import annotations

import hashlib
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
EXAMPLE = ROOT / "tests" / "example_game"
KIND = "nim"
FOLDERS = (f"core/games/{KIND}/", f"bot/games/{KIND}/")
CHECKS = ("tests/test_catalogs.py", "tests/test_language_classes.py", "tests/test_import_graph.py",
          "tests/test_help_overview.py")


def tracked(root: Path) -> list[str]:
    """The repository's files as a checkout has them (tracked, and new ones not ignored)."""
    listed = subprocess.run(["git", "ls-files", "-z", "--cached", "--others", "--exclude-standard"], cwd=root,
                            capture_output=True, check=True).stdout.decode()
    return [name for name in listed.split("\0") if name and (root / name).is_file()]


def snapshot(root: Path) -> dict[str, str]:
    return {str(p.relative_to(root)): hashlib.sha256(p.read_bytes()).hexdigest() for p in root.rglob("*")
            if p.is_file() and "__pycache__" not in p.parts and ".pytest_cache" not in p.parts
            and ".mypy_cache" not in p.parts and ".ruff_cache" not in p.parts}


def renamed(text: str) -> str:
    """An example game's file as the throw-away game's: its kind, its modules, its class names."""
    text = text.replace("tests.example_game import rules, storage",
                        f"bot.games.{KIND} import storage\nfrom core.games.{KIND} import rules")
    text = text.replace("from tests.example_game import", f"from bot.games.{KIND} import")
    return re.sub(r"hilo", KIND, text).replace("HigherOrLower", "Nim")


def add_the_game(repo: Path) -> None:
    """The checklist, step by step (docs/architecture.md, "Adding a game")."""
    core, bot = repo / "core" / "games" / KIND, repo / "bot" / "games" / KIND
    # 1–2: the rules and the interface, in the game's core folder
    core.mkdir()
    (core / "rules.py").write_text(renamed((EXAMPLE / "rules.py").read_text()))
    (core / "__init__.py").write_text(f'"""The throw-away game {KIND}."""\n\n'
                                      f'from core.games.{KIND}.rules import GAME\n\n__all__ = ["GAME"]\n')
    # 3: the bot side: the plugin and its storage
    bot.mkdir()
    (bot / "__init__.py").write_text(renamed((EXAMPLE / "plugin.py").read_text()))
    (bot / "storage.py").write_text(renamed((EXAMPLE / "storage.py").read_text()))
    # 4: its texts, five languages
    (bot / "texts").mkdir()
    for catalog in sorted((EXAMPLE / "texts").glob("*.toml")):
        (bot / "texts" / catalog.name).write_text(renamed(catalog.read_text()))
    # 5: the registry line
    registry = repo / "bot" / "games" / "registry.py"
    text = registry.read_text()
    imports = re.search(r"^from bot\.games import (.+)$", text, re.M)
    assert imports is not None
    names = sorted({*imports.group(1).split(", "), KIND})
    text = text.replace(imports.group(0), f"from bot.games import {', '.join(names)}")
    registry.write_text(text + f"register({KIND}.PLUGIN)\n")


def run(repo: Path, *argv: str, stdin: str = "", cwd: Path | None = None) -> subprocess.CompletedProcess[str]:
    env = {k: v for k, v in os.environ.items() if not k.endswith("_TOKEN")}
    env["PYTHONPATH"] = str(repo)  # the copy's modules, not the checkout's
    return subprocess.run([sys.executable, *argv], cwd=cwd or repo, env=env, input=stdin, text=True,
                          capture_output=True, timeout=300)


@pytest.fixture(scope="module")
def copy(tmp_path_factory: pytest.TempPathFactory) -> Path:
    repo = tmp_path_factory.mktemp("add-a-game") / "repo"
    for name in tracked(ROOT):
        (repo / name).parent.mkdir(parents=True, exist_ok=True)
        shutil.copy2(ROOT / name, repo / name)
    return repo


def test_a_new_game_is_two_folders_and_one_registry_line(copy: Path, tmp_path: Path) -> None:
    before = snapshot(copy)
    assert not any(name.startswith(FOLDERS) for name in before)
    add_the_game(copy)
    where = run(copy, "-c", "import bot, core.games.nim; print(bot.__file__)")
    assert where.returncode == 0 and where.stdout.startswith(str(copy)), where  # the copy's code is run

    # 6: the checks the checklist names, in the copy
    checks = run(copy, "-m", "pytest", "-q", "-n", "0", "-p", "no:cacheprovider", *CHECKS)
    assert checks.returncode == 0, checks.stdout[-4000:]
    split = run(copy, "-m", "tools.split_catalogs", "--check")
    assert split.returncode == 0 and "0 entries would move" in split.stdout, split.stdout + split.stderr
    # and played: its command, its texts, its line in /help, in English and German
    for lang, started in (("en", "I think of a number from 1 to 100"), ("de", "Ich denke mir eine Zahl von 1 bis 100")):
        played = run(copy, "-m", "bot", "--db", str(tmp_path / f"{lang}.sqlite3"), "--lang", lang,
                     stdin="ann: /nim\nann: 500\nann: 50\nann: /help\nann: /giveup\n", cwd=tmp_path)
        assert played.returncode == 0 and "Traceback" not in played.stderr, played.stderr[-3000:]
        assert f"ann: {started}" in played.stdout or f"ann, {started}" in played.stdout, played.stdout
        assert "/nim — " in played.stdout and "nim." not in played.stdout.replace("/nim", ""), played.stdout

    after = snapshot(copy)
    touched = sorted(name for name in set(before) | set(after)
                     if before.get(name) != after.get(name) and not name.startswith(FOLDERS))
    assert touched == ["bot/games/registry.py"]
    assert sorted(n for n in after if n.startswith(FOLDERS[1] + "texts/")) == [
        f"{FOLDERS[1]}texts/{lang}.toml" for lang in ("bg", "de", "en", "ru", "sv")]
