"""Who may change the Kegel club's records, seen by a cheater, through the App on a real SQLite file:
a member who merely starts a game (and so scores it) can neither merge two real members nor move the
season start — a role does (core/club/roles.py), never games played;
/kegelmerge asks for a confirmation that only the asker can give and that goes stale
when the records change; a game started with the old name while the merge is being written is seen by
the merge's own transaction."""

from __future__ import annotations

from typing import Any

from bot.app.app import App
from bot.club import records as storage
from core.club.season import Start
from tests.app.conftest import Clock
from tests.app.harness import GROUP, PLATFORM, Table, texts
from tests.club.harness import appoint, as_chair
from tests.club.test_season import admin, at, game, season_2026


async def members(app: App) -> list[Any]:
    """The club's records as the store reads them (on either database): per member and game, and the
    throw log with its names."""
    where = (PLATFORM, GROUP.chat_id)
    return [*await storage.series(app.store, *where), *await storage.throw_log(app.store, *where)]


async def season_start(app: App) -> Start | None:
    return await storage.season_start(app.store, PLATFORM, GROUP.chat_id)


async def test_a_scorer_of_a_running_game_cannot_merge_members_of_games_others_scored(
        app: App, table: Table, clock: Clock) -> None:
    """bob starts a game (so he keeps its score) and tries to merge two real members, Klausi and Klaus,
    whose games alice scored: refused with the rule, nothing changes."""
    await season_2026(table, clock)
    before = await members(app)
    await table.say("bob", "/kegeln high 2 Xaver Yvonne")
    r = await table.say("bob", "/kegelmerge Klausi Klaus")
    assert "Only a chat admin or one of the club's scorers (Alice) merges members" in texts(r), texts(r)
    assert not any(m.buttons for m in r.messages)
    assert await members(app) == before


async def test_a_scorer_of_a_running_game_cannot_move_the_season_start(app: App, table: Table, clock: Clock) -> None:
    await season_2026(table, clock)
    await table.say("bob", "/kegeln high 2 Xaver Yvonne")
    r = await table.say("bob", "/saison 09-01")
    assert "Only a chat admin or one of the club's scorers (Alice) sets the season start" in texts(r), texts(r)
    assert await season_start(app) is None


async def test_the_season_start_by_an_appointed_scorer_only(app: App, table: Table, clock: Clock) -> None:
    """carol keeps the score of the last game and of real games before: no role, no season start; appointed
    by a chat admin she may, and once the role is taken back she may not again."""
    await season_2026(table, clock)
    for _ in range(3):
        await game(table, "high", {"Birgit": (1, 1), "Sven": (2, 2), "Klaus": (3, 3)}, who="carol")
    r = await table.say("carol", "/saison 09-01")
    assert "Only a chat admin or one of the club's scorers (Alice) sets the season start" in texts(r), texts(r)
    await appoint(table, "carol")
    assert "now start on September 1" in texts(await table.say("carol", "/saison 09-01"))
    assert "no longer one of the club's scorers" in await as_chair(table, "scorer", "remove", "Carol")
    assert "Only a chat admin" in texts(await table.say("carol", "/saison 10-01"))
    assert "now start on October 1" in texts(await table.say("alice", "/saison 10-01"))  # alice still is one
    assert await season_start(app) == Start(10, 1)


async def test_the_scorer_of_the_typo_merges_after_confirming(app: App, table: Table, clock: Clock) -> None:
    """alice scored every game of Klausi: she may merge, after pressing ✅; nothing is written before."""
    await season_2026(table, clock)
    before = await members(app)
    r = await table.say("alice", "/kegelmerge Klausi Klaus")
    assert "Merge Klausi into Klaus?" in texts(r), texts(r)
    assert await members(app) == before
    yes = table.button(r, "-yes")
    r = await table.press("alice", yes)
    assert "🔗 Merged: Klausi is now Klaus — 2 games moved, Klaus has 6 games." in texts(r), texts(r)
    assert not any("klausi" in (r.name.casefold(), getattr(r, "member", "")) for r in await members(app))
    r = await table.press("alice", yes)  # the same button again: nothing left to confirm
    assert "out of date" in texts(r), texts(r)


async def test_a_confirmation_pressed_by_someone_else_is_refused(app: App, table: Table, clock: Clock) -> None:
    await season_2026(table, clock)
    before = await members(app)
    r = await table.send(admin("dave"))
    yes, no = table.button(r, "-yes"), table.button(r, "-no")
    for who in ("bob", "alice"):  # alice could merge herself, but this question is dave's
        assert "Only Dave can answer this question." in texts(await table.press(who, yes))
        assert "Only Dave can answer this question." in texts(await table.press(who, no))
    assert await members(app) == before
    r = await table.press("dave", no)
    assert "Klausi and Klaus stay apart" in texts(r), texts(r)
    assert "out of date" in texts(await table.press("dave", yes))
    assert await members(app) == before


async def test_a_stale_confirmation_after_the_records_changed_is_refused(app: App, table: Table, clock: Clock) -> None:
    """Asked, then a game finishes with Klausi (the records the question showed are no longer the records):
    the old ✅ is refused; asked again, the new question merges all three games."""
    await season_2026(table, clock)
    r = await table.send(admin("dave"))
    yes = table.button(r, "-yes")
    clock.now = at(2026, 12, 18, 21)
    await game(table, "high", {"Klausi": (4, 4), "Hanne": (5, 5)})
    before = await members(app)
    r = await table.press("dave", yes)
    assert "This confirmation is out of date" in texts(r), texts(r)
    assert await members(app) == before
    r = await table.send(admin("dave"))
    r = await table.press("dave", table.button(r, "-yes"))
    assert "Klausi is now Klaus — 3 games moved, Klaus has 7 games." in texts(r), texts(r)


async def test_a_game_started_with_the_old_name_during_the_merge_is_seen(
        app: App, table: Table, clock: Clock, monkeypatch: Any) -> None:
    """The race, made deterministic: between the merge's checks and its write, alice starts a game with
    Klausi. The merge's transaction sees the running game and refuses; nothing is merged."""
    await season_2026(table, clock)
    before = await members(app)
    real = storage.merge
    started: list[str] = []

    async def start_first(*args: Any, **kwargs: Any) -> Any:
        started.append(texts(await table.say("alice", "/kegeln high 2 Klausi Hanne")))
        return await real(*args, **kwargs)

    monkeypatch.setattr(storage, "merge", start_first)
    r = await table.send(admin("dave"))
    if any(m.buttons for m in r.messages):  # (the merge without its confirmation: the race alone)
        r = await table.press("dave", table.button(r, "-yes"))
    assert started and "Hausnummern #" in started[0], started
    assert "Klausi is playing in the running game #7" in texts(r), texts(r)
    assert await members(app) == before


async def test_cheap_games_buy_neither_the_season_start_nor_a_merge(
        app: App, table: Table, clock: Clock) -> None:
    """Issue 23.3 and 34: mallory scores games of two made-up names, X and Y — the last game's scorer and
    the scorer of every game of X — and is trusted with nothing: that takes a role. Her games are casual
ones: X is not even in the club's records."""
    await season_2026(table, clock)
    before = await members(app)
    for _ in range(3):
        await game(table, "high", {"Xaver": (1, 1), "Yvonne": (2, 2)}, who="mallory")
        r = await table.say("mallory", "/saison 09-01")
        assert "Only a chat admin or one of the club's scorers" in texts(r), texts(r)
        r = await table.say("mallory", "/kegelmerge Xaver Klaus")  # her games are casual: Xaver is nobody
        assert "No finished Kegeln game here with Xaver yet" in texts(r), texts(r)
        assert not any(m.buttons for m in r.messages)
    assert await season_start(app) is None
    assert [m for m in await members(app) if m.name in ("Klaus", "Klausi")] == [
        m for m in before if m.name in ("Klaus", "Klausi")]
