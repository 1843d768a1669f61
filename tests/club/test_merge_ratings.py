"""/kegelmerge and the skill ratings, through the App on a real database (run again on PostgreSQL by
tests/postgres/test_ratings_pg.py): a season played with one member under two names (and a duel of
the same chat in between), then merged. What the merge stores — the games' final states, the ratings
and their history — is exactly what `python -m bot ratings rebuild` gives afterwards, and agrees with
openskill computed here directly from the season's rankings; /rating and /top show the merged member."""

from __future__ import annotations

import json
import random
from collections import defaultdict
from typing import Any

import pytest

from bot.app import ratings_rebuild
from bot.app.app import App
from bot.storage.sql import Query
from bot.storage.store import RatingsMoved
from core import ratings
from core.games.base import Ctx, Player
from core.games.kegeln import options, records, rules
from tests.app.conftest import Clock
from tests.app.harness import GROUP, Table, texts
from tests.app.test_duel_flow import start_duel, target
from tests.app.test_ratings import Expected
from tests.app.test_ratings_rebuild import HISTORY, RATINGS, garble, rows
from tests.club.test_season import at, game, merge_as_admin, season_2026

# The season's rated games in the order they ended, as the club ranked them (Klausi is Klaus):
# each game's members by place (1 = the winner), from the numbers thrown in tests/club/test_season.py.
SEASON: list[dict[str, int]] = [
    {"birgit": 1, "klaus": 2},  # 99 – 55
    {"sven": 1, "birgit": 2, "klaus": 3},  # 81 – 72 – 33 (Klausi)
    {"birgit": 1, "sven": 2, "klaus": 3},  # low: 12 – 33 – 94 (Klausi: a Pumpe is a 9)
    {"klaus": 1, "birgit": 2, "sven": 3},  # 90 – 66 – 55
    {"klaus": 1, "birgit": 2, "sven": 3},  # 99 – 88 – 0
    {"klaus": 1, "birgit": 2, "sven": 3},  # 97 – 95 – 2
]
KEGELN_STATES = Query("SELECT id, state, over, version, updated FROM games WHERE kind = 'kegeln' ORDER BY id")
PLACES = Query("SELECT game_id, member, place FROM kegeln_members ORDER BY at, game_id, member")


def by_player(history: list[tuple[Any, ...]]) -> dict[tuple[Any, ...], list[tuple[Any, ...]]]:
    """The history per (platform, chat, kind, player), each in its order: what /rating and the trend read
    (rows of different players may interleave differently; one player's steps may not)."""
    out: dict[tuple[Any, ...], list[tuple[Any, ...]]] = defaultdict(list)
    for row in history:
        game_id, platform, chat_id, kind, user_id, *rest = row
        out[(platform, chat_id, kind, user_id)].append((game_id, *rest))
    return dict(out)


async def duel_between(table: Table) -> None:
    _gid, first, second = await start_duel(table)
    codes = target(first)
    await table.say(first, codes[first])
    assert "wins" in texts(await table.say(second, "9012"))


async def merged_season(app: App, table: Table, clock: Clock) -> None:
    await season_2026(table, clock)
    await duel_between(table)  # a game of another kind in the same chat, after the season's games
    r = await merge_as_admin(table)
    assert "Merged: Klausi is now Klaus — 2 games moved, Klaus has 6 games" in texts(r), texts(r)


async def test_the_merge_stores_what_a_rebuild_gives(app: App, table: Table, clock: Clock) -> None:
    await season_2026(table, clock)
    await duel_between(table)
    places: dict[int, dict[str, int]] = defaultdict(dict)
    for game_id, member, place in await rows(app, PLACES):
        places[int(game_id)][{"klausi": "klaus"}.get(member, member)] = int(place)
    assert list(places.values()) == SEASON  # the test's rankings are the club's records
    states = await rows(app, KEGELN_STATES)
    await merge_as_admin(table)

    # the games' final states name Klaus; their times stay (the replay's order), their versions count the change
    after = await rows(app, KEGELN_STATES)
    assert [(i, o, v, u) for i, _s, o, v, u in after] == [
        (i, o, v + ("Klausi" in s), u) for i, s, o, v, u in states]
    assert all("Klausi" not in s for _i, s, *_ in after) and sum("Klausi" in s for _i, s, *_ in states) == 2
    assert [json.loads(s)["members"][1]["name"] for _i, s, *_ in after[1:3]] == ["Klaus", "Klaus"]

    stored, history = await rows(app, RATINGS), await rows(app, HISTORY)
    kegeln = {r[3]: r for r in stored if r[2] == "kegeln"}
    assert set(kegeln) == {"birgit", "klaus", "sven"} and kegeln["klaus"][4] == "Klaus"
    want = Expected()  # openskill directly, one ranking per game
    for ranking in SEASON:
        want.play("kegeln", [[m] for m in ranking], [float(p) for p in ranking.values()])
    for (_kind, member), (mu, sigma, games) in want.ratings.items():
        _p, _c, _k, _u, _n, got_mu, got_sigma, got_games, _at = kegeln[member]
        assert abs(got_mu - mu) < 1e-9 and abs(got_sigma - sigma) < 1e-9 and got_games == games, member
    steps = by_player(history)
    assert [len(steps[("test", GROUP.chat_id, "kegeln", m)]) for m in ("birgit", "klaus", "sven")] == [6, 6, 5]
    assert not any(key[3] == "klausi" for key in steps)

    # the operators' rebuild, after garbling, gives the very same rows
    await garble(app)
    await ratings_rebuild.rebuild(app)
    assert await rows(app, RATINGS) == stored
    assert by_player(await rows(app, HISTORY)) == steps
    assert await rows(app, KEGELN_STATES) == after


async def test_rating_and_top_after_the_merge(app: App, table: Table, clock: Clock) -> None:
    await merged_season(app, table, clock)
    r = await table.say("alice", "/rating kegeln Klaus")
    assert "📈 Klaus — Hausnummern:" in texts(r) and "6 games" in texts(r), texts(r)
    assert "over the last 5 games" in texts(r), texts(r)  # the trend reads the merged history
    assert len(await app.store.rating_steps("test", GROUP.chat_id, "kegeln", "klaus")) == 6
    assert "Klausi — Hausnummern: no rated games in this chat yet." in texts(
        await table.say("alice", "/rating kegeln Klausi"))
    top = texts(await table.say("alice", "/top kegeln"))
    assert "Klausi" not in top and "(6 games)" in top and top.count("Klaus — ") == 1, top


async def test_a_game_after_the_merge_rates_on_top_of_it(app: App, table: Table, clock: Clock) -> None:
    """The next game under the kept name continues the merged rating and history, as a rebuild would."""
    await merged_season(app, table, clock)
    clock.now = at(2026, 12, 18, 21)
    await game(table, "high", {"Birgit": (1, 1), "Klaus": (9, 9)})
    stored, history = await rows(app, RATINGS), await rows(app, HISTORY)
    assert {r[3]: r[7] for r in stored if r[2] == "kegeln"}["klaus"] == 7
    await ratings_rebuild.rebuild(app)
    assert await rows(app, RATINGS) == stored and by_player(await rows(app, HISTORY)) == by_player(history)


def test_renamed_keeps_two_people_apart() -> None:
    """The state's rename: only member `old`; None when there is none, or when the new name plays too."""
    state, _ = rules.new(options.parse_setup(["high", "2", "Klausi", "Birgit"]), Player("a", "Alice"),
                          Ctx(0.0, random.Random(1), None))
    got = records.renamed(state, "klausi", "Klaus")
    assert got is not None and [m.name for m in got.members] == ["Klaus", "Birgit"]
    assert [m.name for m in state.members] == ["Klausi", "Birgit"]  # the given state is untouched
    assert records.renamed(state, "zoe", "Klaus") is None and records.renamed(state, "klausi", "BIRGIT") is None


async def test_a_merge_during_a_rebuild_makes_the_rebuild_replay_again(app: App, table: Table, clock: Clock) -> None:
    """The rebuild replays the stored states outside its transaction: a merge that renames the member in
    them meanwhile (no game ended, the count of finished games is the same) must not be overwritten by
    ratings replayed from the states before it — Klausi would come back."""
    await season_2026(table, clock)
    seen, rated = await ratings_rebuild.replay(app)  # the rebuild's first step ...
    current, history = ratings.rebuild(rated)
    await merge_as_admin(table)  # ... then the merge commits
    with pytest.raises(RatingsMoved):
        await app.store.rewrite_ratings(list(current.values()), history, seen)
    merged = await rows(app, RATINGS)
    await ratings_rebuild.rebuild(app)  # the next attempt replays the merged states
    assert await rows(app, RATINGS) == merged and not any(r[3] == "klausi" for r in merged)
