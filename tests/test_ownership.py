"""Who owns what in bot/, read from the source (ast, nothing imported; issue 38):

- each cache, and anything else a class keeps private (`self._x`, `def _x`), has one owner: no module of bot/
  reaches into a private attribute that a class of another module of bot/ defines (`svc._focus`) — it asks the
  owner by a method (bot/app/memory.py `PrivateInputs`, `Known`; the move runner's locks);
- no re-exports in the App's package: nobody imports a name from a module of bot/app/ that only imports it
  (the names live where they are defined: `Turn` in bot/app/turn.py, `Move` in move_types.py, `Services` in
  bot/games/plugin.py), and bot/app/services.py, the old re-exporting base class, is gone;
- one way to save a move: only the move runner (bot/app/runner.py) stores a game's move or a new game
  (`save_game`, `create_game`), so every way a game moves or ends goes through its one entry.

Each check is also run on a small planted tree, so it is shown to fail."""

from __future__ import annotations

import ast
from pathlib import Path

from tests.test_import_graph import ROOT, module_name

APP_PACKAGE = "bot.app."
SAVES = frozenset({"save_game", "create_game"})
SAVER = "bot.app.runner"  # the one module outside bot/storage/ that stores moves


def bot_modules(root: Path = ROOT) -> dict[str, ast.Module]:
    return {module_name(p, root): ast.parse(p.read_text(encoding="utf-8"), filename=str(p))
            for p in sorted((root / "bot").rglob("*.py"))}


def _private(name: str) -> bool:
    return name.startswith("_") and not name.startswith("__")


def private_members(tree: ast.Module) -> set[str]:
    """The private names the module's classes define: methods, class attributes, `self._x = …`."""
    found: set[str] = set()
    for cls in (n for n in ast.walk(tree) if isinstance(n, ast.ClassDef)):
        for node in ast.walk(cls):
            if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef) and _private(node.name):
                found.add(node.name)
            elif isinstance(node, ast.AnnAssign | ast.Assign):
                targets = [node.target] if isinstance(node, ast.AnnAssign) else node.targets
                for t in targets:
                    if isinstance(t, ast.Name) and _private(t.id):
                        found.add(t.id)
                    elif (isinstance(t, ast.Attribute) and _private(t.attr) and isinstance(t.value, ast.Name)
                          and t.value.id == "self"):
                        found.add(t.attr)
    return found


def reached_into(modules: dict[str, ast.Module]) -> set[tuple[str, str]]:
    """(module, name) for every `x._name` (x not self or cls) naming a private member that a class of
    another module defines and no class of this module does."""
    own = {m: private_members(tree) for m, tree in modules.items()}
    found = set()
    for m, tree in modules.items():
        others = set().union(*(names for other, names in own.items() if other != m))
        for node in ast.walk(tree):
            if (isinstance(node, ast.Attribute) and _private(node.attr) and node.attr in others
                    and node.attr not in own[m]
                    and not (isinstance(node.value, ast.Name) and node.value.id in ("self", "cls"))):
                found.add((m, node.attr))
    return found


def defined_names(tree: ast.Module) -> set[str]:
    """The names a module defines at its top level (in its `if` and `try` blocks too), not those it imports."""
    found: set[str] = set()

    def walk(body: list[ast.stmt]) -> None:
        for n in body:
            if isinstance(n, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef):
                found.add(n.name)
            elif isinstance(n, ast.Assign):
                found.update(x.id for t in n.targets for x in ast.walk(t) if isinstance(x, ast.Name))
            elif isinstance(n, ast.AnnAssign | ast.AugAssign) and isinstance(n.target, ast.Name):
                found.add(n.target.id)
            elif isinstance(n, ast.If):
                walk(n.body)
                walk(n.orelse)
            elif isinstance(n, ast.Try):
                walk(n.body)
                walk(n.orelse)
                walk(n.finalbody)
    walk(tree.body)
    return found


def through_reexports(root: Path = ROOT) -> set[tuple[str, str, str]]:
    """(importer, module of bot/app/, name) for every `from bot.app.x import name` of a name bot.app.x does
    not define (it only imports it), in bot/, adapters/, tests/ and bench/."""
    app_modules = {module_name(p, root): p for p in (root / "bot" / "app").rglob("*.py")}
    defined = {m: defined_names(ast.parse(p.read_text(encoding="utf-8"))) for m, p in app_modules.items()}
    found = set()
    for folder in ("bot", "adapters", "tests", "bench"):
        for path in sorted((root / folder).rglob("*.py")):
            for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"), filename=str(path))):
                if not (isinstance(node, ast.ImportFrom) and node.module and node.module.startswith(APP_PACKAGE)):
                    continue
                for alias in node.names:
                    if f"{node.module}.{alias.name}" in app_modules:  # a submodule
                        continue
                    if node.module not in defined or alias.name not in defined[node.module]:
                        found.add((module_name(path, root), node.module, alias.name))
    return found


def saving_calls(modules: dict[str, ast.Module]) -> set[tuple[str, str]]:
    """(module, method) for every call of `….save_game(…)` or `….create_game(…)` outside bot/storage/."""
    return {(m, node.func.attr) for m, tree in modules.items() if not m.startswith("bot.storage")
            for node in ast.walk(tree)
            if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr in SAVES}


# ---------------------------------------------------------------- the tests

def test_no_module_reaches_into_another_s_private_attributes() -> None:
    assert reached_into(bot_modules()) == set()


def test_a_private_attribute_reached_from_another_module_is_found(tmp_path: Path) -> None:
    (tmp_path / "bot").mkdir()
    (tmp_path / "bot" / "owner.py").write_text(
        "class Owner:\n    def __init__(self):\n        self._cache = {}\n    def _helper(self):\n"
        "        return self._cache\n")
    (tmp_path / "bot" / "user.py").write_text(
        "def f(o, row):\n    o._cache.pop(1)\n    o._helper()\n    return row._replace(x=1)\n")
    (tmp_path / "bot" / "own.py").write_text(
        "class Own:\n    def __init__(self):\n        self._cache = 1\n    def same(self, other):\n"
        "        return other._cache\n")
    assert reached_into(bot_modules(tmp_path)) == {("bot.user", "_cache"), ("bot.user", "_helper")}


def test_nothing_is_imported_through_a_module_that_only_imports_it() -> None:
    assert not (ROOT / "bot" / "app" / "services.py").exists()
    assert through_reexports() == set()


def test_a_name_imported_through_a_re_export_is_found(tmp_path: Path) -> None:
    (tmp_path / "bot" / "app").mkdir(parents=True)
    (tmp_path / "bot" / "app" / "__init__.py").write_text("")
    (tmp_path / "bot" / "app" / "turn.py").write_text("class Turn:\n    pass\n")
    (tmp_path / "bot" / "app" / "services.py").write_text("from bot.app.turn import Turn\nX = 1\n")
    (tmp_path / "bench").mkdir()
    (tmp_path / "bench" / "b.py").write_text("from bot.app.services import Turn, X\nfrom bot.app import turn\n")
    assert through_reexports(tmp_path) == {("bench.b", "bot.app.services", "Turn")}


def test_only_the_move_runner_saves_a_move() -> None:
    assert saving_calls(bot_modules()) == {(SAVER, "save_game"), (SAVER, "create_game")}


def test_a_move_saved_outside_the_runner_is_found(tmp_path: Path) -> None:
    (tmp_path / "bot" / "app").mkdir(parents=True)
    (tmp_path / "bot" / "app" / "sweep.py").write_text("async def f(svc, row):\n    await svc.store.save_game(row)\n")
    assert saving_calls(bot_modules(tmp_path)) == {("bot.app.sweep", "save_game")}


def test_every_package_of_bot_says_what_it_holds_and_the_architecture_names_it() -> None:
    """Each package's first line says what it holds (a docstring), and docs/architecture.md's layout of bot/
    names every package (bot/data/, the shipped data, is a folder without code)."""
    packages = sorted(p.parent for p in (ROOT / "bot").rglob("__init__.py")
                      if p.parent.parent == ROOT / "bot" or p.parent == ROOT / "bot")
    silent = [str(p.relative_to(ROOT)) for p in packages
              if not ast.get_docstring(ast.parse((p / "__init__.py").read_text(encoding="utf-8")))]
    assert silent == []
    layout = (ROOT / "docs" / "architecture.md").read_text(encoding="utf-8").split("## The layout of bot/")[1]
    layout = layout.split("\n## ")[0]
    folders = [p.name for p in (ROOT / "bot").iterdir() if p.is_dir() and p.name != "__pycache__"]
    assert [f for f in sorted(folders) if f"`bot/{f}/`" not in layout] == []
