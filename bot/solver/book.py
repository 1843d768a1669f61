"""The solver's files: the opening book, computed once per space by the pure core
(`core.solver.build_book`), cached as JSON in the state folder's `solver-cache/` (bot/process/state.py), rebuilt
when missing or stale; and the shipped trees (`bot/data/solver-trees/`, bot/process/shipped.py): perfect play
(`perfect-<space>.txt.gz`, made by tools/perfect/build.py) and, where no optimum is known, the strong level's tree
(`strong-<space>.txt.gz`, tools/perfect/strong.py), both read into `core.solver.Tree`. File I/O
lives here, in bot/, so core stays pure. A book file that cannot be read or written is not an
error: the book is then simply computed in memory.

`with_solver` is what the App's worker processes run (bot/solver/thinking.py): each
worker keeps its own shared solvers, so their memoised decisions stay warm between requests.
"""

from __future__ import annotations

import gzip
import json
import os
import tempfile
import threading
from collections.abc import Callable, Sequence
from importlib.resources.abc import Traversable
from pathlib import Path
from typing import TYPE_CHECKING, Any, TypeVar

from bot.process.shipped import TREES as SHIPPED_TREES
from core.solver.spaces import Spec

if TYPE_CHECKING:  # numpy and the engine load only where the solver runs: in the worker processes
    from core.solver.coach import Analysis
    from core.solver.perfect import Tree
    from core.solver.strategy import Solver

T = TypeVar("T")
_solvers: dict[tuple[Spec, str | None], Solver] = {}
_lock = threading.Lock()
TREES: Traversable = SHIPPED_TREES
Place = Traversable | str | os.PathLike[str]  # a folder of trees: the shipped one, or a path (tools write there)


def _folder(directory: Place) -> Traversable:
    return Path(directory) if isinstance(directory, str | os.PathLike) else directory


def tree_path(spec: Spec, directory: Place = TREES) -> Traversable:
    return _folder(directory) / f"perfect-{spec.name}.txt.gz"


def openings_path(spec: Spec, directory: Place = TREES) -> Traversable:
    return _folder(directory) / f"openings-{spec.name}.txt.gz"


def strong_tree_path(spec: Spec, directory: Place = TREES) -> Traversable:
    return _folder(directory) / f"strong-{spec.name}.txt.gz"


def load_tree(spec: Spec, directory: Place = TREES) -> Tree | None:
    """The space's shipped perfect-play tree with its openings where it has them, or None when it has
    no tree (a shipped file that does not read as a strategy of the space is an error: the data is
    part of the code)."""
    text = _shipped(tree_path(spec, directory))
    if text is None:
        return None
    from core.solver.perfect import Tree

    return Tree(spec, text, _shipped(openings_path(spec, directory)))


def load_strong_tree(spec: Spec, directory: Place = TREES) -> Tree | None:
    """The space's shipped strong tree (not optimal: `Solver` plays it but never prices with it), or
    None when it has none."""
    text = _shipped(strong_tree_path(spec, directory))
    if text is None:
        return None
    from core.solver.perfect import Tree

    return Tree(spec, text)


def _shipped(path: Traversable) -> str | None:
    """A shipped gzipped text, or None when the space has no such file."""
    return gzip.decompress(path.read_bytes()).decode("ascii") if path.is_file() else None


def book_path(directory: str | os.PathLike[str], spec: Spec) -> Path:
    from core.solver.strategy import BOOK_VERSION

    return Path(directory) / f"book-{spec.name}-v{BOOK_VERSION}.json"


def load_book(directory: str | os.PathLike[str] | None, spec: Spec) -> dict[str, Any]:
    """The cached book, or a freshly built one (written to the cache when a directory is given)."""
    from core.solver.strategy import BOOK_VERSION, build_book

    if directory is not None:
        path = book_path(directory, spec)
        try:
            cached: dict[str, Any] = json.loads(path.read_text(encoding="utf-8"))
            if cached.get("version") == BOOK_VERSION and cached.get("spec") == spec.name:
                return cached
        except (OSError, ValueError):
            pass
    book = build_book(spec)
    if directory is not None:
        try:
            Path(directory).mkdir(parents=True, exist_ok=True)
            fd, tmp = tempfile.mkstemp(dir=directory, suffix=".tmp")
            with os.fdopen(fd, "w", encoding="utf-8") as f:
                json.dump(book, f, indent=1, sort_keys=True)
            os.replace(tmp, book_path(directory, spec))
        except OSError:
            pass
    return book


def solver(spec: Spec, directory: str | os.PathLike[str] | None = None) -> Solver:
    """One shared solver per space (and cache directory) per process; its book is loaded on first use."""
    key = (spec, None if directory is None else str(directory))
    with _lock:
        found = _solvers.get(key)
        if found is None:
            from core.solver.strategy import Solver

            found = _solvers[key] = Solver(spec, load_book(directory, spec), load_tree(spec), load_strong_tree(spec))
        return found


def with_solver(spec: Spec, directory: str | None, fn: Callable[..., T], *args: Any) -> T:
    """`fn(solver, *args)` with this process's shared solver of the space (run in a worker)."""
    return fn(solver(spec, directory), *args)


def analyse(solver: Solver, history: Sequence[tuple[str, int, int]], secret: str | None) -> Analysis:
    """/analyse's coaching (run in a worker): the coach, and numpy with it, load only there."""
    from core.solver.coach import analyse

    return analyse(solver, history, secret)

