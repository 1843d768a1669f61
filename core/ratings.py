"""Skill ratings: one per player, game kind and chat, from openskill's Plackett–Luce model.

Pure: given a finished game as a `Match` (its teams in finishing order, ties sharing a rank) and the
players' prior ratings, `rate` returns their new ones. The bot takes part with a fixed rating per
level (`BOT_RATINGS`) that no game changes. `replay` folds `rate` over stored matches from scratch:
the ratings it gives are the ones the games wrote one by one. A player is ranked by the conservative
`ordinal` (mu − 3·sigma), which grows as their games make the rating surer.

Fair play: a game counts only when its players really played (each game's `rated` hook decides; a
two-player game is rated once each side has made its first move — `MIN_MOVES`, `duel_match` — and
a resignation or a timeout after that is a rated loss, as on Lichess), and the same players farming games
against each other gain little: of the games of one kind between exactly the same players (no fixed
entrant, not a `Match.local` game) only `PAIR_GAMES` within any `PAIR_WINDOW` are rated (`repeated`).
The rule matches the players by a keyed hash of their platform ids (`pair_hash`), so that a /forgetme
does not make a returning account a new opponent; the live path (bot/storage/fair_play.py) stores its
decision with each game, and `rebuild` follows it (games from before: decided again by ids). And a
win over a player newer to rated play than the winner moves the winner only part of the way (`weights`,
`discounted`): spare accounts, however many games they play among themselves, are young.

Every rated game also counts in a player's rating across all chats of the platform, kept under the
reserved chat id EVERYWHERE — except a `Match.local` game's, whose players are names that mean someone
only within one chat (a Kegel club's members: its game says so, `GamePlugin.rated_in_chat`). `rebuild`
replays stored games into both scopes, with the history of every step (the trend and the chart read it).
"""

from __future__ import annotations

import hashlib
import hmac
from collections.abc import Iterable, Mapping, Sequence
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
EVERYWHERE = "*"  # the chat id of the ratings across chats (no platform's chat has this id)
MIN_MOVES = 1  # a two-player game is rated once each player made this many guesses (revealed rows)
NEWCOMER_GAMES = 20  # a player with fewer rated games of a kind (across chats) is new to rated play …
NEWCOMER_AGE = 14 * 24 * 3600.0  # … and so is one whose first rated game of the kind is not this old
PAIR_GAMES = 3  # of the games between the same players of one kind, at most this many are rated …
PAIR_WINDOW = 24 * 3600.0  # … within any this many seconds (by the times the games ended)
TREND_GAMES = 5  # /stats: the change of the conservative rating over this many last rated games
# The computer opponent's fixed strength per level (core/solver: "easy" | "strong" | "perfect")
BOT_RATINGS: dict[str, Rating] = {"easy": Rating(20.0, 1.0), "strong": Rating(32.0, 1.0),
                                  "perfect": Rating(33.0, 1.0)}


@dataclass(frozen=True)
class Match:
    """A rated game: `teams` of player ids (a one-player team for each player of a free-for-all),
    `ranks` per team (1 = first; equal ranks draw), the players' `names`, and `fixed` entrants (the
    bot) whose rating takes part but never changes."""

    teams: tuple[tuple[str, ...], ...]
    ranks: tuple[float, ...]
    names: Mapping[str, str] = field(default_factory=dict)
    fixed: Mapping[str, Rating] = field(default_factory=dict)
    # its players are names within one chat (a club's members, not accounts): rated in that chat only,
    # never new to rated play, never a farming pair (a game whose plugin is `rated_in_chat` makes it so)
    local: bool = False

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


def weights(match: Match, everywhere: Mapping[str, Rating], since: Mapping[str, float],
            at: float) -> dict[str, float]:
    """How much of a gain each rated player keeps (1: all of it): a win or a draw against opponents new
    to rated play proves little — they may be spare accounts of the winner — so it moves the rating
    only by the share `established` of the newest opponent the player did not lose to. `everywhere`:
    the players' ratings across chats before the game (a `local` match, whose players are a club's
    names, and the bot, whose rating is fixed, are never new)."""
    if match.local:
        return {}
    rank = {p: r for team, r in zip(match.teams, match.ranks, strict=True) for p in team}
    out = {}
    for p in match.rated:
        beaten = [q for q in rank if rank[q] >= rank[p] and q != p and q not in match.fixed
                  and not any(p in t and q in t for t in match.teams)]  # not a teammate
        own = established(everywhere.get(p), at - since.get(p, at))
        share = min((_share(own, established(everywhere.get(q), at - since.get(q, at))) for q in beaten),
                    default=1.0)
        if share < 1.0:
            out[p] = share
    return out


def _share(own: float, theirs: float) -> float:
    """The part of a gain kept against an opponent: all of it against one at least as established as
    oneself (two newcomers, two regulars), else in proportion."""
    return 1.0 if theirs >= own else theirs / own


def established(r: Rating | None, age: float) -> float:
    """How far a player is from new to rated play (0 … 1): their rated games of the kind across chats
    over `NEWCOMER_GAMES`, times the time since their first one over `NEWCOMER_AGE` — spare accounts
    can play many games among themselves in a day, but not make them older."""
    return min(1.0, (r.games if r else 0) / NEWCOMER_GAMES) * min(1.0, max(0.0, age) / NEWCOMER_AGE)


def discounted(new: Mapping[str, Rating], prior: Mapping[str, Rating], keep: Mapping[str, float]) -> dict[str, Rating]:
    """`new` with each gain of a player in `keep` (a higher ordinal than before) scaled by their share: mu
    and sigma move that part of the way. A loss counts in full."""
    out = dict(new)
    for p, share in keep.items():
        old, r = prior.get(p) or NEW, new[p]
        if r.ordinal > old.ordinal:
            out[p] = Rating(old.mu + share * (r.mu - old.mu), old.sigma + share * (r.sigma - old.sigma), r.games)
    return out


def replay(matches: Iterable[Match]) -> dict[str, Rating]:
    """Every player's rating after the matches in order, starting from nothing."""
    ratings: dict[str, Rating] = {}
    for match in matches:
        ratings.update(rate(match, ratings))
    return ratings


def duel_match(outcomes: Mapping[str, str], names: Mapping[str, str],
               fixed: Mapping[str, Rating] | None = None, moves: Mapping[str, int] | None = None) -> Match | None:
    """A two-player game (duel, Logik) from its players' outcomes: win/loss or a draw; any other
    ending (abandoned, given up) is not rated, nor a game in which a player made fewer than
    `MIN_MOVES` moves (`moves`: guesses or revealed rows per player) — a resignation before both
    sides played proves nothing, and a second account could hand out wins that way. Once each side
    has moved, quitting is a rated loss: resigning whenever the first guesses went badly is no escape."""
    if len(outcomes) != 2 or any(o not in ("win", "draw", "loss") for o in outcomes.values()):
        return None
    if moves is not None and any(moves.get(p, 0) < MIN_MOVES for p in outcomes):
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


def pair_key(match: Match) -> frozenset[str] | None:
    """Whose games against each other the repetition rule counts together: exactly these players
    (None: the rule does not apply — a game against the bot, whose rating no game changes, or a
    `local` match, whose players are names a club enters, who meet every week)."""
    if match.local or match.fixed:
        return None
    return frozenset(match.rated)


def repeated(earlier: Iterable[float], at: float) -> bool:
    """Whether a game of the same players ending at `at` is one too many: `earlier` are the end
    times of their rated games before it; `PAIR_GAMES` of them within `PAIR_WINDOW` are enough."""
    return sum(1 for t in earlier if at - t < PAIR_WINDOW) >= PAIR_GAMES


def pair_hash(key: bytes, platform: str, kind: str, pair: frozenset[str]) -> str:
    """The repetition rule's name for a pair (or group) of players: an HMAC-SHA256 under the bot's own
    key of the platform, the game and the players' platform ids. It outlives /forgetme (a returning
    account is the same opponent again), yet without the key it tells nobody who played."""
    text = "\x1f".join((platform, kind, *sorted(pair)))
    return hmac.new(key, text.encode("utf-8"), hashlib.sha256).hexdigest()


def scopes(chat_id: str, match: Match) -> tuple[str, ...]:
    """The chat ids a game in `chat_id` is rated under: the chat, and across chats (a `local` match: the
    chat only)."""
    return (chat_id,) if match.local else (chat_id, EVERYWHERE)


def trend(steps: Sequence[Rating], games: int, n: int = TREND_GAMES) -> tuple[float, int] | None:
    """The change of the conservative rating over the last `n` rated games and how many games that
    covers, from a player's history `steps` (oldest first; at most its last n + 1 are needed) and
    the games their rating counts. None without a step to compare with."""
    if not steps:
        return None
    last = steps[-1]
    if len(steps) > n:
        return last.ordinal - steps[-n - 1].ordinal, n
    if last.games == len(steps):  # the whole history: it starts at a new player's rating
        return last.ordinal - NEW.ordinal, len(steps)
    if len(steps) < 2:  # a history begun after the games it does not hold (older databases)
        return None
    return last.ordinal - steps[0].ordinal, len(steps) - 1


@dataclass(frozen=True)
class Rated:
    """A stored finished game to replay: where it was played, which game, when it ended, its match, and
    whether the repetition rule counted it when it ended (`counted`; None for a game from before the
    rule kept its decisions: decided again from the players' ids)."""

    platform: str
    chat_id: str
    kind: str
    game_id: int
    at: float
    match: Match
    counted: bool | None = None


@dataclass(frozen=True)
class Step:
    """One player's rating after one game, in one scope (a chat id or EVERYWHERE)."""

    platform: str
    chat_id: str
    kind: str
    user_id: str
    name: str
    game_id: int
    at: float
    rating: Rating


def rebuild(games: Iterable[Rated], newcomers: bool = True) -> tuple[dict[tuple[str, str, str, str], Step], list[Step]]:
    """Every rating from scratch by replaying `games` in the order they ended: the last step per
    (platform, chat id, kind, player) — each with its name at its last game — and every step in order.
    A game the repetition rule leaves out (`repeated`, on the platform's games of its kind) changes
    nothing: where the live rule's decision is stored (`Rated.counted`: it matched players by a keyed
    hash of their ids, which a /forgetme does not change), that decision; else decided again by ids."""
    current: dict[tuple[str, str, str, str], Step] = {}
    history: list[Step] = []
    recent: dict[tuple[str, str, frozenset[str]], list[float]] = {}  # the repetition rule's rated games
    first: dict[tuple[str, str, str, str], float] = {}  # when each player's first rated game across chats ended
    for g in games:
        pair = pair_key(g.match)
        if pair is not None and g.counted is not None:
            if not g.counted:
                continue
            recent.setdefault((g.platform, g.kind, pair), []).append(g.at)
        elif pair is not None:
            times = recent.setdefault((g.platform, g.kind, pair), [])
            if repeated(times, g.at):
                continue
            times.append(g.at)
        far = (g.platform, EVERYWHERE, g.kind)
        keep = weights(g.match, {p: current[(*far, p)].rating for p in g.match.rated
                                         if (*far, p) in current},
                       {p: first[(*far, p)] for p in g.match.rated if (*far, p) in first}, g.at) if newcomers else {}
        for p in g.match.rated:
            first.setdefault((*far, p), g.at)
        for scope in scopes(g.chat_id, g.match):
            key = (g.platform, scope, g.kind)
            prior = {p: current[(*key, p)].rating for p in g.match.rated if (*key, p) in current}
            for p, r in discounted(rate(g.match, prior), prior, keep).items():
                step = Step(g.platform, scope, g.kind, p, g.match.names.get(p, p), g.game_id, g.at, r)
                current[(*key, p)] = step
                history.append(step)
    return current, history
