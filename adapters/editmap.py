"""Which platform message shows an `edit_key` (a Kegeln game's standings, a club evening's answer
list), kept across restarts — for the Discord and the Telegram renderer alike.

The renderer edits that message in place instead of posting a new one. Kept in memory only, a
restart would post a new message on the next change and leave the old one with live buttons;
`JsonEditMap` keeps the mapping in a small JSON file per platform (next to the database, see
bot/__main__.py), written atomically on each change and bounded to the newest `limit` keys.
"""

from __future__ import annotations

import contextlib
import json
import logging
import os
from pathlib import Path
from typing import Protocol

log = logging.getLogger(__name__)

LIMIT = 20_000  # keys kept; the oldest go first (their games are long over)


class EditMap(Protocol):
    def get(self, key: str) -> tuple[int, int] | None:
        """(channel or chat id, message id) of the message showing `key`, if known."""

    def set(self, key: str, where: tuple[int, int]) -> None:
        """Remember that `key` is shown by message `where` = (channel or chat id, message id)."""


class MemoryEditMap:
    """The mapping in memory only (tests, or when no file is given)."""

    def __init__(self, limit: int = LIMIT) -> None:
        self._map: dict[str, tuple[int, int]] = {}
        self._limit = limit

    def get(self, key: str) -> tuple[int, int] | None:
        return self._map.get(key)

    def set(self, key: str, where: tuple[int, int]) -> None:
        self._map.pop(key, None)
        self._map[key] = where
        while len(self._map) > self._limit:
            del self._map[next(iter(self._map))]


class JsonEditMap(MemoryEditMap):
    """The mapping in a JSON file: {"key": [channel id, message id], …}, newest last."""

    def __init__(self, path: str | Path, limit: int = LIMIT) -> None:
        super().__init__(limit)
        self.path = Path(path)
        try:
            raw = json.loads(self.path.read_text(encoding="utf-8"))
            for key, (channel, message) in raw.items():
                self._map[str(key)] = (int(channel), int(message))
        except FileNotFoundError:
            pass
        except (OSError, ValueError, TypeError) as exc:  # unreadable: start afresh, say so once
            log.warning("ignoring the unreadable edit map %s (%s)", self.path.name, type(exc).__name__)

    def set(self, key: str, where: tuple[int, int]) -> None:
        if self._map.get(key) == where:
            return
        super().set(key, where)
        tmp = self.path.with_name(self.path.name + ".tmp")
        try:
            tmp.write_text(json.dumps({k: list(v) for k, v in self._map.items()}), encoding="utf-8")
            os.replace(tmp, self.path)
        except OSError as exc:  # a full disk costs the edit-in-place after a restart, nothing more
            log.warning("could not save the edit map %s (%s)", self.path.name, type(exc).__name__)
            with contextlib.suppress(OSError):
                tmp.unlink()
