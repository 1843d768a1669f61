"""What players see of their ratings: /stats (the rating per game here with its trend, and across
chats), /rating (a chart over time, drawn off the event loop), /top GAME all — and what a group
must not learn from them (other chats' players and games). Through the real App on SQLite."""

from __future__ import annotations

import io
import threading
from pathlib import Path

import pytest
from PIL import Image

from bot.app.app import App
from bot.games import shared
from core import ratings
from core.messages import Chat, Response
from core.ratings_chart import rating_chart
from tests.app.conftest import Clock
from tests.app.harness import PLATFORM, Table, texts
from tests.app.test_duel_flow import bot_duel_played, start_duel
from tests.app.test_pictures_off_loop import recording
from tests.app.test_ratings import Expected
from tests.app.test_ratings_rebuild import finish_duel
from tests.club.harness import appoint
from tests.games.kegeln.test_app import start as start_kegeln
from tests.games.kegeln.test_rules import SEED_THROWS

GROUP_2 = Chat(PLATFORM, "group-2", private=False)


def ordinal(r: tuple[float, float, int]) -> float:
    return round(r[0] - 3 * r[1], 1)


def image(r: Response) -> Image.Image:
    pngs = [m.image for m in r.messages if m.image]
    assert len(pngs) == 1, texts(r)
    return Image.open(io.BytesIO(pngs[0]))


async def test_stats_show_rating_trend_and_across_chats(app: App, clock: Clock, tmp_path: Path) -> None:
    app.solver_cache = str(tmp_path / "solver-cache")
    one, two = Table(app), Table(app, group=GROUP_2)
    here, everywhere = Expected(), Expected()
    winners = []
    for _ in range(3):  # group-1: three duels alice–bob
        _gid, first, second = await start_duel(one)
        winners.append(await finish_duel(one, first, second))
        ranks = [1.0 if p == winners[-1] else 2.0 for p in ("alice", "bob")]
        here.play("duel", [["alice"], ["bob"]], ranks)
        everywhere.play("duel", [["alice"], ["bob"]], ranks)
        clock.now += 86400
    _gid, first, second = await start_duel(two)  # group-2: one duel alice–bob
    winner = await finish_duel(two, first, second)
    ranks = [1.0 if p == winner else 2.0 for p in ("alice", "bob")]
    everywhere.play("duel", [["alice"], ["bob"]], ranks)
    # ann plays the bot in group-1 only
    await bot_duel_played(one)

    out = texts(await one.say("alice", "/stats"))
    mine, far = here.ratings[("duel", "alice")], everywhere.ratings[("duel", "alice")]
    change = ordinal(mine) - 0.0
    arrow = "↑" if change > 0 else "↓"
    assert "Skill ratings here (conservative rating, μ ± σ):" in out
    assert (f"1A2B duel: {ordinal(mine)} ({round(mine[0], 1)} ± {round(mine[1], 1)}), 3 games · {arrow} "
            f"{abs(change)} over the last 3 games · everywhere {ordinal(far)} (4 games)") in out, out
    # in German, with the decimal comma
    r = await one.say("alice", "/lang de")
    out = texts(await one.say("alice", "/stats"))
    assert "Spielstärke hier (konservative Schätzung, μ ± σ):" in out and "in den letzten 3 Spielen" in out, out
    assert f"{ordinal(mine)}".replace(".", ",") in out
    await one.say("alice", "/lang en")
    assert r.messages

    # group-2 sees alice's rating across chats, but not ann (who never played there) nor group-1's history
    out = texts(await two.say("bob", "/top duel all"))
    assert "this chat's players by their skill rating across all chats" in out
    assert "Alice" in out and "Bob" in out and "Ann" not in out and "(4 games)" in out, out
    assert "Ann" not in texts(await two.say("bob", "/top duel"))
    out = texts(await two.say("bob", "/rating duel alice"))
    assert "📈 Alice — 1A2B duel:" in out and "1 game" in out and "everywhere" not in out, out
    assert "only in this chat" in texts(await one.say("alice", "/top kegeln all"))
    everyone = texts(await one.say("alice", "/top duel all"))
    assert "Ann" in everyone and everyone.index("Alice") >= 0


async def test_rating_chart_is_drawn_off_the_loop(table: Table, clock: Clock,
                                                  monkeypatch: pytest.MonkeyPatch) -> None:
    threads: list[int] = []
    monkeypatch.setattr(shared, "rating_chart", recording(threads, rating_chart))
    assert "No rated games here yet" in texts(await table.say("alice", "/rating"))
    for _ in range(7):
        _gid, first, second = await start_duel(table)
        await finish_duel(table, first, second)
        clock.now += 86400
    r = await table.say("bob", "/rating")  # bob's most played rated game: the duel
    assert image(r).size == (720, 400)
    assert "📈 Bob — 1A2B duel:" in texts(r) and "7 games" in texts(r) and "over the last 5 games" in texts(r)
    assert len(threads) == 1 and threading.get_ident() not in threads
    assert "Bob — Logik: no rated games in this chat yet." in texts(await table.say("alice", "/rating logik bob"))
    # Kegeln: the player is a club member by name
    await appoint(table, "alice")  # the club's scorer: rated club games
    await start_kegeln(table)
    for pins, pos in SEED_THROWS:
        await table.say("alice", f"/wurf {pins} {10 ** pos}")
    r = await table.say("alice", "/rating kegeln SVEN")
    assert "📈 Sven — Hausnummern:" in texts(r) and "1 game" in texts(r) and "in the last game" in texts(r)
    assert image(r).size == (720, 400)


def test_trend_over_the_last_games() -> None:
    steps = [ratings.Rating(25.0 + i, 8.0 - i / 2, i + 1) for i in range(8)]
    change, n = ratings.trend(steps, 8) or (0.0, 0)
    assert n == 5 and abs(change - (steps[-1].ordinal - steps[-6].ordinal)) < 1e-12
    assert ratings.trend(steps[:2], 2) == (steps[1].ordinal - ratings.NEW.ordinal, 2)
    assert ratings.trend(steps[3:5], 5) == (steps[4].ordinal - steps[3].ordinal, 1)  # history begun late
    assert ratings.trend(steps[4:5], 5) is None and ratings.trend([], 0) is None
