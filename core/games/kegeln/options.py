"""Hausnummern's option parsing: `/kegeln high|low [2–6] NAME…` (or `teams A B / C D`) → a Setup."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from core.errors import GameError
from core.games.kegeln.state import (
    DEFAULT_DIGITS,
    MAX_DIGITS,
    MAX_NAME,
    MAX_PLAYERS,
    MAX_TEAMS,
    MIN_DIGITS,
    MIN_PLAYERS,
    MIN_TEAMS,
    Member,
    Mode,
)
from core.names import clean as clean_name
from core.names import mixed_script
from core.options import Vocabulary, meaning


@dataclass(frozen=True)
class Setup:
    mode: Mode
    digits: int
    members: list[Member]
    teams: int


def parse_setup(args: Sequence[str], vocab: Vocabulary | None = None) -> Setup:
    """`high|low [2–6] NAME…` or `high|low [2–6] teams A B / C D [/ E]` → a Setup; coded errors. The words
    high, low and teams in any language the vocabulary knows (core/options.py)."""
    words = [w for raw in args for part in raw.split() for w in _split_slashes(part)]  # one arg may hold many
    words = [w.strip(",;") for w in words if w.strip(",;")]
    cleaned = [clean_name(w) for w in words]  # Bir\u200bgit is Birgit; bidi controls are dropped
    if any(not w for w in cleaned):
        raise GameError("empty_name")
    words = cleaned
    if not words:
        raise GameError("kegeln.usage")
    first = meaning(words[0], vocab, ("high", "low"))
    if first == "high":
        mode = Mode.HIGH
    elif first == "low":
        mode = Mode.LOW
    else:
        raise GameError("kegeln.bad_mode", given=words[0][:30])
    rest = words[1:]
    digits = DEFAULT_DIGITS
    if rest and rest[0].isdecimal():
        digits = int(rest[0])
        if not MIN_DIGITS <= digits <= MAX_DIGITS:
            raise GameError("kegeln.bad_digits", given=rest[0][:10], min=MIN_DIGITS, max=MAX_DIGITS)
        rest = rest[1:]
    team_mode = bool(rest) and meaning(rest[0], vocab, ("teams",)) is not None
    if team_mode:
        rest = rest[1:]
    team_mode = team_mode or "/" in rest
    if not team_mode:
        names = rest
        _check_names(names)
        if len(names) < MIN_PLAYERS:
            raise GameError("kegeln.too_few_players", min=MIN_PLAYERS)
        return Setup(mode, digits, [Member(n) for n in names], 0)
    groups: list[list[str]] = [[]]
    for w in rest:
        if w == "/":
            groups.append([])
        else:
            groups[-1].append(w)
    if any(not g for g in groups):
        raise GameError("kegeln.empty_team")
    if not MIN_TEAMS <= len(groups) <= MAX_TEAMS:
        raise GameError("kegeln.bad_teams", given=len(groups), min=MIN_TEAMS, max=MAX_TEAMS)
    _check_names([n for g in groups for n in g])
    order: list[Member] = []
    for i in range(max(len(g) for g in groups)):  # interleave: 1st of each team, then 2nd of each …
        for t, g in enumerate(groups):
            if i < len(g):
                order.append(Member(g[i], t))
    return Setup(mode, digits, order, len(groups))


def _split_slashes(raw: str) -> list[str]:
    parts: list[str] = []
    for i, piece in enumerate(raw.split("/")):
        if i:
            parts.append("/")
        if piece:
            parts.append(piece)
    return parts


def _check_names(given: list[str]) -> None:
    seen: set[str] = set()
    for n in given:
        if len(n) > MAX_NAME or n.isdecimal():
            raise GameError("kegeln.bad_name", name=n[:MAX_NAME])
        if mixed_script(n):  # "Кlaus" beside "Klaus": a twin member nobody can tell apart
            raise GameError("kegeln.mixed_script", name=n)
        if n.casefold() in seen:
            raise GameError("kegeln.duplicate_name", name=n)
        seen.add(n.casefold())
    if len(given) > MAX_PLAYERS:
        raise GameError("kegeln.too_many_players", max=MAX_PLAYERS)
