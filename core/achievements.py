"""Achievements: what a finished game can earn a player, as pure functions of what the game showed.

A game's bot side names its own catalog (`GamePlugin.achievements`, a tuple of the `Achievement`s
below) and says what a finished game showed of each player (`GamePlugin.feats`: a `Feat` per player,
by default from the game's results). `earned` is the one rule: an achievement is earned by a feat that
passes its test, once per player, game kind and chat (the store keeps the first game that earned it).
Being pure and fed only from the stored final states, the same function replays every award from the
stored games (bot/app/achievements.py `replay`)."""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from dataclasses import KW_ONLY, dataclass, field
from datetime import date, timedelta

WEEK = 7  # days in a row for "a week of dailies"


@dataclass(frozen=True)
class Feat:
    """What a finished game showed of one player: an account's id, or a Kegel club member's name
    (casefolded, as in the ratings: the club's records)."""

    user_id: str
    name: str
    won: bool
    moves: int | None = None  # the guesses (1A2B) or rows (Logik) in which they cracked the code: a win, or a
    # draw in which both cracked it; None where they did not (a loss, a win by resignation or timeout)
    _: KW_ONLY
    nines: int = 0  # Hausnummern: throws of all nine pins
    days: tuple[str, ...] = field(default=())  # the daily puzzle: the days (ISO) played up to this one, this one last


@dataclass(frozen=True)
class Achievement:
    """One achievement: its code (stored; never renamed), its catalog key, and its test."""

    code: str
    title: str  # the catalog key of its name and what it is for
    test: Callable[[Feat], bool]


def _in_a_row(days: Sequence[str], n: int) -> bool:
    """The last `n` of `days` (ISO dates, the last one the day of this game) are `n` days in a row."""
    played = set(days)
    if not days:
        return False
    last = date.fromisoformat(days[-1])
    return all((last - timedelta(days=k)).isoformat() in played for k in range(n))


FIRST_WIN = Achievement("first_win", "achievement.first_win", lambda f: f.won)
CRACK_IN_4 = Achievement("crack_in_4", "achievement.crack_four",  # a crack, also in a drawn duel
                         lambda f: f.moves is not None and f.moves <= 4)
LOGIK_IN_5 = Achievement("logik_in_5", "achievement.logik_five",  # "Won …": a win by a crack
                         lambda f: f.won and f.moves is not None and f.moves <= 5)
WEEK_OF_DAILIES = Achievement("daily_week", "achievement.daily_week", lambda f: _in_a_row(f.days, WEEK))
ALLE_NEUNE = Achievement("alle_neune", "achievement.alle_neune", lambda f: f.nines > 0)
EVERY = (FIRST_WIN, CRACK_IN_4, LOGIK_IN_5, WEEK_OF_DAILIES, ALLE_NEUNE)
BY_CODE = {a.code: a for a in EVERY}


def earned(catalog: Iterable[Achievement], feats: Iterable[Feat]) -> list[tuple[Feat, Achievement]]:
    """Every (feat, achievement) of a finished game whose test the feat passes, in catalog order per player
    (whether the player holds it already is the store's to say: each is kept once)."""
    catalog = tuple(catalog)
    return [(f, a) for f in feats for a in catalog if a.test(f)]
