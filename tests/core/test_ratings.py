"""core/ratings.py: the pure rating math against openskill computed directly, and replay."""

from __future__ import annotations

from openskill.models import PlackettLuce

from core import ratings


def test_a_win_and_a_draw_agree_with_openskill() -> None:
    model = PlackettLuce()
    a, b = model.rating(), model.rating()
    [[a1], [b1]] = model.rate([[a], [b]], ranks=[1, 2])
    [[a2], [b2]] = model.rate([[a1], [b1]], ranks=[1, 1])
    won, drawn = ratings.duel_match({"a": "win", "b": "loss"}, {}), ratings.duel_match({"a": "draw", "b": "draw"}, {})
    assert won is not None and drawn is not None
    got = ratings.replay([won, drawn])
    assert got == {"a": ratings.Rating(a2.mu, a2.sigma, 2), "b": ratings.Rating(b2.mu, b2.sigma, 2)}
    assert got["a"].ordinal == a2.ordinal()


def test_the_fixed_rating_never_changes_and_unplayed_endings_are_not_rated() -> None:
    bot = ratings.BOT_RATINGS["strong"]
    match = ratings.duel_match({"ann": "win", "bot": "loss"}, {}, {"bot": bot})
    assert match is not None
    new = ratings.rate(match, {})
    assert set(new) == {"ann"} and ratings.BOT_RATINGS["strong"] == bot
    assert ratings.duel_match({"ann": "abandoned", "bob": "abandoned"}, {}) is None
    assert ratings.duel_match({"ann": "gave_up", "bob": "win"}, {}) is None


def test_ranking_by_score_ties_share_a_rank_and_teams_stay_teams() -> None:
    m = ratings.ranked_match({"x": 3, "y": 5, "z": 3}, {})
    assert m is not None and m.ranks == (2.0, 1.0, 2.0)
    t = ratings.ranked_match({"t1": 10, "t2": 20}, {}, {"t1": ("a", "b"), "t2": ("c",)})
    assert t is not None and t.teams == (("a", "b"), ("c",)) and t.ranks == (2.0, 1.0)
    assert ratings.ranked_match({"x": 1}, {}) is None


def test_replay_in_one_go_equals_game_by_game() -> None:
    games = [ratings.ranked_match({"a": 2, "b": 1, "c": 0}, {}), ratings.duel_match({"a": "loss", "c": "win"}, {}),
             ratings.ranked_match({"b": 1, "c": 1}, {})]
    step: dict[str, ratings.Rating] = {}
    for g in games:
        assert g is not None
        step.update(ratings.rate(g, step))
    assert ratings.replay(g for g in games if g is not None) == step
    assert step["a"].games == 2 and step["b"].games == 2 and step["c"].games == 3
