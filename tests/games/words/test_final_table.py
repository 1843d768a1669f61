"""The word game's table of a match ranks those who left as the ratings do (bot/games/words/ratings.py): below
everyone who stayed, whatever their points, all on one shared place — not numbered as if they had stayed."""

from __future__ import annotations

from bot.games.words.ratings import rated_match
from bot.storage.base import NewResult
from core.games.base import Outcome, Player
from core.games.words.presenter import standings
from core.games.words.state import Mode, Options, Phase, State, WordsOutcome


def match(points: dict[str, int], left: list[str], mode: Mode = Mode.POINTS) -> State:
    people = [Player(u, u.capitalize()) for u in points]
    return State(opts=Options(), opener=people[0], players=people, phase=Phase.FINISHED, mode=mode,
                 points=dict(points), counts=dict(points), left=list(left), outcome=WordsOutcome.FINISHED)


def test_who_left_is_ranked_last_on_one_place_as_the_ratings_rank_them() -> None:
    state = match({"ann": 5, "bob": 3, "cid": 2, "dan": 0}, left=["bob"])
    assert standings(state).splitlines() == ["1. Ann: 5", "2. Cid: 2", "3. Dan: 0", "4. Bob: 3 ✗"]
    state = match({"ann": 5, "bob": 3, "cid": 2, "dan": 0}, left=["ann", "cid"])
    assert standings(state).splitlines() == ["1. Bob: 3", "2. Dan: 0", "3. Ann: 5 ✗", "3. Cid: 2 ✗"]


def test_the_table_and_the_rating_agree_on_the_order() -> None:
    state = match({"ann": 5, "bob": 3, "cid": 2, "dan": 0}, left=["bob"])
    state.counts = {u: 1 for u in state.points}  # everyone made a move (a guess), so all are rated
    results = [NewResult(u, u.capitalize(), Outcome.LOSS, None, None, None, None) for u in state.points]
    rated = rated_match(state, results)
    assert rated is not None
    by_rating = [m[0] for _, m in sorted(zip(rated.ranks, rated.teams, strict=True))]
    by_table = [line.split(". ", 1)[1].split(":")[0].lower() for line in standings(state).splitlines()]
    assert by_table == by_rating


def test_two_players_one_who_left_comes_second() -> None:
    state = match({"ann": 9, "bob": 4}, left=["bob"], mode=Mode.PAIR_ROUNDS)
    state.counts = {"ann": 9, "bob": 4}  # fewer guesses are better, but Bob left
    assert standings(state).splitlines() == ["Ann: 9", "Bob: 4 ✗"]
