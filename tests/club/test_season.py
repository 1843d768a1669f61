"""The Kegel season through the App on a real SQLite file with an injected clock: several club evenings
make the season table (/saison), the year in review (/jahresrueckblick and its alias in every language)
and their charts in all five languages; the season start set by the scorer; /kegelexport by season;
/kegelmerge with its refusals (a non-scorer, another chat, a running game, two people of one game)."""

from __future__ import annotations

import csv
import io
import sqlite3
from datetime import UTC, date, datetime
from typing import Any
from zoneinfo import ZoneInfo

import pytest
from PIL import Image

from bot.app import ratings_rebuild
from bot.app.app import App
from bot.club import records as storage
from core.club import season as kegeln_season
from core.messages import Actor, Chat, Inbound, Response
from tests.app.conftest import Clock
from tests.app.harness import GROUP, PLATFORM, Table, texts
from tests.club.harness import appoint

ALIASES = {"en": "yearreview", "de": "jahresrueckblick", "sv": "arsrevy", "ru": "itogi_goda",
           "bg": "godishen_pregled"}


def at(y: int, m: int, d: int, h: int = 20) -> float:
    return datetime(y, m, d, h, tzinfo=UTC).timestamp()


async def game(t: Table, mode: str, throws: dict[str, tuple[int, int]], who: str = "alice") -> None:
    """A 2-place game: round 1 goes on the tens, round 2 on the ones."""
    r = await t.say(who, f"/kegeln {mode} 2 " + " ".join(throws))
    assert "Hausnummern #" in texts(r), texts(r)
    for rnd, place in ((0, 10), (1, 1)):
        for pins in throws.values():
            r = await t.say(who, f"/wurf {pins[rnd]} {place}")
    assert "🏆" in texts(r), texts(r)


async def season_2026(t: Table, clock: Clock) -> None:
    await appoint(t, "alice")  # the club's scorer: her games are club games
    clock.now = at(2025, 12, 5)  # the season before
    await game(t, "high", {"Birgit": (9, 9), "Klaus": (5, 5)})
    clock.now = at(2026, 2, 10)
    await game(t, "high", {"Birgit": (7, 2), "Klausi": (3, 3), "Sven": (8, 1)})  # Sven 81
    clock.now += 1800
    await game(t, "low", {"Birgit": (1, 2), "Klausi": (0, 4), "Sven": (3, 3)})  # Birgit 12
    clock.now = at(2026, 6, 15)
    await game(t, "high", {"Birgit": (6, 6), "Klaus": (9, 0), "Sven": (5, 5)})  # Klaus 90
    clock.now = at(2026, 11, 20)
    await game(t, "high", {"Birgit": (8, 8), "Klaus": (9, 9), "Sven": (0, 0)})  # Klaus 99
    clock.now += 1800
    await game(t, "high", {"Birgit": (9, 5), "Klaus": (9, 7), "Sven": (0, 2)})  # Klaus 97
    clock.now = at(2026, 12, 18)  # the Christmas evening


async def test_season_numbers_per_number_of_places(table: Table, clock: Clock) -> None:
    """Issue 23.12: a 2-place number (at most 99) and a 3-place one (at most 999) are never averaged
    together in the № column: one group per number of places."""
    clock.now = at(2026, 3, 1)
    await game(table, "high", {"Klaus": (9, 9), "Birgit": (5, 5)})  # Klaus 99, Birgit 55
    r = await table.say("alice", "/kegeln high 3 Klaus Birgit")
    assert "3 places" in texts(r), texts(r)
    for pins, place in ((1, 100), (9, 100), (1, 10), (9, 10), (1, 1), (9, 1)):  # Klaus 111, Birgit 999
        r = await table.say("alice", f"/wurf {pins} {place}")
    assert "🏆" in texts(r), texts(r)
    out = texts(await table.say("alice", "/saison"))
    assert "per number of places (best–worst, places)" in out, out
    assert "1. Birgit — 2 · 1/0 · № 55.0 (55–55, 2 places) / 999.0 (999–999, 3 places) · " in out, out
    assert "2. Klaus — 2 · 1/0 · № 99.0 (99–99, 2 places) / 111.0 (111–111, 3 places) · " in out, out


def png(r: Response) -> Image.Image:
    images = [m.image for m in r.messages if m.image]
    assert len(images) == 1
    assert len(images[0]) > 5000  # a real picture, not an empty canvas
    img = Image.open(io.BytesIO(images[0]))
    img.load()
    assert img.format == "PNG" and img.width >= 700
    return img


def rows(db: str, sql: str) -> list[tuple[Any, ...]]:
    with sqlite3.connect(db) as conn:
        return conn.execute(sql).fetchall()


def stored_ratings(db: str) -> dict[str, tuple[float, float, int]]:
    return {u: (mu, sg, g) for u, mu, sg, g in rows(db, "SELECT user_id, mu, sigma, games FROM ratings"
                                                        " WHERE kind = 'kegeln' AND chat_id = 'group-1'")}


def admin(name: str, chat: Chat = GROUP) -> Inbound:
    return Inbound(Actor(PLATFORM, name, name.capitalize(), "en", is_admin=True), chat, command="kegelmerge",
                   args=("Klausi", "Klaus"))


async def merge_as_admin(t: Table, name: str = "dave") -> Response:
    """/kegelmerge Klausi Klaus by a chat admin, confirmed with ✅ (the answer, or the refusal of the ask)."""
    r = await t.send(admin(name))
    if not any(m.buttons for m in r.messages):
        return r
    assert "Merge Klausi into Klaus?" in texts(r), texts(r)
    return await t.press(name, t.button(r, "-yes"))


async def test_season_table_and_review_in_every_language(table: Table, clock: Clock, db: str) -> None:
    await season_2026(table, clock)
    r = await table.say("alice", "/saison")
    out = texts(r)
    assert "Season 2026 (Jan 1, 2026 – Dec 31, 2026): 5 games on 3 evenings" in out, out
    lines = out.split("\n")
    # Klaus: 3 wins; Birgit and Sven 1 each, Birgit with the better Kegel-Schnitt (54 pins / 10 > 27 / 10)
    assert lines[2] == "1. Klaus — 3 · 3/0 · № 95.3 (99–90, 2 places) · 9×4 · P×1 · ⌀ 7.2", lines
    assert lines[3].startswith("2. Birgit — 5 · 0/1 · № 80.2 (95–66, 2 places)")
    assert lines[4].startswith("3. Sven — 5 · 1/0")
    assert lines[5].startswith("4. Klausi — 2 · 0/0 · № 33.0 (33–33, 2 places)")
    png(r)
    r = await table.say("alice", "/saison 2025")
    assert "Season 2025" in texts(r) and "1. Birgit — 1 · 1/0 · № 99.0 (99–99, 2 places)" in texts(r)
    r = await table.say("alice", "/saison 2024")
    assert "No Kegeln game finished in season 2024" in texts(r)

    r = await table.say("alice", "/jahresrueckblick")
    out = texts(r)
    for expected in ["🎄 The year in review, season 2026", "🏆 Club champion: Klaus — 3 wins",
                     "📈 Most improved: Birgit — 4.0 pins per throw more",  # Klaus and Klausi are apart yet
                     "💨 Pumpen king: Sven — 3 Pumpen",
                     # 10 Feb: Sven and Birgit won one each, Sven threw 3.75 to her 3.0; June and November: Klaus
                     "👑 Evening king most often: Klaus — 2 evenings",
                     "🌟 Best evening: Klaus on Nov 20, 2026 — 8.5 pins",
                     "🔝 Highest Hausnummer: Klaus (game #5) — 99",
                     "🔻 Lowest Hausnummer (low mode): Birgit (game #3) — 12",
                     "🎯 Most 9s in one game: Klaus (game #5) — 2 nines"]:
        assert expected in out, (expected, out)
    png(r)

    for lang, alias in ALIASES.items():
        await table.say("alice", f"/lang {lang}")
        season = await table.say("alice", "/saison")
        review = await table.say("alice", f"/{alias}")
        assert texts(review) == texts(await table.say("alice", "/jahresrueckblick"))
        for r in (season, review):
            assert "2026" in texts(r) and "Klaus" in texts(r) and "error" not in texts(r).lower()
            assert len(texts(r)) < 2000  # fits a Discord message
            png(r)


async def test_the_review_in_german_names_the_pumpenkoenig(table: Table, clock: Clock) -> None:
    await season_2026(table, clock)
    await table.say("alice", "/lang de")
    out = texts(await table.say("alice", "/jahresrueckblick"))
    assert "💨 Pumpenkönig: Sven — 3 Pumpen" in out and "🏆 Vereinsmeister: Klaus — 3 Siege" in out, out
    assert "20.11.2026" in out and "8,5 Kegel pro Wurf" in out


async def test_the_scorer_sets_the_season_start_and_others_cannot(table: Table, clock: Clock, db: str) -> None:
    await season_2026(table, clock)
    r = await table.say("bob", "/saison 09-01")
    assert "Only a chat admin or one of the club's scorers (Alice) sets the season start" in texts(r), texts(r)
    assert rows(db, "SELECT * FROM kegeln_seasons") == []
    r = await table.say("alice", "/saison 09-01")
    assert "now start on September 1: season 2026/27 runs until Aug 31, 2027" in texts(r), texts(r)
    r = await table.say("alice", "/saison")  # Sep 2026 – Aug 2027: the November evening only
    assert "Season 2026/27 (Sep 1, 2026 – Aug 31, 2027): 2 games on 1 evening" in texts(r), texts(r)
    r = await table.say("alice", "/saison 2025/26")  # Sep 2025 – Aug 2026: December, February, June
    assert "Season 2025/26" in texts(r) and ": 4 games on 3 evenings" in texts(r)
    r = await table.say("alice", "/saison 31.02.")
    assert "“31.02.” is not a day of the year" in texts(r)
    assert rows(db, "SELECT month, day FROM kegeln_seasons") == [(9, 1)]


async def test_export_carries_the_season(table: Table, clock: Clock) -> None:
    await season_2026(table, clock)
    r = await table.say("alice", "/kegelexport")
    assert r.messages[0].file is not None
    name, data = r.messages[0].file
    log = list(csv.reader(io.StringIO(data.decode("utf-8-sig"))))
    assert name == "kegeln-group-1.csv" and log[0][-1] == "season"
    assert {row[-1] for row in log[1:]} == {"2025", "2026"}
    r = await table.say("alice", "/kegelexport 2026")
    assert r.messages[0].file is not None
    name, data = r.messages[0].file
    log = list(csv.reader(io.StringIO(data.decode("utf-8-sig"))))
    assert name == "kegeln-group-1-2026.csv" and {row[-1] for row in log[1:]} == {"2026"}
    assert len(log) == 1 + 2 * (3 + 3 + 3 + 3 + 3)
    assert "Season 2026, the club's throw log: 5 games, 30 throws" in texts(r)
    assert "1. Klaus — 3 · 3/0" in texts(r)


async def test_merge_two_names_of_one_member(table: Table, clock: Clock, db: str, app: App) -> None:
    await season_2026(table, clock)
    before = rows(db, "SELECT * FROM kegeln_members ORDER BY game_id, member")
    # a player who is neither scorer nor admin
    r = await table.say("bob", "/kegelmerge Klausi Klaus")
    assert "Only a chat admin or one of the club's scorers (Alice) merges members" in texts(r), texts(r)
    # another chat cannot reach these records: its own scorer finds no such members there
    other = Chat(PLATFORM, "group-2", private=False)
    await table.say("carol", "/kegeln high 2 Anna Ben", chat=other)
    r = await table.say("carol", "/kegelmerge Klausi Klaus", chat=other)
    assert "No finished Kegeln game here with Klausi yet." in texts(r)
    r = await table.send(admin("dave", other))
    assert not any(m.buttons for m in r.messages)
    assert "No finished Kegeln game here with Klausi yet." in texts(r)
    for text, expected in [("/kegelmerge Klaus Klaus", "Klaus and Klaus are the same member"),
                           ("/kegelmerge Klaus", "/kegelmerge OLD NEW"),
                           ("/kegelmerge Zoe Klaus", "No finished Kegeln game here with Zoe yet."),
                           ("/kegelmerge Birgit Klaus", "Birgit and Klaus played in the same game (#1, #4, #5, #6)")]:
        assert expected in texts(await table.say("alice", text)), text
    # a member in a running game
    await table.say("alice", "/kegeln high 2 Klausi Hanne")
    r = await table.say("alice", "/kegelmerge Klausi Klaus")
    assert "Klausi is playing in the running game #" in texts(r)
    await table.say("alice", "/cancel")
    assert rows(db, "SELECT * FROM kegeln_members ORDER BY game_id, member") == before

    ratings_before = dict(rows(db, "SELECT user_id, games FROM ratings WHERE kind = 'kegeln'"))
    assert ratings_before["klausi"] == 2 and ratings_before["klaus"] == 4
    r = await merge_as_admin(table)  # a chat admin may merge
    assert "🔗 Merged: Klausi is now Klaus — 2 games moved, Klaus has 6 games." in texts(r), texts(r)
    assert rows(db, "SELECT COUNT(*) FROM kegeln_members WHERE member = 'klausi'") == [(0,)]
    assert rows(db, "SELECT COUNT(*) FROM kegeln_throws WHERE name = 'Klausi'") == [(0,)]
    merged = dict(rows(db, "SELECT user_id, games FROM ratings WHERE kind = 'kegeln'"))
    assert "klausi" not in merged and merged["klaus"] == 6 and merged["birgit"] == 6
    merged_ratings = stored_ratings(db)
    await ratings_rebuild.rebuild(app)  # as if Klaus had played every game under one name
    assert stored_ratings(db) == merged_ratings  # (tests/club/test_merge_ratings.py: and the history)
    out = texts(await table.say("alice", "/jahresrueckblick"))
    assert "📈 Most improved: Klaus — 4.7 pins per throw more" in out, out
    out = texts(await table.say("alice", "/saison"))
    assert "1. Klaus — 5 · 3/0" in out and "Klausi" not in out
    assert "Klausi" not in texts(await table.say("alice", "/kegelstats"))
    # the other chat's game is untouched
    assert rows(db, "SELECT COUNT(*) FROM kegeln_members WHERE chat_id = 'group-2'") == [(0,)]


@pytest.mark.parametrize(("typed", "start", "label"), [
    ("2026-09-01", (9, 1), "2026/27"), ("09-01", (9, 1), "2026/27"), ("1.9.", (9, 1), "2026/27"),
    ("9/1", (9, 1), "2026/27"), ("9", (9, 1), "2026/27"), ("01-01", (1, 1), "2026")])
def test_season_start_as_typed(typed: str, start: tuple[int, int], label: str) -> None:
    got = kegeln_season.parse_start(typed)
    assert got is not None and (got.month, got.day) == start and got.label(2026) == label


def test_a_season_runs_from_its_start_to_the_day_before_the_next() -> None:
    start = kegeln_season.Start(9, 1)
    assert start.year_at(at(2026, 8, 31, 23)) == 2025 and start.year_at(at(2026, 9, 1, 0)) == 2026
    assert start.last_day(2026).isoformat() == "2027-08-31"
    leap = kegeln_season.Start(2, 29)
    assert leap.begins(2027).date().isoformat() == "2027-03-01"


async def test_merge_seen_through_the_app(table: Table, clock: Clock, app: App) -> None:
    """The merge on either database (run again on PostgreSQL by tests/postgres): the statistics, the
    season and the ratings follow; the rating is the replay of the merged records."""
    await season_2026(table, clock)
    rated = {r.user_id: r.games for r in await app.store.top_rated(PLATFORM, GROUP.chat_id, "kegeln", limit=20)}
    assert rated["klausi"] == 2 and rated["klaus"] == 4
    r = await merge_as_admin(table)
    assert "Klaus has 6 games" in texts(r)
    rated = {r.user_id: r.games for r in await app.store.top_rated(PLATFORM, GROUP.chat_id, "kegeln", limit=20)}
    assert "klausi" not in rated and rated["klaus"] == 6
    assert "Klausi" not in texts(await table.say("alice", "/saison"))
    assert "Klaus: 6 games" in texts(await table.say("alice", "/kegelstats Klaus"))
    r = await table.say("alice", "/kegelexport 2026")
    assert r.messages[0].file is not None and b"Klausi" not in r.messages[0].file[1]


async def test_a_long_season_table_is_capped(table: Table, clock: Clock) -> None:
    """20 members with long names: the first LIST_MAX_LINES (10 here) and "… and 10 more"; fits Discord's 2000."""
    members = {f"Mitglied{'x' * 18}{i:02d}": (i % 10, i // 10) for i in range(20)}  # no tie
    clock.now = at(2026, 3, 3)
    await game(table, "high", members)
    for command in ("/saison", "/jahresrueckblick", "/kegelexport 2026"):
        out = texts(await table.say("alice", command))
        assert len(out) < 2000, (command, len(out))
    out = texts(await table.say("alice", "/saison"))
    assert "… and 10 more" in out and out.count("Mitglied") == 10


async def test_help_knows_the_localised_names(table: Table) -> None:
    """The help lists /yearreview: `/help yearreview` explains it (not "unknown command")."""
    for name in ("yearreview", "/итоги_года", "jahresrueckblick"):
        out = texts(await table.say("alice", f"/help {name}"))
        assert out.startswith("/yearreview [SEASON] (also /jahresrueckblick)"), out


async def test_one_local_evening_across_utc_midnight_is_one_evening_everywhere(table: Table, clock: Clock,
                                                                              app: App) -> None:
    """Issue 23.12: /abend, /saison and the year in review share one definition of a club evening:
    the chat's day (/timezone) from 06:00 to 06:00. In New York (UTC−5) games at 17:00 and at 00:30
    local time are one evening, though they lie either side of UTC midnight and 7.5 hours apart."""
    await app.store.set_chat_tz(PLATFORM, GROUP.group, "America/New_York")
    clock.now = at(2026, 12, 4, 22)  # 17:00 in New York, 4 December
    await game(table, "high", {"Birgit": (7, 2), "Klaus": (3, 3)})
    clock.now = at(2026, 12, 5, 5) + 1800  # 00:30 in New York, 5 December (UTC: 05:30 on the 5th)
    await game(table, "high", {"Birgit": (8, 8), "Klaus": (9, 9)})
    clock.now = at(2026, 12, 5, 10) + 1800  # 05:30 in New York: still the evening of 4 December
    abend = texts(await table.say("alice", "/abend"))
    assert abend.splitlines()[0] == "🎳 Club evening, Dec 4, 2026: 2 games", abend
    saison = texts(await table.say("alice", "/saison"))
    assert "2 games on 1 evening" in saison, saison
    review = texts(await table.say("alice", "/jahresrueckblick"))
    assert "2 games on 1 evening" in review and "Dec 4, 2026" in review, review  # the best evening's day
    rv = kegeln_season.review(await season_rows_of(app), ZoneInfo("America/New_York"))
    assert rv.evenings == 1 and rv.best_evening is not None and rv.best_evening.day == date(2026, 12, 4)


async def season_rows_of(app: App) -> list[kegeln_season.SeasonRow]:
    since, until = kegeln_season.Start().span(2026)
    return await storage.season_rows(app.store, PLATFORM, GROUP.chat_id, since, until)
