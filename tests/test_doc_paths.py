"""The docs name only files that exist: every path in backticks or in a Markdown link in README.md and
docs/*.md (so a moved or deleted file cannot stay cited)."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
DOCS = [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]
TOP = {p.name for p in ROOT.iterdir() if not p.name.startswith(".")}
EXTENSIONS = (".py", ".md", ".toml", ".json", ".txt", ".yml", ".yaml", ".sh", ".cfg", ".ini", ".service")
SKIP_DIRS = {".venv", ".git", "node_modules", "__pycache__"}
# Files the bot writes at run time (the database and its health status, bot/process/ops.py), never in the repository.
RUNTIME = {"data/bot.sqlite3", "data/bot.health.json", "data/boards/", "data/solver-cache/"}  # made at run time
ALL_NAMES = {p.name for p in ROOT.rglob("*") if not SKIP_DIRS & set(p.relative_to(ROOT).parts)}


def references(text: str) -> set[str]:
    """Paths in backticks (`bot/app/app.py`, `docs/rules.md`, `engine.py`) and Markdown link targets."""
    found = set()
    for token in re.findall(r"`([^`\s]+)`", text):
        token = token.rstrip(".,:;")
        if re.search(r"[<>{}*$()]|://", token) or token.startswith(("/", "-")):
            continue  # a pattern, a URL, a command or an option — not a file of the repository
        head = token.split("/")[0]
        if ("/" in token and head in TOP) or (token.endswith(EXTENSIONS) and re.fullmatch(r"[\w./-]+", token)):
            found.add(token)
    for name in re.findall(r"(?<![\w./:-])([\w./-]*\w\.md)\b", text):  # any Markdown file named, even in prose
        found.add(name)
    for target in re.findall(r"\]\(([^)\s#]+)(?:#[^)]*)?\)", text):
        if "://" not in target and not target.startswith("mailto:"):
            found.add(target)
    return found


def exists(ref: str, doc: Path) -> bool:
    if ref.startswith("/"):
        return False  # outside the repository (e.g. /work/shared/…)
    if ref in RUNTIME:
        return (ROOT / ref).parent.is_dir()
    if "/" not in ref.rstrip("/"):
        return ref.rstrip("/") in ALL_NAMES  # a bare file name: somewhere in the repository
    return (ROOT / ref).exists() or (doc.parent / ref).exists()


@pytest.mark.parametrize("doc", DOCS, ids=lambda p: str(p.relative_to(ROOT)))
def test_every_named_file_exists(doc: Path) -> None:
    missing = sorted(ref for ref in references(doc.read_text()) if not exists(ref, doc))
    assert missing == [], f"{doc.relative_to(ROOT)} names files that do not exist"


def test_the_check_sees_paths() -> None:
    refs = references("see `core/solver/book.py`, `docs/rules.md` §1, [logik](logik.md), `/logik bot`, `x.py`,"
                      " RULES.md §4, `/work/shared/RULES.md`")
    assert refs == {"core/solver/book.py", "docs/rules.md", "logik.md", "x.py", "RULES.md", "/work/shared/RULES.md"}
    assert not exists("RULES.md", ROOT / "README.md") and not exists("/work/shared/RULES.md", ROOT / "README.md")
    assert not exists("core/solver/book.py", ROOT / "docs" / "solver.md")
    assert not exists("nobook.py", ROOT / "docs" / "solver.md")
    assert exists("bot/solver/book.py", ROOT / "README.md") and exists("logik.md", ROOT / "docs" / "solver.md")
