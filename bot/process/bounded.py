"""A dict that forgets its least recently stored entries beyond a size.

The App and the localiser keep small per-user and per-chat caches (names, languages, answered
update ids). A bot that runs for years meets ever more users; each of these caches can be
refilled from the store, so forgetting old entries costs a read, never a wrong answer.
"""

from __future__ import annotations

from collections import OrderedDict
from typing import TypeVar

K = TypeVar("K")
V = TypeVar("V")


class Bounded(OrderedDict[K, V]):
    """At most `size` entries; storing one makes it the newest, the oldest goes first."""

    def __init__(self, size: int) -> None:
        super().__init__()
        self.size = size

    def __setitem__(self, key: K, value: V) -> None:
        super().__setitem__(key, value)
        self.move_to_end(key)
        if len(self) > self.size:
            self.popitem(last=False)
