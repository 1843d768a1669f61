"""Skill ratings through the App on a real SQLite file: every rated game agrees with openskill
computed here directly; the bot has its fixed rating; unrated games change nothing; /top GAME."""

from __future__ import annotations

import sqlite3
from pathlib import Path

from openskill.models import PlackettLuce

from bot.app.app import App
from core import ratings
from tests.app.conftest import Clock
from tests.app.harness import Table, texts
from tests.app.test_duel_flow import bot_duel_played, played_out, start_duel
from tests.club.harness import appoint
from tests.games.kegeln.test_app import start as start_kegeln
from tests.games.kegeln.test_rules import SEED_THROWS
from tests.games.logik.test_app_flow import start as start_logik
from tests.games.words.test_app_flow import open_game, set_word

MODEL = PlackettLuce()  # openskill's defaults, independent of core/ratings.py


class Expected:
    """The ratings openskill gives, game by game, from the library directly."""

    def __init__(self) -> None:
        self.ratings: dict[tuple[str, str], tuple[float, float, int]] = {}

    def play(self, kind: str, teams: list[list[str]], ranks: list[float],
             fixed: dict[str, tuple[float, float]] | None = None) -> None:
        fixed = fixed or {}

        def prior(p: str) -> tuple[float, float]:
            if p in fixed:
                return fixed[p]
            mu, sigma, _ = self.ratings.get((kind, p), (25.0, 25 / 3, 0))
            return mu, sigma

        new = MODEL.rate([[MODEL.rating(*prior(p)) for p in team] for team in teams], ranks=ranks)
        for team, rated in zip(teams, new, strict=True):
            for p, r in zip(team, rated, strict=True):
                if p not in fixed:
                    games = self.ratings.get((kind, p), (0, 0, 0))[2]
                    self.ratings[(kind, p)] = (r.mu, r.sigma, games + 1)


def stored(db: str) -> dict[tuple[str, str], tuple[float, float, int]]:
    with sqlite3.connect(db) as conn:
        rows = conn.execute("SELECT kind, user_id, mu, sigma, games FROM ratings WHERE chat_id = 'group-1'").fetchall()
    return {(k, u): (mu, sg, g) for k, u, mu, sg, g in rows}


def assert_agree(db: str, want: Expected) -> None:
    got = stored(db)
    assert set(got) == set(want.ratings)
    for key, (mu, sigma, games) in want.ratings.items():
        assert abs(got[key][0] - mu) < 1e-9 and abs(got[key][1] - sigma) < 1e-9 and got[key][2] == games, key


async def duel(table: Table, draw: bool) -> str:
    """A duel alice–bob, really played (rated); returns the winner ('' for a draw)."""
    _gid, first, second = await start_duel(table)
    await played_out(table, first, second, draw)
    return "" if draw else first


async def test_rated_games_agree_with_openskill_and_top_shows_the_order(table: Table, db: str) -> None:
    want = Expected()
    for draw in (False, False, True):
        winner = await duel(table, draw)
        ranks = [1.0, 1.0] if draw else [1.0 if p == winner else 2.0 for p in ("alice", "bob")]
        want.play("duel", [["alice"], ["bob"]], ranks)
    assert_agree(db, want)
    # Logik: all rows used is a draw
    await start_logik(table, "12345", "54321", "rows 8")
    for _ in range(8):
        await table.say("alice", "66666")
        r = await table.say("bob", "77777")
    assert "Draw" in texts(r)
    want.play("logik", [["alice"], ["bob"]], [1.0, 1.0])
    assert_agree(db, want)
    # the word game: a ranking by points
    gid = await open_game(table, "points 1")
    turn = await set_word(table, gid, "crane")
    r = await table.say(turn, "crane")
    st = await table.state(gid)
    assert st["phase"] == "finished", texts(r)
    moved = {u for u, n in st["counts"].items() if n} | {r["setter"] for r in st["rounds"]}
    players = [p["user_id"] for p in st["players"] if p["user_id"] in moved]  # who made no move is not rated
    points = {p: st["points"].get(p, 0) for p in players}
    want.play("words", [[p] for p in players], [1.0 + sum(v > points[p] for v in points.values()) for p in players])
    assert_agree(db, want)
    # Hausnummern: the members by place (Sven 941, Birgit 732, Hanne 516, Klaus 308), then teams as teams
    await appoint(table, "alice")  # the club's scorer: rated club games
    await start_kegeln(table)
    for pins, pos in SEED_THROWS:
        r = await table.say("alice", f"/wurf {pins} {10 ** pos}")
    assert "Winner: Sven" in texts(r)
    want.play("kegeln", [["sven"], ["birgit"], ["hanne"], ["klaus"]], [1, 2, 3, 4])
    await start_kegeln(table, "/kegeln high 2 teams Birgit Klaus / Sven Hanne / Ute")
    for cmd in ("9 Z", "8 Z", "1 Z", "0 Z", "2 Z", "0 E", "0 E", "0 E", "0 E", "0 E"):
        r = await table.say("alice", f"/wurf {cmd}")
    assert "Winner: Team 2" in texts(r)
    want.play("kegeln", [["birgit", "klaus"], ["sven", "hanne"], ["ute"]], [2, 1, 3])
    assert_agree(db, want)
    with sqlite3.connect(db) as conn:  # the club's members are names within its chat: rated there only
        scopes = dict(conn.execute("SELECT kind, group_concat(DISTINCT chat_id) FROM ratings GROUP BY kind").fetchall())
    assert scopes["kegeln"] == "group-1" and ratings.EVERYWHERE in scopes["duel"].split(",")
    # /top duel: the conservative rating first, with games played
    order = sorted(("alice", "bob"), key=lambda p: -(want.ratings[("duel", p)][0] - 3 * want.ratings[("duel", p)][1]))
    out = texts(await table.say("alice", "/top duel"))
    assert "skill ratings" in out and "(3 games)" in out
    assert out.index(f"1. {order[0].capitalize()}") < out.index(f"2. {order[1].capitalize()}")
    out = texts(await table.say("alice", "/top kegeln"))
    assert "1. Sven" in out and "(2 games)" in out and "(1 game)" in out  # Ute played once
    assert "No finished duels" not in texts(await table.say("alice", "/top"))  # the leaderboard by wins stays
    assert "Ratings exist for these games" in texts(await table.say("alice", "/top chess"))


async def test_a_bot_game_is_rated_against_the_fixed_bot_rating(app: App, db: str, tmp_path: Path) -> None:
    app.solver_cache = str(tmp_path / "solver-cache")  # never the repository's data/
    table = Table(app)
    winner = await bot_duel_played(table)
    bot = ratings.BOT_RATINGS["easy"]
    want = Expected()
    want.play("duel", [["ann"], ["bot"]], [2.0 if winner == "bot" else 1.0, 2.0 if winner == "ann" else 1.0],
              fixed={"bot": (bot.mu, bot.sigma)})
    assert_agree(db, want)  # the bot itself has no stored rating: its level's is fixed


async def test_unrated_games_change_nothing(table: Table, app: App, clock: Clock, db: str) -> None:
    # declined
    r = await table.say("alice", "/duel <@bob>")
    await table.press("bob", table.button(r, ":decline"))
    # timed out (the starter owed the first guess: lost, but too short to be rated)
    await start_duel(table)
    clock.now += 7200
    await app.runner.sweep()
    # assisted practice (hinted), and practice at all
    await table.say("ann", "/practice 3")
    await table.say("ann", "/hint")
    await table.say("ann", "/giveup")
    await table.say("cy", "/practice 3")
    await table.say("cy", "/giveup")
    # a word game that timed out: the guesser who owed the move is out, but only the setter made a move
    gid = await open_game(table, "points 1", players=("dan", "eve", "fay"))
    await set_word(table, gid, "crane")
    clock.now += 7200
    await app.runner.sweep()
    assert (await table.state(gid))["outcome"] == "finished"
    assert stored(db) == {}
    assert "no rated games" in texts(await table.say("alice", "/top duel"))
