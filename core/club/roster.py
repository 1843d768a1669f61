"""The roster's pure rules: the names a command adds, checked as a game's names are (cleaned, at most
`MAX_NAME` characters, not only digits, no look-alike alphabets mixed in one word, each once)."""

from __future__ import annotations

from core.errors import GameError
from core.names import clean, key, mixed_script

MAX_NAME = 30  # as a game's names (core/games/kegeln/state.py)
MAX_AT_ONCE = 20  # names one /verein add takes


def parse_names(text: str) -> dict[str, str]:
    """`Klaus, Birgit Maier, Sven` → {key: name as written}; refused with the reason otherwise."""
    given = [clean(p) for p in text.split(",")]
    out: dict[str, str] = {}
    for name in given:
        if not name:
            raise GameError("club.usage_add")
        if len(name) > MAX_NAME or name.isdecimal():
            raise GameError("kegeln.bad_name", name=name[:MAX_NAME])
        if mixed_script(name):
            raise GameError("kegeln.mixed_script", name=name)
        out.setdefault(key(name), name)
    if len(out) > MAX_AT_ONCE:
        raise GameError("club.too_many", max=MAX_AT_ONCE)
    return out
