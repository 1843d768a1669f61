"""The shape of the code, read from the imports (docs: README.md "For developers").

Every module under core/, bot/ and adapters/ is parsed (ast, nothing is imported) and each
`import` anywhere in it — at the top, inside a function, under TYPE_CHECKING — is an edge to the
module it names. On that graph:

- no cycle between modules of any kind, an import under `if TYPE_CHECKING:` included: such an edge is
  never run, but a loop of types is still a loop of meaning (a game's plugin, bot/games/plugin.py, names
  what the App offers it as a protocol there, `Services`, instead of importing bot/app/app.py);
- layers: core/ imports nothing of bot/ or adapters/; an adapter imports only core/, its own
  package (adapters/<platform>/) and the platform-neutral adapters/outbox.py and adapters/editmap.py;
  bot/ imports core/, and adapters/ only in the composition root
  (bot/__main__.py, bot/process/runtime.py);
- games stay apart: a module of one game (anything under core/games/<game>/, or its bot-side half,
  the module bot/games/<game>.py or anything under the package bot/games/<game>/) imports no module
  of another game; the shared pieces (core/games/base.py, challenge.py, actions.py,
  bot/games/plugin.py, registry.py, shared.py, …) are free to use;
- the App (bot/app/app.py) names no game and stays a short story (under 360 lines: the entry and the services
  the handlers get; its move runner is a component of its own, bot/app/runner.py);
- the club is a wing of its own (docs/club.md): nothing under bot/club/ or bot/web/ imports a module of a
  game's bot side (bot/games/<game>/), and nothing under core/club/ a module of a game's core
  (core/games/<game>/); a game reports to the club through bot/club/games.py and core/club/records.py, and
  shows on the TV page through its plugin's `screen` (bot/web/screen.py);
- no game is named outside its own folders and the registry: no module imports a game's modules there
  (a game is reached through its plugin: its traits, its hooks, its solver view `GamePlugin.solver`), and a
  game's kind is written once: no string literal equal to a kind
  outside that game's own folders and the registry (the shared code reads traits on the plugin,
  `GamePlugin.is_rated`, `analysable`, `computer_plays`, or a game's own constant, `GAME.kind`), except the
  named `KIND_LITERALS` below.

The checks are also run on graphs with a forbidden import planted, so they are shown to fail.
"""

from __future__ import annotations

import ast
import functools
from collections.abc import Iterable, Mapping
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
PACKAGES = ("core", "bot", "adapters")
COMPOSITION_ROOT = frozenset({"bot.__main__", "bot.process.runtime"})
# the platform-neutral pieces every adapter may use
SHARED_ADAPTER_MODULES = frozenset({"adapters.outbox", "adapters.editmap", "adapters.logged"})
GAME_KINDS = frozenset(p.name for p in (ROOT / "core" / "games").iterdir()
                       if p.is_dir() and (p / "__init__.py").exists())

Graph = dict[str, set[str]]

# Violations the current code has, each named; the engineer restructuring core/games and bot/app/app.py
# removes them (this test fails once one no longer occurs, so the list cannot go stale).
KNOWN: dict[str, str] = {}

# String literals equal to a game's kind outside its own folders, each named (module, kind) with why it is
# still there; the test fails once one no longer occurs.
KIND_LITERALS: dict[tuple[str, str], str] = {
    # the daily puzzle's variant names, written once as the named constants `Puzzle.COLOURS` and
    # `Puzzle.LETTERS` in its own folder: values stored in its attempts and tables, carried by the play
    # buttons and deep links already posted, and typed as `/daily logik`; they name its puzzles, not the games
    ("core.games.daily.rules", "logik"): "`Puzzle.COLOURS`, the daily's stored variant name",
    ("core.games.daily.rules", "words"): "`Puzzle.LETTERS`, the daily's stored variant name",
}
REGISTRY = "bot.games.registry"


# ---------------------------------------------------------------- reading the graph

def module_name(path: Path, root: Path) -> str:
    parts = list(path.relative_to(root).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def source_modules(root: Path = ROOT) -> dict[str, Path]:
    found: dict[str, Path] = {}
    for package in PACKAGES:
        for path in sorted((root / package).rglob("*.py")):
            found[module_name(path, root)] = path
    return found


def _resolve(name: str, known: Iterable[str]) -> str | None:
    """The project module `name` refers to (itself, or the nearest enclosing module), or None
    for a name outside core/, bot/ and adapters/."""
    if name.split(".")[0] not in PACKAGES:
        return None
    known = set(known)
    parts = name.split(".")
    while parts:
        candidate = ".".join(parts)
        if candidate in known:
            return candidate
        parts.pop()
    return None


def _type_checking(test: ast.expr) -> bool:
    """`if TYPE_CHECKING:` or `if typing.TYPE_CHECKING:`."""
    return (isinstance(test, ast.Name) and test.id == "TYPE_CHECKING") or (
        isinstance(test, ast.Attribute) and test.attr == "TYPE_CHECKING")


def _runtime_nodes(tree: ast.AST) -> Iterable[ast.AST]:
    """Every node of the tree except the bodies of `if TYPE_CHECKING:` (their `else` is run)."""
    todo = [tree]
    while todo:
        node = todo.pop()
        yield node
        if isinstance(node, ast.If) and _type_checking(node.test):
            todo.extend(node.orelse)
            continue
        todo.extend(ast.iter_child_nodes(node))


def imports_of(module: str, path: Path, known: set[str], runtime: bool = False) -> set[str]:
    """The project modules `module` imports anywhere in its source (`runtime`: leaving out those
    imported only under `if TYPE_CHECKING:`)."""
    tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
    package = module if path.name == "__init__.py" else module.rpartition(".")[0]
    named: list[str] = []
    for node in (_runtime_nodes(tree) if runtime else ast.walk(tree)):
        if isinstance(node, ast.Import):
            named += [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            if node.level:  # relative: `from .x import y`, `from .. import y`
                base_parts = package.split(".")
                base_parts = base_parts[:len(base_parts) - (node.level - 1)]
                base = ".".join([*base_parts, *([node.module] if node.module else [])])
            else:
                base = node.module or ""
            for alias in node.names:
                sub = f"{base}.{alias.name}"
                named.append(sub if sub in known else base)  # `from core.games import duel` is duel
    edges = {_resolve(n, known) for n in named}
    return {e for e in edges if e is not None and e != module}


@functools.cache
def _read_graph(root: Path, runtime: bool) -> Graph:
    """The graph of the tree at `root`, read once per test session (the planted checks reuse it)."""
    modules = source_modules(root)
    known = set(modules)
    return {name: imports_of(name, path, known, runtime) for name, path in modules.items()}


def build_graph(root: Path = ROOT, runtime: bool = False) -> Graph:
    """Every module's imports (`runtime`: those that are run, not the ones under TYPE_CHECKING), a
    fresh copy each call (a test may plant an edge in it)."""
    return {name: set(targets) for name, targets in _read_graph(root, runtime).items()}


# ---------------------------------------------------------------- the rules

def cycles(graph: Mapping[str, set[str]]) -> list[list[str]]:
    """One cycle (as a path a → … → a) per strongly connected group of modules (Tarjan)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    groups: list[set[str]] = []

    def visit(v: str) -> None:
        index[v] = low[v] = len(index)
        stack.append(v)
        on_stack.add(v)
        for w in sorted(graph.get(v, ())):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on_stack:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            group = set()
            while True:
                w = stack.pop()
                on_stack.discard(w)
                group.add(w)
                if w == v:
                    break
            if len(group) > 1:
                groups.append(group)

    for v in sorted(graph):
        if v not in index:
            visit(v)
    found = []
    for group in groups:  # walk inside the group from its smallest member back to it
        start = min(group)
        path, seen = [start], {start}
        while True:
            nxt = sorted(w for w in graph[path[-1]] if w in group)
            back = start in nxt
            if back:
                found.append([*path, start])
                break
            step = next((w for w in nxt if w not in seen), None)
            if step is None:  # a dead end inside the group cannot happen; guard anyway
                found.append(sorted(group))
                break
            path.append(step)
            seen.add(step)
    return found


def game_of(module: str, kinds: Iterable[str] = GAME_KINDS) -> str | None:
    """The game a module belongs to (core/games/<kind>/…, bot/games/<kind>.py or bot/games/<kind>/…),
    or None for the shared pieces and the rest."""
    parts = module.split(".")
    if parts[:2] not in (["core", "games"], ["bot", "games"]) or len(parts) < 3:
        return None
    return parts[2] if parts[2] in set(kinds) else None


WINGS = (("bot", "club"), ("bot", "web"), ("core", "club"))  # apart from every game (a game reports to them)


def wing_of(module: str) -> str | None:
    """The wing a module belongs to ("bot/club/", "bot/web/", "core/club/"), or None."""
    parts = tuple(module.split(".")[:2])
    return "/".join(parts) + "/" if parts in WINGS else None


def layer_violations(graph: Mapping[str, set[str]], kinds: Iterable[str] = GAME_KINDS) -> dict[str, str]:
    """Every forbidden edge "a -> b", with the rule it breaks."""
    bad: dict[str, str] = {}
    for src, targets in graph.items():
        top = src.split(".")[0]
        for dst in targets:
            dst_top = dst.split(".")[0]
            edge = f"{src} -> {dst}"
            if top == "core" and dst_top != "core":
                bad[edge] = "core imports nothing of bot/ or adapters/"
            elif top == "adapters":
                own = src.split(".")[:2]
                if dst_top == "bot" or (dst_top == "adapters" and dst.split(".")[:2] != own
                                        and dst != "adapters" and dst not in SHARED_ADAPTER_MODULES):
                    bad[edge] = "an adapter imports only core/ and its own package"
            elif top == "bot" and dst_top == "adapters" and src not in COMPOSITION_ROOT:
                bad[edge] = "bot/ imports adapters/ only in bot/__main__.py and bot/process/runtime.py"
            if (other_wing := wing_of(src)) and game_of(dst, kinds) is not None:
                bad[edge] = f"{other_wing} imports no game's module (a game reports to the club)"
            game, other = game_of(src, kinds), game_of(dst, kinds)
            if game is not None and other is not None and game != other:
                bad[edge] = f"the game {game} imports a module of the game {other}"
    return bad


def problems(graph: Mapping[str, set[str]], kinds: Iterable[str] = GAME_KINDS) -> dict[str, str]:
    """The forbidden edges of `graph` and its cycles (type-only imports included)."""
    found = layer_violations(graph, kinds)
    for cycle in cycles(graph):
        found[" -> ".join(cycle)] = "an import cycle"
    return found


def kind_literals(root: Path = ROOT, kinds: Iterable[str] = GAME_KINDS) -> set[tuple[str, str]]:
    """(module, kind) for every string literal equal to a game's kind in a module that is neither that
    game's nor the registry's (a kind belongs in its own folders; elsewhere a trait or `GAME.kind`)."""
    kinds = set(kinds)
    found = set()
    for name, path in source_modules(root).items():
        if name == REGISTRY:
            continue
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"), filename=str(path))):
            if (isinstance(node, ast.Constant) and isinstance(node.value, str) and node.value in kinds
                    and game_of(name, kinds) != node.value):
                found.add((name, node.value))
    return found


def game_imports(graph: Mapping[str, set[str]], kinds: Iterable[str] = GAME_KINDS) -> set[tuple[str, str]]:
    """(module, game) for every import of a game's module by a module that is neither that game's nor the
    registry's (a game is reached through its plugin, `PLUGINS`, or the traits on it)."""
    kinds = set(kinds)
    return {(src, game) for src, targets in graph.items() if src != REGISTRY for dst in targets
            if (game := game_of(dst, kinds)) is not None and game_of(src, kinds) != game}


# ---------------------------------------------------------------- the tests

def test_the_graph_is_read() -> None:
    graph = build_graph()
    assert len(graph) > 40
    assert {"practice", "duel", "logik", "words", "kegeln"} <= GAME_KINDS
    assert "core.games.challenge" in graph["core.games.duel.rules"]
    assert "bot.games.duel" in graph[REGISTRY]  # `from bot.games import daily, duel, …`
    assert "adapters.discord.inbound" in graph["adapters.discord.commands"]  # `from .inbound import …`
    assert "adapters.console" in graph["bot.__main__"]  # an import inside a function counts too


def test_the_code_keeps_its_shape() -> None:
    found = problems(build_graph())
    unexpected = {edge: rule for edge, rule in found.items() if edge not in KNOWN}
    assert unexpected == {}, "forbidden imports:\n" + "\n".join(f"  {e}  ({r})" for e, r in sorted(unexpected.items()))
    gone = sorted(set(KNOWN) - set(found))
    assert gone == [], f"fixed, so remove from KNOWN: {gone}"


# Each rule on the real graph with one forbidden import planted: the check must name it.
def _planted(src: str, dst: str) -> dict[str, str]:
    graph = build_graph()
    assert src in graph and dst in graph
    graph[src] = graph[src] | {dst}
    return problems(graph)


def test_a_planted_core_to_bot_import_fails() -> None:
    assert "core.codes -> bot.app.app" in _planted("core.codes", "bot.app.app")
    assert "core.messages -> adapters.console.adapter" in _planted("core.messages", "adapters.console.adapter")


def test_a_planted_adapter_import_of_bot_or_another_adapter_fails() -> None:
    assert "adapters.telegram.render -> bot.texts.i18n" in _planted("adapters.telegram.render", "bot.texts.i18n")
    assert "adapters.discord.render -> adapters.telegram.render" in _planted(
        "adapters.discord.render", "adapters.telegram.render")


def test_bot_imports_adapters_only_in_the_composition_root() -> None:
    console = "adapters.console.adapter"
    assert f"bot.texts.overview -> {console}" in _planted("bot.texts.overview", console)
    assert f"bot.process.runtime -> {console}" not in _planted("bot.process.runtime", console)


def test_a_planted_import_between_games_fails() -> None:
    assert "core.games.words -> core.games.kegeln" in _planted("core.games.words", "core.games.kegeln")
    assert "core.games.logik.picture -> core.games.duel.rules" in _planted("core.games.logik.picture",
                                                                           "core.games.duel.rules")
    assert "bot.games.words -> bot.games.kegeln" in _planted("bot.games.words", "bot.games.kegeln")
    assert "bot.games.words -> bot.games.registry" not in _planted("bot.games.words", "bot.games.registry")
    # the shared pieces, and a game's own parts, are allowed
    assert "core.games.words -> core.games.challenge" not in _planted("core.games.words", "core.games.challenge")
    own = _planted("core.games.logik.presenter", "core.games.logik.picture")
    assert "core.games.logik.presenter -> core.games.logik.picture" not in own


def test_the_club_and_the_tv_page_import_no_game() -> None:
    """The club's wing and the TV page know no game: a planted import of Kegeln's bot or core side is named."""
    rule = "imports no game's module (a game reports to the club)"
    assert _planted("bot.club.records", "bot.games.kegeln.play")["bot.club.records -> bot.games.kegeln.play"] \
        == f"bot/club/ {rule}"
    assert _planted("bot.web.view", "bot.games.kegeln")["bot.web.view -> bot.games.kegeln"] == f"bot/web/ {rule}"
    assert _planted("core.club.season", "core.games.kegeln.state")[
        "core.club.season -> core.games.kegeln.state"] == f"core/club/ {rule}"
    assert "bot.club.cash.fines -> core.games.kegeln.state" in _planted("bot.club.cash.fines",
                                                                         "core.games.kegeln.state")
    # the other way is the allowed one: a game reports to the club
    assert "bot.games.kegeln.play -> bot.club.games" not in _planted("bot.games.kegeln.play", "bot.club.games")


def test_a_planted_cycle_fails() -> None:
    found = _planted("core.games.base", "core.games.duel")  # duel imports base
    assert any(rule == "an import cycle" and "core.games.base" in edge and "core.games.duel" in edge
               for edge, rule in found.items())


def test_forbidden_imports_are_found_in_source(tmp_path: Path) -> None:
    """The reading end: a relative import, a lazy import in a function and a cycle, in real files."""
    for package in PACKAGES:
        (tmp_path / package).mkdir()
        (tmp_path / package / "__init__.py").write_text("")
    (tmp_path / "core" / "games").mkdir()
    (tmp_path / "core" / "games" / "__init__.py").write_text("")
    (tmp_path / "core" / "games" / "duel.py").write_text("from . import words\n")
    (tmp_path / "core" / "games" / "words.py").write_text("def f():\n    from core.games.duel import x\n")
    (tmp_path / "core" / "a.py").write_text("from bot import app\n")
    (tmp_path / "bot" / "app.py").write_text("import adapters.x.y\n")
    (tmp_path / "adapters" / "x").mkdir()
    (tmp_path / "adapters" / "x" / "__init__.py").write_text("")
    (tmp_path / "adapters" / "x" / "y.py").write_text("from ..z import w\n")
    (tmp_path / "adapters" / "z.py").write_text("")
    found = problems(build_graph(tmp_path), kinds={"duel", "words"})
    assert found == {
        "core.a -> bot.app": "core imports nothing of bot/ or adapters/",
        "bot.app -> adapters.x.y": "bot/ imports adapters/ only in bot/__main__.py and bot/process/runtime.py",
        "adapters.x.y -> adapters.z": "an adapter imports only core/ and its own package",
        "core.games.duel -> core.games.words": "the game duel imports a module of the game words",
        "core.games.words -> core.games.duel": "the game words imports a module of the game duel",
        "core.games.duel -> core.games.words -> core.games.duel": "an import cycle",
    }


def test_the_app_names_no_game() -> None:
    source = (ROOT / "bot" / "app" / "app.py").read_text(encoding="utf-8")
    named = [kind for kind in sorted(GAME_KINDS) if f'"{kind}"' in source or f"games.{kind}" in source
             or f"games import {kind}" in source]
    assert named == []
    assert len(source.splitlines()) < 360


def test_a_game_s_bot_side_package_is_that_game(tmp_path: Path) -> None:
    """bot/games/<kind>.py and the package bot/games/<kind>/ are alike: a module inside the package is
    the game's, and may not import another game's; a cycle is one, run or type-only."""
    for package in ("core", "bot", "bot/games", "bot/games/duel", "adapters"):
        (tmp_path / package).mkdir()
        (tmp_path / package / "__init__.py").write_text("")
    (tmp_path / "bot" / "games" / "words.py").write_text("")
    (tmp_path / "bot" / "games" / "plugin.py").write_text(
        "from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n    from bot.app.services import S\n")
    (tmp_path / "bot" / "app").mkdir()
    (tmp_path / "bot" / "app" / "__init__.py").write_text("")
    (tmp_path / "bot" / "app" / "services.py").write_text("from bot.games.plugin import P\n")
    (tmp_path / "bot" / "games" / "duel" / "storage.py").write_text("from bot.games import words, plugin\n")
    (tmp_path / "bot" / "games" / "duel" / "stats.py").write_text(
        "from bot.games.duel import storage\nif TYPE_CHECKING:\n    pass\nelse:\n    from bot.games.duel import x\n")
    (tmp_path / "bot" / "games" / "duel" / "x.py").write_text("from bot.games.duel import stats\n")
    kinds = {"duel", "words"}
    found = problems(build_graph(tmp_path), kinds)
    assert found == {
        "bot.games.duel.storage -> bot.games.words": "the game duel imports a module of the game words",
        "bot.games.duel.stats -> bot.games.duel.x -> bot.games.duel.stats": "an import cycle",
        "bot.app.services -> bot.games.plugin -> bot.app.services": "an import cycle",  # type-only, still a loop
    }
    assert "bot.app.services" not in build_graph(tmp_path, runtime=True)["bot.games.plugin"]  # it is type-only


def test_a_planted_type_only_cycle_fails() -> None:
    """The loop issue 38 found (bot/games/plugin.py naming the services, which import it, for its hooks' types) is
    caught: planted as the plugin naming the move runner."""
    found = _planted("bot.games.plugin", "bot.app.runner")
    assert any(rule == "an import cycle" and "bot.games.plugin" in edge and "bot.app.runner" in edge
               for edge, rule in found.items())


def test_a_game_s_kind_is_written_in_its_own_folders_only() -> None:
    found = kind_literals()
    unexpected = sorted(found - set(KIND_LITERALS))
    assert unexpected == [], f"a game's kind written outside its folders (use a trait or GAME.kind): {unexpected}"
    gone = sorted(set(KIND_LITERALS) - found)
    assert gone == [], f"no longer there, so remove from KIND_LITERALS: {gone}"


def test_a_kind_written_outside_its_game_is_found(tmp_path: Path) -> None:
    for package in ("core", "bot", "bot/games", "bot/games/duel", "adapters"):
        (tmp_path / package).mkdir()
        (tmp_path / package / "__init__.py").write_text("")
    (tmp_path / "bot" / "games" / "shared.py").write_text('RATED = ("duel", "words")\n')
    (tmp_path / "bot" / "games" / "duel" / "play.py").write_text('KIND = "duel"\nNOTE = "duel.key"\n')
    (tmp_path / "bot" / "games" / "words.py").write_text('X = "words"\nY = "duel"\n')
    (tmp_path / "bot" / "games" / "registry.py").write_text('ORDER = ("duel", "words")\n')
    assert kind_literals(tmp_path, {"duel", "words"}) == {
        ("bot.games.shared", "duel"), ("bot.games.shared", "words"), ("bot.games.words", "duel")}


def test_a_game_is_imported_in_its_own_folders_and_the_registry_only() -> None:
    """No exception: the shared code reaches a game through its plugin (its traits, hooks and solver view)."""
    found = sorted(game_imports(build_graph()))
    assert found == [], f"a game's module imported outside its folders and the registry: {found}"


def test_a_planted_import_of_a_game_is_found() -> None:
    graph = build_graph()
    graph["bot.app.app"] = graph["bot.app.app"] | {"bot.games.logik.stats"}
    graph["bot.games.logik"] = graph["bot.games.logik"] | {"core.games.logik.rules"}  # its own: fine
    found = game_imports(graph)
    assert ("bot.app.app", "logik") in found and ("bot.games.logik", "logik") not in found
    assert not any(src == REGISTRY for src, _ in found)
