"""Skill ratings: one per player, game kind and chat, from openskill's Plackett–Luce model.

Pure: given a finished game as a `Match` (its teams in finishing order, ties sharing a rank) and the
players' prior ratings, `rate` returns their new ones. The bot takes part with a fixed rating per
level (`BOT_RATINGS`) that no game changes. `replay` folds `rate` over stored matches from scratch:
the ratings it gives are the ones the games wrote one by one. A player is ranked by the conservative
`ordinal` (mu − 3·sigma), which grows as their games make the rating surer.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field

from openskill.models import PlackettLuce

MODEL = PlackettLuce()  # the library's defaults: mu 25, sigma 25/3, beta 25/6, tau 25/300


@dataclass(frozen=True)
class Rating:
    mu: float
    sigma: float
    games: int = 0

    @property
    def ordinal(self) -> float:
        return self.mu - 3 * self.sigma


NEW = Rating(MODEL.mu, MODEL.sigma, 0)
# The computer opponent's fixed strength per level (core/solver: "easy" | "strong")
BOT_RATINGS: dict[str, Rating] = {"easy": Rating(20.0, 1.0), "strong": Rating(32.0, 1.0)}


@dataclass(frozen=True)
class Match:
    """A rated game: `teams` of player ids (a one-player team for each player of a free-for-all),
    `ranks` per team (1 = first; equal ranks draw), the players' `names`, and `fixed` entrants (the
    bot) whose rating takes part but never changes."""

    teams: tuple[tuple[str, ...], ...]
    ranks: tuple[float, ...]
    names: Mapping[str, str] = field(default_factory=dict)
    fixed: Mapping[str, Rating] = field(default_factory=dict)

    @property
    def rated(self) -> list[str]:
        return [p for team in self.teams for p in team if p not in self.fixed]


def rate(match: Match, prior: Mapping[str, Rating]) -> dict[str, Rating]:
    """The new ratings of the match's rated players (a missing prior is a new player's)."""
    def of(p: str) -> Rating:
        return match.fixed.get(p) or prior.get(p) or NEW

    teams = [[MODEL.create_rating([of(p).mu, of(p).sigma], name=p) for p in team] for team in match.teams]
    new = MODEL.rate(teams, ranks=list(match.ranks))
    out: dict[str, Rating] = {}
    for team, rated in zip(match.teams, new, strict=True):
        for p, r in zip(team, rated, strict=True):
            if p not in match.fixed:
                out[p] = Rating(r.mu, r.sigma, of(p).games + 1)
    return out


def replay(matches: Iterable[Match]) -> dict[str, Rating]:
    """Every player's rating after the matches in order, starting from nothing."""
    ratings: dict[str, Rating] = {}
    for match in matches:
        ratings.update(rate(match, ratings))
    return ratings


def duel_match(outcomes: Mapping[str, str], names: Mapping[str, str],
               fixed: Mapping[str, Rating] | None = None) -> Match | None:
    """A two-player game (duel, Logik) from its players' outcomes: win/loss or a draw; any other
    ending (timed out, given up) is not rated."""
    if len(outcomes) != 2 or any(o not in ("win", "draw", "loss") for o in outcomes.values()):
        return None
    players = tuple(outcomes)
    ranks = tuple(2.0 if outcomes[p] == "loss" else 1.0 for p in players)
    return Match(tuple((p,) for p in players), ranks, dict(names), dict(fixed or {}))


def ranked_match(scores: Mapping[str, float], names: Mapping[str, str],
                 teams: Mapping[str, tuple[str, ...]] | None = None) -> Match | None:
    """A ranking by score (higher is better; equal scores tie) of players, or of teams when `teams`
    maps each entry of `scores` to its members. Fewer than two entries: not rated."""
    if len(scores) < 2:
        return None
    entries = list(scores)
    ranks = tuple(float(1 + sum(1 for o in entries if scores[o] > scores[e])) for e in entries)
    members = tuple((teams or {}).get(e, (e,)) for e in entries)
    return Match(members, ranks, dict(names))
