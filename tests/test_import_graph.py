"""The shape of the code, read from its import statements (every one, also inside functions):
no import cycle between modules; the layers import downwards only (core imports nothing of bot or
adapters, adapters import only core and themselves, bot composes); a game never imports another
game — neither its core package (core/games/<kind>/) nor its bot-side half (bot/games/<kind>.py)."""

from __future__ import annotations

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
LAYERS = ("core", "bot", "adapters")
GAME_KINDS = sorted(p.name for p in (ROOT / "core" / "games").iterdir()
                    if p.is_dir() and (p / "__init__.py").exists())


def module_name(path: Path) -> str:
    parts = list(path.relative_to(ROOT).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


MODULES = {module_name(p): p for layer in LAYERS for p in (ROOT / layer).rglob("*.py")}


def imports(name: str) -> set[str]:
    """The project's modules that module `name` imports (`from a import b` is `a.b` where that is a module)."""
    path = MODULES[name]
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    found: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(), str(path))):
        if isinstance(node, ast.Import):
            found.update(a.name for a in node.names)
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                up = package.split(".")[: len(package.split(".")) - node.level + 1]
                base = ".".join([*up, base] if base else up)
            for a in node.names:
                found.add(f"{base}.{a.name}" if f"{base}.{a.name}" in MODULES else base)
    return {m for m in found if m in MODULES}


GRAPH = {name: imports(name) for name in MODULES}


def layer(name: str) -> str:
    return name.split(".")[0]


def game_of(name: str) -> str | None:
    """The game a module belongs to: core/games/<kind>/… or bot/games/<kind>.py."""
    parts = name.split(".")
    if parts[:2] in (["core", "games"], ["bot", "games"]) and len(parts) > 2 and parts[2] in GAME_KINDS:
        return parts[2]
    return None


def test_the_graph_is_read() -> None:
    assert "bot.app" in GRAPH and "core.games.registry" in GRAPH["bot.services"]
    assert {"practice", "duel", "logik", "words", "kegeln"} <= set(GAME_KINDS)


def test_no_import_cycle() -> None:
    state: dict[str, int] = {}  # 1: on the path, 2: done
    cycles: list[list[str]] = []

    def visit(name: str, path: list[str]) -> None:
        state[name] = 1
        for nxt in sorted(GRAPH[name]):
            if state.get(nxt) == 1:
                cycles.append([*path[path.index(nxt):], nxt])
            elif nxt not in state:
                visit(nxt, [*path, nxt])
        state[name] = 2

    for name in sorted(GRAPH):
        if name not in state:
            visit(name, [name])
    assert cycles == []


def test_layers_import_downwards_only() -> None:
    allowed = {"core": {"core"}, "adapters": {"core", "adapters"}, "bot": {"core", "bot", "adapters"}}
    wrong = [(name, dep) for name, deps in GRAPH.items() for dep in deps if layer(dep) not in allowed[layer(name)]]
    assert wrong == []


def test_only_the_entry_point_composes_adapters() -> None:
    wrong = [(name, dep) for name, deps in GRAPH.items() if layer(name) == "bot" and name != "bot.__main__"
             for dep in deps if layer(dep) == "adapters"]
    assert wrong == []


def test_no_game_imports_another_game() -> None:
    wrong = [(name, dep) for name, deps in GRAPH.items() for dep in deps
             if game_of(name) and game_of(dep) and game_of(dep) != game_of(name)]
    assert wrong == []


def test_the_app_names_no_game() -> None:
    source = (ROOT / "bot" / "app.py").read_text()
    named = [kind for kind in GAME_KINDS if f'"{kind}"' in source or f"games.{kind}" in source
             or f"games import {kind}" in source]
    assert named == []
    assert len(source.splitlines()) < 300
