"""The state folder: where the bot keeps what it writes — the SQLite database, its health status, the
platforms' edit maps, the console's pictures and files, the solver's cache — never beside the code.

`STATE_DIR` names it. Otherwise: run from a checkout (the bot package beside pyproject.toml, as with
`make run`), the checkout's own `data/` (where every earlier version kept its database, so an upgraded
checkout finds it); an installed package, the platform's folder for a program's state:
`$XDG_STATE_HOME/chatgames` (default `~/.local/state/chatgames`) on Linux and other Unix systems,
`~/Library/Application Support/chatgames` on macOS, `%LOCALAPPDATA%\\chatgames` on Windows. The image
sets `STATE_DIR=/var/lib/chatgames`, its volume (deploy/Dockerfile; docs/deploy.md).
"""

from __future__ import annotations

import os
import sys
from collections.abc import Mapping
from pathlib import Path

NAME = "chatgames"


def checkout() -> Path | None:
    """The source checkout this code runs from, or None for an installed package."""
    root = Path(__file__).resolve().parents[1]
    return root if (root / "pyproject.toml").is_file() and (root / "bot" / "__main__.py").is_file() else None


def folder(env: Mapping[str, str] | None = None) -> Path:
    """The state folder (not created here: the bot creates it when it opens the database)."""
    env = os.environ if env is None else env
    if env.get("STATE_DIR", "").strip():
        return Path(env["STATE_DIR"].strip()).expanduser()
    root = checkout()
    if root is not None:
        return root / "data"
    if sys.platform == "win32" and env.get("LOCALAPPDATA"):
        return Path(env["LOCALAPPDATA"]) / NAME
    if sys.platform == "darwin":
        return Path.home() / "Library" / "Application Support" / NAME
    base = env.get("XDG_STATE_HOME", "").strip()
    return (Path(base) if base and Path(base).is_absolute() else Path.home() / ".local" / "state") / NAME
