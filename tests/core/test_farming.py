"""Issue 36.3, spare accounts: the farming simulation of bench/farming.py, smaller (two seeds), through the
real rating rules (`core.ratings.rebuild`). An average player with 10 spare accounts who beats each of
them 3 times a day for a week — fresh, or first seasoned by playing each other — stays out of the top 3
of a chat of 12 honest players; without the newcomer discount the same week puts them in it. And the
discount itself: a win over a newcomer moves the winner part of the way, a loss to one counts in full,
two newcomers (or two regulars) rate each other in full."""

from __future__ import annotations

import pytest

from bench.farming import standing, week
from core import ratings

DAY = 24 * 3600.0


@pytest.mark.parametrize("seed", [1, 2])
@pytest.mark.parametrize("season", [False, True])
def test_the_farmer_stays_out_of_the_top_3(seed: int, season: bool) -> None:
    games = week(days=7, seed=seed, season=season)
    assert standing(games, rule=False).rank <= 3  # the week the issue found: the spares lift them in
    got = standing(games)
    assert got.rank > 3, got


def regular(games: int = ratings.NEWCOMER_GAMES) -> ratings.Rating:
    return ratings.Rating(27.0, 3.0, games)


def test_a_win_over_a_newcomer_moves_the_winner_part_of_the_way() -> None:
    match = ratings.duel_match({"reg": "win", "new": "loss"}, {})
    assert match is not None
    now = 100 * DAY
    prior = {"reg": regular(), "new": ratings.NEW}
    since = {"reg": 0.0}
    keep = ratings.weights(match, prior, since, now)
    assert keep == {"reg": 0.0}  # a newcomer without a rated game: the win moves nothing
    full = ratings.rate(match, prior)
    assert ratings.discounted(full, prior, keep)["reg"] == ratings.Rating(27.0, 3.0, ratings.NEWCOMER_GAMES + 1)
    assert ratings.discounted(full, prior, keep)["new"] == full["new"]  # the newcomer's own loss counts
    # half the games and half the age: a quarter of the gain
    prior["new"] = ratings.Rating(25.0, 6.0, ratings.NEWCOMER_GAMES // 2)
    since["new"] = now - ratings.NEWCOMER_AGE / 2
    keep = ratings.weights(match, prior, since, now)
    assert keep == {"reg": pytest.approx(0.25)}
    full = ratings.rate(match, prior)
    got = ratings.discounted(full, prior, keep)["reg"]
    assert got.mu == pytest.approx(27.0 + 0.25 * (full["reg"].mu - 27.0))
    # a loss to a newcomer counts in full
    lost = ratings.duel_match({"reg": "loss", "new": "win"}, {})
    assert lost is not None
    keep = ratings.weights(lost, prior, since, now)
    assert ratings.discounted(ratings.rate(lost, prior), prior, keep) == ratings.rate(lost, prior)


def test_newcomers_among_themselves_and_the_bot_rate_in_full() -> None:
    match = ratings.duel_match({"a": "win", "b": "loss"}, {})
    assert match is not None
    assert ratings.weights(match, {}, {}, 0.0) == {}  # a new chat: everyone equally new
    both = {"a": regular(), "b": regular(3 * ratings.NEWCOMER_GAMES)}
    assert ratings.weights(match, both, {"a": 0.0, "b": 0.0}, 100 * DAY) == {}
    bot = ratings.duel_match({"a": "win", "bot": "loss"}, {}, {"bot": ratings.BOT_RATINGS["strong"]})
    assert bot is not None
    assert ratings.weights(bot, {"a": regular()}, {"a": 0.0}, 100 * DAY) == {}
