"""Farming simulation (issue 36.3): one person with 10 spare accounts against a chat of honest players.

Four weeks of honest rated 1A2B duels in one chat, then a week of farming, replayed through the real
rating rules (`core.ratings.rebuild`: openskill, the pair cap, the newcomer discount — the rules the live
path and the rebuild apply alike).

- Honest players (`HONEST`) have a realistic skill: the mean number of guesses they need to crack a
  4-digit code, from 5.3 (near the best solvers) to 9 (casual), and a spread of ±1.3 guesses from game
  to game. Each plays about `HONEST_GAMES` rated duels a day against others of the chat, at random times.
  In a duel the starter guesses first; whoever cracks in fewer guesses wins, the same number is a draw
  (the second player's last chance).
- The farmer's main account plays like an average honest player (7 guesses; it plays the honest games
  too), and every day of the farming week beats each of its 10 spare accounts `PAIR_GAMES` times (the
  pair cap's most): each side makes its first guess, the spare resigns — 30 scripted wins a day.
  *Seasoned*: the spares first play each other (as often as the cap allows) on the week's first day, so
  that they are no longer new by their number of games; or three weeks before (the discount's known limit).

Prints, per seed, where the farmer's main account ends on the chat's leaderboard (by the conservative
rating, mu − 3σ), its ordinal, and the chat's third place — each case also without the newcomer discount,
for comparison. `python -m bench.farming [--days 7] [--seed 1] [--seeds 5]`."""

from __future__ import annotations

import argparse
import random
from dataclasses import dataclass

from core import ratings

DAY = 24 * 3600.0
HONEST = 12  # honest players in the chat
SPARES = 10  # the farmer's spare accounts
HONEST_GAMES = 3.0  # rated duels an honest player starts per day, on average
SPREAD = 1.3  # guesses: how much one player's games vary
MAIN_SKILL = 7.0  # the farmer's own mean guesses (an average player of the chat)


@dataclass(frozen=True)
class Standing:
    rank: int  # 1 = top of the chat's leaderboard
    ordinal: float
    games: int
    top: tuple[tuple[str, float], ...]  # the leaderboard's first three (player, ordinal)
    players: int  # rated players in the chat


def skills(n: int, rng: random.Random) -> dict[str, float]:
    """Honest players' mean guesses, spread evenly from strong to casual (shuffled names)."""
    return {f"h{i:02d}": 5.3 + (9.0 - 5.3) * i / max(1, n - 1) + rng.uniform(-0.2, 0.2) for i in range(n)}


def duel(a: str, b: str, skill: dict[str, float], rng: random.Random) -> dict[str, str]:
    """One played duel: the outcome per player."""
    starter, second = (a, b) if rng.random() < 0.5 else (b, a)
    ga = max(1, round(rng.gauss(skill[starter], SPREAD)))
    gb = max(1, round(rng.gauss(skill[second], SPREAD)))
    if ga == gb:
        return {starter: "draw", second: "draw"}
    winner = starter if ga < gb else second
    return {p: "win" if p == winner else "loss" for p in (a, b)}


def week(days: int = 7, seed: int = 1, honest: int = HONEST, spares: int = SPARES, season: bool = False,
         warmup: int = 28, season_day: int = 0) -> list[ratings.Rated]:
    """The games of `warmup` days of honest play (the farmer's main account among the regulars), then
    of `days` days of farming, in the order they ended. `season`: the spares play each other on
    `season_day` (0: the farming week's first day, which then has no farming; negative: days before)."""
    rng = random.Random(seed)
    skill = skills(honest, rng)
    skill["main"] = MAIN_SKILL
    people = sorted(skill)
    spare_ids = [f"spare{i:02d}" for i in range(spares)]
    games: list[tuple[float, dict[str, str]]] = []
    for day in range(-warmup, days):
        start = day * DAY
        for p in people:  # honest play, the farmer's main account too
            for _ in range(_poisson(HONEST_GAMES, rng)):
                q = rng.choice([o for o in people if o != p])
                games.append((start + rng.uniform(8, 23) * 3600, duel(p, q, skill, rng)))
        if season and day == season_day:  # the spares play each other, as often as the cap lets them
            for i, s in enumerate(spare_ids):
                for t in spare_ids[i + 1:]:
                    for _k in range(ratings.PAIR_GAMES):
                        winner = s if rng.random() < 0.5 else t
                        games.append((start + 3600 + len(games) % 3000, {
                            s: "win" if winner == s else "loss", t: "win" if winner == t else "loss"}))
        farm_from = 1 if season and season_day == 0 else 0
        if day >= farm_from and day >= 0:
            for k in range(ratings.PAIR_GAMES):  # the scripted wins, spread over the day
                for i, s in enumerate(spare_ids):
                    at = start + (6 + 5 * k) * 3600 + i * 60
                    games.append((at, {"main": "win", s: "loss"}))
    games.sort(key=lambda g: g[0])
    out = []
    for n, (at, outcomes) in enumerate(games):
        match = ratings.duel_match(outcomes, {p: p for p in outcomes})
        assert match is not None
        out.append(ratings.Rated("sim", "chat", "duel", n, at, match))
    return out


def _poisson(mean: float, rng: random.Random) -> int:
    n, limit, p = 0, pow(2.718281828459045, -mean), 1.0
    while True:
        p *= rng.random()
        if p <= limit:
            return n
        n += 1


def standing(games: list[ratings.Rated], who: str = "main", rule: bool = True) -> Standing:
    """Where `who` ends on the chat's leaderboard after the games (`rule`: with the newcomer discount)."""
    current, _history = ratings.rebuild(games, newcomers=rule)
    board = sorted(((s.rating.ordinal, s.user_id, s.rating.games) for (_pl, scope, _k, _u), s in current.items()
                    if scope == "chat"), reverse=True)
    rank = next(i for i, (_o, u, _g) in enumerate(board, 1) if u == who)
    _o, _u, games_of = board[rank - 1]
    top = tuple((u, round(o, 1)) for o, u, _g in board[:3])
    return Standing(rank, board[rank - 1][0], games_of, top, len(board))


def main() -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--days", type=int, default=7)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--seeds", type=int, default=5, help="how many seeds (from --seed on)")
    args = parser.parse_args()
    seeds = range(args.seed, args.seed + args.seeds)
    cases = (("no farming (the main account alone)", 0, False, True, 0),
             ("fresh spares, discount off", SPARES, False, False, 0), ("fresh spares", SPARES, False, True, 0),
             ("seasoned spares, discount off", SPARES, True, False, 0), ("seasoned spares", SPARES, True, True, 0),
             ("spares seasoned 3 weeks before", SPARES, True, True, -21))
    for label, spares, season, rule, when in cases:
        got = [standing(week(args.days, s, spares=spares, season=season, season_day=when), rule=rule)
               for s in seeds]
        third = [g.top[2][1] for g in got]
        print(f"{label:36}: rank {[g.rank for g in got]}, ordinal {[round(g.ordinal, 1) for g in got]}"
              f" after {got[0].games} games; the chat's 3rd {third}")


if __name__ == "__main__":
    main()
