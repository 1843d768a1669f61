"""`/top` and `/top season` of one chat rank a tie on wins the same way (issue 40): the most wins first; equal
wins, fewer games first (the only tie-break a reader can check in both tables: "won 1 of 2 games" and
"1 W · 0 D · 1 L"); then the name. Before, `/top` put more draws first and `/top season` fewer games."""

from __future__ import annotations

import sqlite3

from bot.app.app import App
from tests.app.conftest import Clock
from tests.app.harness import GROUP, PLATFORM, Table, texts

NOW = 1_000_000.0  # Mon 12 Jan 1970


def played(db: str, rows: list[tuple[str, str]]) -> None:
    """Finished duel results of (user, outcome) in the test chat, written as the store writes them."""
    with sqlite3.connect(db) as con:
        for game_id, (user, outcome) in enumerate(rows, 1000):
            con.execute("INSERT INTO results (game_id, platform, chat_id, user_id, name, kind, outcome, at)"
                        " VALUES (?, ?, ?, ?, ?, 'duel', ?, ?)",
                        (game_id, PLATFORM, GROUP.chat_id, user, user.capitalize(), outcome, NOW - 3600))


def order(text: str, names: tuple[str, ...]) -> list[str]:
    return sorted(names, key=text.index)


async def test_top_and_top_season_order_a_tie_alike(db: str, clock: Clock) -> None:
    clock.now = NOW
    await (await App.open(db, seed=1, clock=clock)).close()  # the schema, then the results as games left them
    # Dora: 1 win, 2 draws (3 games); Emil: 1 win, 1 loss (2 games); Finn: 2 wins, 3 losses
    played(db, [("dora", "win"), ("dora", "draw"), ("dora", "draw"), ("emil", "win"), ("emil", "loss"),
                ("finn", "win"), ("finn", "win"), *[("finn", "loss")] * 3])
    app = await App.open(db, seed=1, clock=clock)
    try:
        table = Table(app)
        alltime = texts(await table.say("carol", "/top"))
        season = texts(await table.say("carol", "/top season"))
    finally:
        await app.close()
    names = ("Dora", "Emil", "Finn")
    assert order(season, names) == ["Finn", "Emil", "Dora"], season
    assert order(alltime, names) == order(season, names), (alltime, season)
